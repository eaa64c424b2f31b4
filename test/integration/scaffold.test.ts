/**
 * `sparql-jsonapi scaffold` end to end, on both stores: the command introspects data it has never
 * seen, writes a mapping, and that mapping loads without edits and serves over real HTTP with
 * every type non-empty. Three datasets: the sample; a library built here WITH SHACL shapes (the
 * shapes decide the fields, names and cardinalities); and a slice of QUDT, WITHOUT shapes. The
 * oracle is the data itself, parsed with N3: each type's `meta.count` is the number of IRIs its
 * class has as members, and fetched resources carry the values the data gives them.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Parser, type Quad, Writer } from 'n3';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { main } from '../../src/cli/main.js';
import { loadFiles } from '../../src/load/load-files.js';
import { loadMapping } from '../../src/mapping/load-mapping.js';
import type { Mapping } from '../../src/mapping/model.js';
import { RDF_TYPE } from '../../src/rdf/vocabulary.js';
import { createHttpStore } from '../../src/store/http-store.js';
import { createOxigraphStore } from '../../src/store/oxigraph-store.js';
import type { Store } from '../../src/store/store.js';
import { ApiClient } from '../support/api-client.js';
import { captureIo, listeningPort } from '../support/cli-io.js';
import { ENDPOINT_STORE_NAMES, STORE_NAMES, type StoreName, sharedEndpoint } from '../support/each-store.js';
import { SAMPLE_DATA } from '../support/global-setup.js';

const dir = await mkdtemp(join(tmpdir(), 'scaffold-test-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A book of the library dataset, as built: what the API must show for it. */
interface Book {
  readonly slug: string;
  readonly title: string;
  readonly year?: number;
  readonly keywords: readonly string[];
  /** Author codes (lowercase hex: their ids). */
  readonly authors: readonly string[];
}
interface Library {
  readonly books: readonly Book[];
  readonly data: string;
  readonly shapes: string;
}

/**
 * A library no scaffold has seen: books (readable slugs), authors (hex codes), publishers (in two
 * domains), generated from a seed, and SHACL shapes for books and authors (publishers have none).
 */
