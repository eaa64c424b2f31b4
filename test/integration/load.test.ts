import { readFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Parser, type Quad, type Term } from 'n3';
import { afterAll, describe, expect, test } from 'vitest';
import { runLoad } from '../../src/cli/load-command.js';
import { LoadError } from '../../src/load/http.js';
import { type LoadProgress, loadFiles } from '../../src/load/load-files.js';
import { captureIo } from '../support/cli-io.js';
import { endpointOrSkip, startTestEndpoint } from '../support/virtuoso.js';

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/load/${name}`, import.meta.url));
const SMALL = fixture('small.ttl');
const OTHER = fixture('other.nt');

interface JsonTerm {
  type: string;
  value: string;
  datatype?: string;
  'xml:lang'?: string;
}

/** A triple as comparable text; blank nodes become `_:` (their identity is checked separately). */
function key(s: string, p: string, o: string): string {
  return `${s} ${p} ${o}`;
}
// Virtuoso lower-cases language tags (they compare case-insensitively) and stores
// xsd:boolean true as "1": same values, so both sides are put in that form.
function literalText(value: string, lang?: string, datatype?: string): string {
  if (lang) return `"${value}"@${lang.toLowerCase()}`;
  if (!datatype || datatype.endsWith('#string')) return `"${value}"`;
  if (datatype.endsWith('#boolean')) return `"${value === 'true' || value === '1'}"^^${datatype}`;
  return `"${value}"^^${datatype}`;
}
function n3Text(term: Term): string {
  if (term.termType === 'BlankNode') return '_:';
  if (term.termType === 'Literal') return literalText(term.value, term.language, term.datatype.value);
  return term.value;
}
function jsonText(term: JsonTerm): string {
  if (term.type === 'bnode') return '_:';
  if (term.type === 'uri') return term.value;
  return literalText(term.value, term['xml:lang'], term.datatype);
}
function expectedTriples(...files: string[]): string[] {
  return files
    .flatMap((file) => new Parser({ baseIRI: pathToFileURL(file).href }).parse(readFileSync(file, 'utf8')) as Quad[])
    .map((q) => key(n3Text(q.subject), n3Text(q.predicate), n3Text(q.object)))
    .sort();
}

const started = await startTestEndpoint();
const endpoint = endpointOrSkip(started, 'loader against Virtuoso');

async function select(query: string): Promise<Record<string, JsonTerm>[]> {
  const response = await fetch(endpoint!.endpointUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/sparql-results+json' },
    body: new URLSearchParams({ query }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { results: { bindings: Record<string, JsonTerm>[] } }).results.bindings;
}
async function storedTriples(graph: string): Promise<string[]> {
  const rows = await select(`SELECT ?s ?p ?o FROM <${graph}> WHERE { ?s ?p ?o }`);
  return rows.map((r) => key(jsonText(r.s!), jsonText(r.p!), jsonText(r.o!))).sort();
}
/** The structure that batching could break: each blank node must keep all of its triples. */
async function expectBlankNodesIntact(graph: string): Promise<void> {
  const ex = 'http://example.org/load/';
  const address = await select(`SELECT ?street ?city ?lat FROM <${graph}> WHERE {
    <${ex}alice> <${ex}address> ?a . ?a <${ex}street> ?street ; <${ex}city> ?city ; <${ex}geo> ?g . ?g <${ex}lat> ?lat }`);
  expect(address.map((r) => [r.street?.value, r.city?.value, r.lat?.value])).toEqual([
    ['Main St 1', 'Athens', '37.98'],
  ]);
  // Both files say `_:x`: two different nodes, each with its own name.
  const tags = await select(
    `SELECT ?who ?name FROM <${graph}> WHERE { ?who <${ex}tag> ?t . ?t <${ex}name> ?name } ORDER BY ?who`,
  );
  expect(tags.map((r) => [r.who?.value, r.name?.value])).toEqual([
    [`${ex}bob`, 'tag from small.ttl'],
    [`${ex}carol`, 'tag from other.nt'],
  ]);
}

describe.skipIf(!endpoint)('loadFiles against Virtuoso', () => {
  const e = endpoint!;
  const expected = expectedTriples(SMALL, OTHER);
  const isVirtuoso = e?.name === 'virtuoso'; // not an external SPARQL_ENDPOINT
  const graphStoreUrl = isVirtuoso
    ? e.endpointUrl.replace(/\/sparql$/, '/sparql-graph-crud')
    : process.env.SPARQL_GRAPH_STORE;
  const used: string[] = [];
  afterAll(async () => {
    // An external store keeps its data: drop the graphs written here (the harness drops e.graph).
    if (!isVirtuoso)
      for (const g of used)
        await fetch(e.endpointUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/sparql-update' },
          body: `DROP SILENT GRAPH <${g}>`,
        });
    await e?.stop();
  });
  const graphFor = (name: string) => {
    used.push(`${e.graph}/${name}`);
    return `${e.graph}/${name}`;
  };

  test('harness: the endpoint started and lets plain HTTP update', () => {
    console.log(`loader test endpoint: ${e.description}, started in ${e.startupMs} ms`);
    expect(e.endpointUrl).toMatch(/^https?:\/\/.+/);
  });

  test.skipIf(!graphStoreUrl)(
    'Graph Store Protocol: exactly the fixture triples arrive, blank nodes intact',
    async () => {
      const graph = graphFor('gsp');
      const result = await loadFiles({
        endpointUrl: e.endpointUrl,
        graphStoreUrl,
        graph,
        files: [SMALL, OTHER],
        batchTriples: 3,
      });
      expect(result).toMatchObject({ triples: expected.length, protocol: 'graph-store' });
      expect(await storedTriples(graph)).toEqual(expected);
      await expectBlankNodesIntact(graph);
    },
  );

  test('SPARQL Update in batches of two: the same triples, blank nodes intact, progress reported', async () => {
    const graph = graphFor('update');
    const progress: LoadProgress[] = [];
    const result = await loadFiles({
      endpointUrl: e.endpointUrl,
      graph,
      files: [SMALL, OTHER],
      graphStoreUrl: false,
      batchTriples: 2,
      progressEvery: 5,
      onProgress: (p) => progress.push(p),
    });
    expect(result).toMatchObject({ triples: expected.length, protocol: 'update' });
    expect(await storedTriples(graph)).toEqual(expected);
    await expectBlankNodesIntact(graph);
    expect(progress.filter((p) => !p.fileDone).length).toBeGreaterThanOrEqual(3);
    expect(progress.filter((p) => p.fileDone).map((p) => p.file)).toEqual([SMALL, OTHER]);
  });

  test.skipIf(!isVirtuoso)('the Graph Store URL is guessed from /sparql; Digest auth on /sparql-auth', async () => {
    const guessed = await loadFiles({ endpointUrl: e.endpointUrl, graph: graphFor('guessed'), files: [OTHER] });
    expect(guessed.protocol).toBe('graph-store');
    const auth = e.endpointUrl.replace(/\/sparql$/, '/sparql-auth');
    const graph = graphFor('digest');
    for (const graphStore of [undefined, false] as const) {
      const result = await loadFiles({
        endpointUrl: auth,
        graph,
        files: [SMALL],
        user: 'dba',
        password: 'dba',
        graphStoreUrl: graphStore,
        batchTriples: 5,
      });
      expect(result.protocol).toBe(graphStore === false ? 'update' : 'graph-store');
    }
    // Loaded twice: triples without blank nodes merge, those with blank nodes are new nodes.
    const small = expectedTriples(SMALL);
    expect((await storedTriples(graph)).length).toBe(small.length + small.filter((t) => t.includes('_:')).length);
  });

  test('a refused load is one clear line: status, endpoint, store message, no stack', async () => {
    const io = captureIo();
    const lines = io.err;
    const wrong = new URL('/no-such-graph-store', e.endpointUrl).href;
    const code = await runLoad(['--endpoint', e.endpointUrl, '--graph-store', wrong, '--graph', e.graph, SMALL], io);
    expect(code).toBe(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(`^load failed: Graph Store endpoint ${wrong}\\?graph=\\S+ refused the data: HTTP 4\\d\\d`),
    );
    expect(lines[0]).not.toMatch(/\n\s+at /);

    if (!isVirtuoso) return;
    const auth = e.endpointUrl.replace(/\/sparql$/, '/sparql-auth');
    const refused = loadFiles({
      endpointUrl: auth,
      graph: e.graph,
      files: [SMALL],
      graphStoreUrl: false,
      user: 'dba',
      password: 'wrong',
    });
    await expect(refused).rejects.toThrow(LoadError);
    await expect(refused).rejects.toThrow(`SPARQL Update endpoint ${auth} refused the data: HTTP 401`);
  });
});

describe('runLoad usage', () => {
  test('bad usage prints the usage text and exits 2', async () => {
    const io = captureIo();
    const errors = io.err;
    expect(await runLoad([SMALL], io)).toBe(2);
    expect(await runLoad(['--endpoint', 'http://x/sparql', '--nope', SMALL], io)).toBe(2);
    expect(await runLoad(['--endpoint', 'http://x/sparql', '--batch-size', '0', SMALL], io)).toBe(2);
    expect(errors).toHaveLength(3);
    expect(errors.every((l) => l.includes('Usage: sparql-jsonapi load'))).toBe(true);
  });

  test('a missing file, unknown format or syntax error is reported before anything is sent', async () => {
    const broken = join(await mkdtemp(join(tmpdir(), 'load-test-')), 'broken.ttl');
    await writeFile(broken, '<http://x/s> <http://x/p> "unterminated .\n');
    await expect(loadFiles({ endpointUrl: 'http://127.0.0.1:9/sparql', files: [broken] })).rejects.toThrow(
      `${broken}: Unexpected`,
    );
    await expect(loadFiles({ endpointUrl: 'http://127.0.0.1:9/sparql', files: ['nope.ttl'] })).rejects.toThrow(
      'nope.ttl: file not found',
    );
    await expect(loadFiles({ endpointUrl: 'http://127.0.0.1:9/sparql', files: ['data.rdf'] })).rejects.toThrow(
      'unknown RDF format',
    );
  });
});