function buildLibrary(seed: number): Library {
  // mulberry32: small, and its low bits are as random as its high ones.
  let state = seed >>> 0;
  const random = (n: number) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return (((t ^ (t >>> 14)) >>> 0) / 2 ** 32) * n;
  };
  const pick = <T>(items: readonly T[]) => items[Math.floor(random(items.length))]!;
  const below = (n: number) => Math.floor(random(n));
  const words = ['silent', 'river', 'glass', 'garden', 'north', 'ember', 'atlas', 'winter', 'paper', 'moon'];
  const authors = ['a1', 'b7', 'c30', 'd04', 'e5', 'f6f', '9a'];
  const publishers = [
    '<http://pub.example.org/p/harbor>',
    '<http://pub.example.org/p/quill>',
    '<http://press.example.net/lantern>',
  ];
  const books: Book[] = Array.from({ length: 24 }, (_, i) => {
    const title = `The ${pick(words)} ${pick(words)} ${i}`;
    const keywords = [...new Set(Array.from({ length: below(4) }, () => pick(words)))];
    const written = [...new Set(Array.from({ length: 1 + below(2) }, () => pick(authors)))];
    return {
      slug: title.toLowerCase().replaceAll(' ', '-'),
      title,
      ...(below(5) > 0 && { year: 1900 + below(120) }),
      keywords,
      authors: written,
    };
  });
  const data = [
    '@prefix ex: <http://example.org/library/> .',
    '@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .',
    '@prefix foaf: <http://xmlns.com/foaf/0.1/> .',
    ...books.map((b, i) =>
      [
        `<http://example.org/library/book/${b.slug}> a ex:Book ; ex:title ${JSON.stringify(b.title)}`,
        ...(b.year === undefined ? [] : [`ex:published "${b.year}"^^xsd:gYear`]),
        ...b.keywords.map((k) => `ex:keyword "${k}"`),
        ...b.authors.map((a) => `ex:author <http://example.org/library/author/${a}>`),
        `ex:publisher ${publishers[i % publishers.length]}`,
        `ex:internalNote "shelf ${i}" .`,
      ].join(' ;\n  '),
    ),
    ...authors.map(
      (a, i) =>
        `<http://example.org/library/author/${a}> a ex:Author ; foaf:name "Author ${a}"@en ; ex:born ${1900 + i} .`,
    ),
    ...publishers.map((p, i) => `${p} a ex:Publisher ; ex:name "Publisher ${i}" .`),
  ].join('\n');
  const shapes = `@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix ex: <http://example.org/library/> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
@prefix foaf: <http://xmlns.com/foaf/0.1/> .
ex:BookShape a sh:NodeShape ; sh:targetClass ex:Book ;
  sh:property [ sh:path ex:title ; sh:datatype xsd:string ; sh:maxCount 1 ; sh:name "title"@en, "Titel"@de ; sh:order 1 ] ,
    [ sh:path ex:published ; sh:datatype xsd:gYear ; sh:maxCount 1 ; sh:name "year published" ; sh:order 2 ] ,
    [ sh:path ex:keyword ; sh:datatype xsd:string ; sh:order 3 ] ,
    [ sh:path ex:author ; sh:class ex:Author ; sh:name "written by" ; sh:order 4 ] ,
    [ sh:path ex:publisher ; sh:class ex:Publisher ; sh:maxCount 1 ; sh:order 5 ] .
ex:AuthorShape a sh:NodeShape ; sh:targetClass ex:Author ;
  sh:property [ sh:path foaf:name ; sh:datatype rdf:langString ; sh:maxCount 1 ] ,
    [ sh:path [ sh:inversePath ex:author ] ; sh:class ex:Book ; sh:name "books" ] .
`;
  return { books, data, shapes };
}

const library = buildLibrary(20260523);
const LIBRARY_DATA = join(dir, 'library.ttl');
const LIBRARY_SHAPES = join(dir, 'library-shapes.ttl');
const QUDT_SLICE = join(dir, 'qudt-slice.nt');
await writeFile(LIBRARY_DATA, library.data);
await writeFile(LIBRARY_SHAPES, library.shapes);
await writeFile(QUDT_SLICE, qudtSlice(150));

function parse(file: string): Quad[] {
  return new Parser({ baseIRI: pathToFileURL(file).href }).parse(readFileSync(file, 'utf8')) as Quad[];
}

/** Quads of the first `units` QUDT units (by IRI) and the metre, and of the quantity kinds they refer to. */
function qudtSlice(units: number): string {
  const vocab = 'node_modules/@zazuko/rdf-vocabularies/ontologies';
  const unitQuads = parse(`${vocab}/unit.nq`);
  const kindQuads = parse(`${vocab}/quantitykind.nq`);
  const chosen = new Set(
    [
      ...new Set(
        unitQuads
          .filter((q) => q.predicate.value === RDF_TYPE && q.object.value === 'http://qudt.org/schema/qudt/Unit')
          .map((q) => q.subject.value),
      ),
    ]
      .sort()
      .slice(0, units),
  ).add('http://qudt.org/vocab/unit/M');
  const unitPart = unitQuads.filter((q) => chosen.has(q.subject.value));
  const kinds = new Set(
    unitPart
      .filter((q) => q.predicate.value === 'http://qudt.org/schema/qudt/hasQuantityKind')
      .map((q) => q.object.value),
  );
  const writer = new Writer({ format: 'N-Triples' });
  for (const q of [...unitPart, ...kindQuads.filter((q) => kinds.has(q.subject.value))])
    writer.addQuad(q.subject, q.predicate, q.object);
  let text = '';
  writer.end((_error, result) => (text = result));
  return text;
}

/** The number of IRIs each class has as members in the files: what every type's `meta.count` must be. */
function membersByClass(files: readonly string[]): Map<string, number> {
  const members = new Map<string, Set<string>>();
  for (const q of files.flatMap(parse)) {
    if (q.predicate.value !== RDF_TYPE || q.subject.termType !== 'NamedNode') continue;
    const set = members.get(q.object.value) ?? new Set();
    set.add(q.subject.value);
    members.set(q.object.value, set);
  }
  return new Map([...members].map(([c, s]) => [c, s.size]));
}

/** The stores every dataset is scaffolded on; an endpoint that could not start is skipped (each-store.ts says so loudly). */
const STORES = STORE_NAMES;
const skipped = (store: StoreName) => store !== 'embedded' && 'skip' in sharedEndpoint(store);

/** Where a dataset is in a store: the `scaffold` arguments that name it, and the store to serve it from. */
interface Target {
  readonly args: string[];
  open(): Promise<Store>;
}

/** The files for the embedded store; for an endpoint, a fresh graph they are loaded into (or the graph that holds them). */
async function target(store: StoreName, files: readonly string[], loadedGraph?: string): Promise<Target> {
  if (store === 'embedded')
    return {
      args: files.flatMap((f) => ['--data', f]),
      open: () => createOxigraphStore({ files: [...files], workers: 1 }),
    };
  const endpoint = sharedEndpoint(store);
  if ('skip' in endpoint) throw new Error(endpoint.skip);
  let graph = loadedGraph;
  if (graph === undefined) {
    graph = `http://example.org/sparql-jsonapi-test/${randomUUID()}`;
    await loadFiles({ endpointUrl: endpoint.endpointUrl, graph, files: [...files] });
  }
  const { endpointUrl } = endpoint;
  return {
    args: ['--endpoint', endpointUrl, '--graph', graph],
    open: async () => createHttpStore({ endpointUrl, graph }),
  };
}

/** Runs `scaffold … --out FILE` in process; resolves the file and what the command printed. */
async function scaffold(where: Target, name: string): Promise<{ file: string; stderr: string }> {
  const file = join(dir, `${name}-${randomUUID()}.yaml`);
  const io = captureIo();
  const code = await main(['scaffold', ...where.args, '--out', file], io);
  expect(code, io.err.join('\n')).toBe(0);
  return { file, stderr: io.err.join('\n') };
}

/** Serves a mapping on a store over real HTTP for `body`. */
async function serving<T>(mapping: Mapping, store: Store, body: (api: ApiClient) => Promise<T>): Promise<T> {
  const api = await ApiClient.listen(createApp({ datasets: [{ name: 'scaffolded', mapping, store, linkBase: '' }] }));
  try {
    return await body(api);
  } finally {
    await api.close();
  }
}

/**
 * Every type of the mapping has exactly its class's IRI members (so none is empty, and the id
 * strategy fits every member), and its first resource can be fetched by its id.
 */
async function expectEveryTypeServed(api: ApiClient, mapping: Mapping, members: Map<string, number>): Promise<void> {
  for (const type of mapping.types.values()) {
    const list = await api.get(`/${type.name}?page[size]=3`);
    expect(list.status, type.name).toBe(200);
    expect(list.body.data.length, `${type.name} is not empty`).toBeGreaterThan(0);
    expect(list.body.meta.count, `${type.name}: every member of <${type.classIri}>`).toBe(members.get(type.classIri));
    const first = list.body.data[0];
    const one = await api.get(`/${type.name}/${encodeURIComponent(first.id)}`);
    expect(one.status, `${type.name}/${first.id}`).toBe(200);
    expect(one.body.data).toEqual(first);
  }
}

describe('scaffold: the sample data', () => {
  for (const store of STORES) {
    it.skipIf(skipped(store))(
      `[${store}] a type per class, each served with all its members; the summary names them`,
      async () => {
        const shared = store === 'embedded' ? undefined : sharedEndpoint(store);
        const where = await target(store, [SAMPLE_DATA], shared && !('skip' in shared) ? shared.graph : undefined);
        const { file, stderr } = await scaffold(where, 'sample');
        const mapping = await loadMapping(file);
        const members = membersByClass([SAMPLE_DATA]);
        expect(new Set([...mapping.types.values()].map((t) => t.classIri))).toEqual(new Set(members.keys()));
        for (const type of mapping.types.values())
          expect(stderr).toContain(`${type.name} (${members.get(type.classIri)})`);
        const served = await where.open();
        try {
          await serving(mapping, served, (api) => expectEveryTypeServed(api, mapping, members));
        } finally {
          await served.close();
        }
      },
    );
  }
});

describe('scaffold: a dataset with SHACL shapes', () => {
  const files = [LIBRARY_DATA, LIBRARY_SHAPES];
  for (const store of STORES) {
    it.skipIf(skipped(store))(
      `[${store}] the shapes decide fields, names and cardinality; the data decides ids`,
      async () => {
        const where = await target(store, files);
        const { file } = await scaffold(where, 'library');
        const text = readFileSync(file, 'utf8');
        const mapping = await loadMapping(file);
        expect([...mapping.types.keys()].sort()).toEqual(['authors', 'books', 'publishers']);
        const books = mapping.types.get('books')!;
        // sh:name gives the names; sh:maxCount 1 one value, none several; ex:internalNote has no shape.
        expect(
          Object.fromEntries([...books.attributes].map(([n, a]) => [n, { many: a.many, datatype: a.datatype }])),
        ).toEqual({
          title: { many: false, datatype: undefined },
          'year-published': { many: false, datatype: 'http://www.w3.org/2001/XMLSchema#gYear' },
          keyword: { many: true, datatype: undefined },
        });
        expect(
          Object.fromEntries([...books.relationships].map(([n, r]) => [n, [r.target, r.cardinality, r.inverse]])),
        ).toEqual({ 'written-by': ['authors', 'many', false], publisher: ['publishers', 'one', false] });
        expect(text).toMatch(/the data also uses \w+:internalNote, which the shape does not describe/);
        const authors = mapping.types.get('authors')!;
        expect([...authors.relationships].map(([n, r]) => [n, r.target, r.inverse])).toEqual([
          ['books', 'books', true],
        ]);
        expect(authors.attributes.get('name')?.language).toBe('en');
        // Ids: readable book slugs → local; hex author codes → template; publishers in two domains → hex.
        expect(books.id.kind).toBe('local');
        expect(authors.id.kind).toBe('template');
        expect(mapping.types.get('publishers')!.id).toEqual({ kind: 'hex', base: '' });

        const served = await where.open();
        try {
          await serving(mapping, served, async (api) => {
            await expectEveryTypeServed(api, mapping, membersByClass(files));
            await expectBooksAsBuilt(api, library);
          });
        } finally {
          await served.close();
        }
      },
    );
  }
});

/** Each book shows the values it was built with, and its authors link back to it. */
async function expectBooksAsBuilt(api: ApiClient, built: Library): Promise<void> {
  // Every book: among them some without keywords, without a year, with two authors.
  expect(built.books.some((b) => b.keywords.length === 0)).toBe(true);
  expect(built.books.some((b) => b.year === undefined)).toBe(true);
  expect(built.books.some((b) => b.authors.length === 2)).toBe(true);
  for (const book of built.books) {
    const got = await api.get(`/books/${encodeURIComponent(book.slug)}`);
    expect(got.status, book.slug).toBe(200);
    expect(got.body.data.attributes).toEqual({
      title: book.title,
      'year-published': book.year === undefined ? null : String(book.year),
      keyword: [...book.keywords].sort(),
    });
    const authors = await api.get(`/books/${encodeURIComponent(book.slug)}/links/written-by`);
    expect(authors.body.data.map((r: { id: string }) => r.id).sort()).toEqual([...book.authors].sort());
    for (const author of book.authors) {
      const back = await api.get(`/authors/${author}/links/books?page[size]=100`);
      expect(back.body.data.map((r: { id: string }) => r.id)).toContain(book.slug);
    }
  }
}

describe('scaffold: a slice of QUDT, without shapes', () => {
  for (const store of STORES) {
    it.skipIf(skipped(store))(`[${store}] units and quantity kinds with readable ids, related both ways`, async () => {
      const where = await target(store, [QUDT_SLICE]);
      const started = performance.now();
      const { file } = await scaffold(where, 'qudt');
      const seconds = (performance.now() - started) / 1000;
      expect(seconds, 'a scaffold of a small dataset takes seconds').toBeLessThan(20);
      const mapping = await loadMapping(file);
      const units = mapping.types.get('units')!;
      const kinds = mapping.types.get('quantity-kinds')!;
      expect(units.id).toEqual({ kind: 'local', base: 'http://qudt.org/vocab/unit/' });
      expect(kinds.id).toEqual({ kind: 'local', base: 'http://qudt.org/vocab/quantitykind/' });
      const toKinds = [...units.relationships.values()].find((r) => r.predicate.endsWith('/hasQuantityKind'));
      expect(toKinds).toMatchObject({ target: 'quantity-kinds', cardinality: 'many', inverse: false });
      const served = await where.open();
      try {
        await serving(mapping, served, async (api) => {
          await expectEveryTypeServed(api, mapping, membersByClass([QUDT_SLICE]));
          const metre = await api.get(`/units/M/${toKinds!.name}?page[size]=100`);
          expect(metre.status).toBe(200);
          expect(metre.body.data.map((r: { id: string }) => r.id)).toContain('Length');
        });
      } finally {
        await served.close();
      }
    });
  }
});

/**
 * Edges: an outlier the sample may miss (a one-row check finds it), an id literal one member
 * lacks, members that are blank nodes only, values that are blank nodes.
 */
const EDGES = join(dir, 'edges.ttl');
await writeFile(
  EDGES,
  [
    '@prefix ex: <http://example.org/edges/> .',
    '@prefix mu: <http://mu.semte.ch/vocabularies/core/> .',
    ...Array.from({ length: 10 }, (_, i) => `<http://example.org/edges/code/0${i}> a ex:Code ; ex:label "code ${i}" .`),
    '<http://example.org/edges/code/zz-not-hex> a ex:Code ; ex:label "the odd one" .',
    ...Array.from(
      { length: 5 },
      (_, i) => `<http://example.org/edges/tagged/t${i}> a ex:Tagged ; mu:uuid "a${i}" ; ex:part [ ex:label "part" ] .`,
    ),
    '<http://example.org/edges/tagged/untagged> a ex:Tagged .',
    '[] a ex:Anonymous ; ex:label "a blank node" .',
  ].join('\n'),
);

describe('scaffold: every member fits the id strategy, whatever the sample saw', () => {
  for (const store of STORES) {
    it.skipIf(skipped(store))(
      `[${store}] an outlier outside the sample, a missing id literal, blank nodes`,
      async () => {
        const where = await target(store, [EDGES]);
        where.args.push('--sample-size', '2');
        const { file } = await scaffold(where, 'edges');
        const mapping = await loadMapping(file);
        expect([...mapping.types.keys()].sort()).toEqual(['codes', 'taggeds']);
        // Whether or not the sample held zz-not-hex, the check against every member found it.
        expect(mapping.types.get('codes')!.id).toEqual({ kind: 'local', base: 'http://example.org/edges/code/' });
        // mu:uuid is not on every member, so the IRIs decide, and the literal is an attribute.
        expect(mapping.types.get('taggeds')!.id.kind).toBe('local');
        // Blank nodes with values: a structured attribute, an object per node.
        expect([...mapping.types.get('taggeds')!.attributes.keys()]).toEqual(['part', 'uuid']);
        expect([...mapping.types.get('taggeds')!.attributes.get('part')!.fields!.keys()]).toEqual(['label']);
        expect(readFileSync(file, 'utf8')).toMatch(/# 2 of 2 members; 2 blank nodes, as objects\n\s+part:/);
        const served = await where.open();
        try {
          await serving(mapping, served, (api) => expectEveryTypeServed(api, mapping, membersByClass([EDGES])));
        } finally {
          await served.close();
        }
      },
    );
  }

  it('--out a file that exists: exit 2 and the file kept, before the data is read; --force replaces it', async () => {
    const out = join(dir, `edited-${randomUUID()}.yaml`);
    const edited = '# hand-edited\ntypes: {}\n';
    await writeFile(out, edited);
    const refused = captureIo();
    expect(await main(['scaffold', '--data', 'data/sample.ttl', '--out', out], refused)).toBe(2);
    expect(refused.err.join('\n')).toContain(`--out: ${out} exists and is left as it is`);
    expect(refused.err.join('\n')).toContain('--force');
    expect(refused.err.join('\n')).not.toContain('Usage:'); // no usage mistake: the message alone
    expect(readFileSync(out, 'utf8')).toBe(edited);
    const forced = captureIo();
    expect(await main(['scaffold', '--data', 'data/sample.ttl', '--out', out, '--force'], forced)).toBe(0);
    // What it wrote is the scaffold of the data, as written to a new file.
    const fresh = join(dir, `fresh-${randomUUID()}.yaml`);
    expect(await main(['scaffold', '--data', 'data/sample.ttl', '--out', fresh], captureIo())).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(fresh, 'utf8'));
    expect((await loadMapping(out)).types.size).toBeGreaterThan(0);
  });

  it('data without a class: exit 2, and nothing written', async () => {
    const untyped = join(dir, 'untyped.ttl');
    await writeFile(untyped, '<http://x.org/a> <http://x.org/p> "no class" .');
    const io = captureIo();
    const out = join(dir, 'untyped.yaml');
    expect(await main(['scaffold', '--data', untyped, '--out', out], io)).toBe(2);
    expect(io.err.join('\n')).toMatch(/no class has a member with an IRI/);
    expect(() => readFileSync(out)).toThrow(/ENOENT/);
  });
});

describe('serve without --mapping', () => {
  it.each(ENDPOINT_STORE_NAMES.filter((store) => !skipped(store)))(
    '[%s] --endpoint: serves a scaffold, written to a temporary file the log names',
    async (store) => {
      const endpoint = sharedEndpoint(store);
      if ('skip' in endpoint) return;
      const stopper = new AbortController();
      const io = captureIo({ LOG_LEVEL: 'info' }, stopper.signal);
      const exited = main(['serve', '--endpoint', endpoint.endpointUrl, '--graph', endpoint.graph, '--port', '0'], io);
      try {
        const port = await listeningPort(
          () => io.out,
          exited,
          () => io.err.join('\n'),
        );
        const said = io.out.map((l) => JSON.parse(l) as { msg: string; mapping?: string }).find((l) => l.mapping);
        expect(said?.msg).toMatch(/^no --mapping: serving a mapping scaffolded from the data, written to /);
        const mapping = await loadMapping(said!.mapping!);
        const members = membersByClass([SAMPLE_DATA]);
        for (const type of mapping.types.values()) {
          const response = await fetch(`http://127.0.0.1:${port}/${type.name}`, {
            headers: { Accept: 'application/vnd.api+json' },
          });
          expect(response.status, type.name).toBe(200);
          const body = (await response.json()) as { meta: { count: number } };
          expect(body.meta.count, type.name).toBe(members.get(type.classIri));
        }
        await rm(dirname(said!.mapping!), { recursive: true, force: true });
      } finally {
        stopper.abort();
        expect(await exited).toBe(0);
      }
    },
  );
});
