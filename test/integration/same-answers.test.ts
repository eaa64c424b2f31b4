import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Parser, Writer } from 'n3';
import { afterAll, beforeAll, describe, expect, it, test } from 'vitest';
import { writeDataset } from '../../scripts/generate.js';
import { createApp } from '../../src/app.js';
import { loadFiles } from '../../src/load/load-files.js';
import { loadMapping } from '../../src/mapping/load-mapping.js';
import type { Mapping } from '../../src/mapping/model.js';
import { createHttpStore } from '../../src/store/http-store.js';
import { createOxigraphStore } from '../../src/store/oxigraph-store.js';
import type { Store } from '../../src/store/store.js';
import { type ApiClient, CURSOR_PAGE } from '../support/api-client.js';
import { buildCorpus, type CorpusEntry, dataPicker, type WalkCase, walkCases } from '../support/corpus.js';
import { type EndpointStoreName, listenChecked, sharedEndpoint } from '../support/each-store.js';
import { changedAtLoad } from '../support/load-losses.js';
import { nonEmpty } from '../support/non-empty.js';
import { Oracle } from '../support/oracle.js';
import { type Shown, shownOrderProblems } from '../support/shown-order.js';
import { checkSortCorpus, idListDiff, type SortCase, type Walk } from '../support/sort-corpus.js';

/*
 * Same answers on every store: each dataset is served from the embedded store, from Virtuoso and
 * from Jena with the same mapping, every request of the corpus (test/support/corpus.ts) goes to
 * each over real HTTP, and each endpoint's JSON document must equal the embedded store's. Nothing
 * here says what an answer should be: the stores are compared with each other, and walks with
 * walks. Every sortable path is walked to the end in both directions, by page number and by
 * cursor, on each store: each member once, the cursor walk the same as the offset walk, and each
 * store's walk the same as the embedded store's. Two checks hold each store to the data instead:
 * the generated sort corpus (sort-corpus.ts: random sorts of collections and related lists, both
 * walks against the oracle's order), and the walks by each number attribute against the numbers
 * the store shows (shown-order.ts).
 */

/** The stores compared with the embedded one (each with the other's answers, through it). */
const OTHERS: readonly EndpointStoreName[] = ['virtuoso', 'jena'];
const QUDT = 'node_modules/@zazuko/rdf-vocabularies/ontologies';
const scratch = mkdtempSync(join(tmpdir(), 'same-answers-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const GENERATED = join(scratch, 'generated-300.nt');
await writeDataset({ activities: 300 }, GENERATED);

interface DatasetSpec {
  name: string;
  mapping: string;
  /** Served as they are by the embedded store; loaded into one fresh graph on Virtuoso. */
  files: string[];
  /**
   * How many relationships the walked sort paths cross (sort-cases.ts; `id` and the type's own
   * attributes are always walked): fewer on the larger datasets, to keep within CI's time.
   */
  walkDepth: number;
  /** The dataset's largest page (100 unless set): walks go by about a quarter of a type, up to it. */
  maxPageSize?: number;
  /**
   * The generated sort corpus (test/support/sort-corpus.ts): how many cases, over collections of
   * at most `maxCollection` members and related lists; `fixed` cases are walked first every time.
   */
  sortCorpus: {
    runs: number;
    maxCollection: number;
    maxSeveral?: number;
    fixed?: SortCase[];
  };
}

const DATASETS: DatasetSpec[] = [
  {
    name: 'sample',
    mapping: 'mappings/sample.yaml',
    files: ['data/sample.ttl'],
    walkDepth: 2,
    sortCorpus: { runs: 20, maxCollection: 400 },
  },
  {
    name: 'generated',
    mapping: 'mappings/sample.yaml',
    files: [GENERATED],
    walkDepth: 1,
    sortCorpus: { runs: 10, maxCollection: 400 },
  },
  {
    name: 'real-shapes',
    mapping: 'test/fixtures/real-shapes.yaml',
    files: ['test/fixtures/real-shapes.trig'],
    walkDepth: 1,
    sortCorpus: {
      runs: 15,
      maxCollection: 400,
      // Two flat keys under a parent, the second missing on some members: Virtuoso lost the
      // first key of those (found by the corpus, seed 490706024).
      // Then a number key before such a key: Virtuoso found no number in the first key's sum on 2 of
      // the 5 members without the second (found by the corpus, seed 23 at SORT_CORPUS_SCALE=3; the
      // missing flag now reads the cast alone, comparable.ts isNumberValue). Then names with characters
      // U+E000-U+FFFF and past U+FFFF, which Jena orders by UTF-16 code unit unless the server's
      // text keys put them in code point order (sparql/text-key.ts): a flat key, and a key of
      // several values (a MIN and a MAX over text keys).
      fixed: [
        { list: '/groups/10/items', sort: 'born,weight', size: 6 },
        { list: '/groups/18/items', sort: '-count,born', size: 5 },
        { list: '/items', sort: '-name,id', size: 50 },
        { list: '/items', sort: 'see-also.name,-name', size: 50 },
        { list: '/items', sort: '-see-also.name,id', size: 50 },
        // A single-valued key among keys of several values of a related list, computed per member
        // in a sub-select: Virtuoso lost the decimal of item 115 (seed 23, path 8).
        { list: '/items/313133/see-also', sort: 'see-also.tags,amount,label', size: 1 },
      ],
    },
  },
  // QUDT 2.1 (https://qudt.org) is CC BY 4.0: it is not shipped with this project, only read here from
  // the pinned devDependency @zazuko/rdf-vocabularies, which carries it as N-Quads in named graphs.
  {
    name: 'qudt',
    mapping: 'mappings/qudt.yaml',
    files: [`${QUDT}/unit.nq`, `${QUDT}/quantitykind.nq`, `${QUDT}/prefix.nq`],
    // Its own attributes and id only: a one-hop sort over 1747 units costs more than CI's time.
    walkDepth: 0,
    maxPageSize: 500,
    // Related lists (a quantity kind's units, a prefix's units) and the prefixes: sorts one hop away
    // over all 1,747 units or 881 quantity kinds cost more than CI's time.
    sortCorpus: {
      runs: 15,
      maxCollection: 100,
      // Up to three keys of several values: a related list computes each such key per member on
      // its own (sort-clauses.ts), so they no longer multiply its rows (Jena ARQ answered 504 past
      // 10 s for /units/UNITLESS/quantity-kinds?sort=label,-units.symbol,-id, seed 23, and
      // /units/M3-PER-SEC/quantity-kinds?sort=-units.label, seed 493448774; both are walked first).
      maxSeveral: 3,
      // Issue 23: 36 units, 5 without a UNECE code, and a grouped second key; Virtuoso's cursor
      // walks lost those 5 (descending) or put them first (ascending).
      fixed: [
        { list: '/quantity-kinds/Length/units', sort: '-unece-code,label', size: 10 },
        { list: '/quantity-kinds/Length/units', sort: 'unece-code,label', size: 10 },
        { list: '/units/UNITLESS/quantity-kinds', sort: 'label,-units.symbol,-id', size: 20 },
        { list: '/units/M3-PER-SEC/quantity-kinds', sort: '-units.label', size: 2 },
      ],
    },
  },
];

/**
 * The one allowance, by rule: what Virtuoso loses of an xsd:decimal beyond its range (above). For
 * each attribute whose data holds such decimals, the members holding one are known from the data.
 * A difference is excused when it is (a) that attribute's value where the embedded store shows one
 * of those decimals, or (b) the members of a page or a walk that sorts or filters by that attribute
 * (at any hop), when both lists are the same once those members are taken out of both (a page: the
 * shorter a prefix of the longer; its count and links then follow). Nothing else may differ.
 */
interface DecimalLoss {
  attribute: string;
  /** The lexical forms beyond Virtuoso's range, as the data writes them. */
  lexical: Set<string>;
  /** The ids of the members holding one. */
  ids: Set<string>;
}

function decimalLosses(mapping: Mapping, picker: ReturnType<typeof dataPicker>): DecimalLoss[] {
  const losses: DecimalLoss[] = [];
  for (const type of mapping.types.values())
    for (const attribute of type.attributes.values()) {
      const lost = picker
        .members(type.name)
        .map((m) => ({
          id: m.id,
          lexical: picker
            .memberValues(type.name, m.iri, attribute.name)
            .filter((t) => changedAtLoad('virtuoso', t))
            .map((t) => t.value),
        }))
        .filter((m) => m.lexical.length > 0);
      if (lost.length > 0)
        losses.push({
          attribute: attribute.name,
          lexical: new Set(lost.flatMap((m) => m.lexical)),
          ids: new Set(lost.map((m) => m.id)),
        });
    }
  return losses;
}

/** The losses a request's sort or filter parameters touch (by attribute name, at any hop). */
function lossesTouched(losses: DecimalLoss[], url: string): DecimalLoss[] {
  const params = [...new URL(url, 'http://x').searchParams].filter(([k]) => k === 'sort' || k.startsWith('filter'));
  const fields = params.flatMap(([k, v]) =>
    k === 'sort' ? v.split(',').map((f) => f.replace(/^-/, '')) : (k.match(/\[([^\]]+)\]/)?.[1] ?? ''),
  );
  return losses.filter((l) => fields.some((f) => f === l.attribute || f.endsWith(`.${l.attribute}`)));
}

const withoutIds = (list: unknown[], ids: Set<string>) => list.filter((id) => !ids.has(String(id)));
const sameList = (x: unknown[], y: unknown[]) => JSON.stringify(x) === JSON.stringify(y);

/** The ids of the members holding a lost decimal of an attribute the request sorts or filters by. */
function lossyIds(losses: DecimalLoss[], url: string): Set<string> {
  return new Set(lossesTouched(losses, url).flatMap((l) => [...l.ids]));
}

/**
 * (b) of the allowance for one page: when the request sorts or filters by an attribute with lost
 * decimals and the pages' members differ, both pages without those members must be the same list
 * (the shorter a prefix of the longer, as members leaving a full page make room for others); then
 * both are compared on that list, and the counts and page links (which follow the membership) are
 * left out. Returns the two answers to compare, and whether the allowance was needed.
 */
function withoutLossyMembers(losses: DecimalLoss[], url: string, a: Answer, b: Answer): [Answer, Answer, boolean] {
  const ids = lossyIds(losses, url);
  const data = [a.body?.data, b.body?.data];
  if (ids.size === 0 || !Array.isArray(data[0]) || !Array.isArray(data[1])) return [a, b, false];
  const idsOf = (list: { id: string }[]) => list.map((r) => r.id);
  if (sameList(idsOf(data[0]), idsOf(data[1]))) return [a, b, false];
  const [ra, rb] = data.map((list: { id: string }[]) => list.filter((r) => !ids.has(r.id)));
  const n = Math.min(ra!.length, rb!.length);
  const [pa, pb] = [idsOf(ra!), idsOf(rb!)];
  if (!sameList(pa.slice(0, n), pb.slice(0, n))) return [a, b, false];
  const trim = (answer: Answer, list: unknown[]): Answer => {
    const { meta, links, ...body } = answer.body;
    const { count: _count, ...rest } = meta ?? {};
    return { ...answer, body: { ...body, meta: rest, data: list.slice(0, n) } };
  };
  return [trim(a, ra!), trim(b, rb!), true];
}

/** Whether the allowance excuses one difference of an attribute's value (see DecimalLoss, (a)). */
function excused(losses: DecimalLoss[], d: Difference): boolean {
  const shown = (v: unknown) => v !== undefined && v !== null && v !== '';
  for (const loss of losses) {
    if (d.path.endsWith(`.attributes.${loss.attribute}`) && shown(d.embedded)) {
      const values = Array.isArray(d.embedded) ? d.embedded : [d.embedded];
      if (values.some((v) => [...loss.lexical].some((l) => l === String(v) || Number(l) === Number(v)))) return true;
    }
  }
  return false;
}

const PROFILE_ACCEPT = {
  Accept: 'application/vnd.api+json; profile="https://jsonapi.org/profiles/ethanresnick/cursor-pagination"',
};
const PLAIN_ACCEPT = { Accept: 'application/vnd.api+json' };

interface Answer {
  status: number;
  contentType: string | null;
  body: any;
}

/**
 * Requests in flight per server at once: the suite's tests run concurrently, and more than this would
 * only queue at the store (the embedded one answers 503 past its queue of 16 heavy queries, as it should).
 */
const IN_FLIGHT = 4;
const gates = new Map<string, { running: number; waiting: (() => void)[] }>();

async function get(base: string, url: string, headers: Record<string, string> = PLAIN_ACCEPT): Promise<Answer> {
  const gate = gates.get(base) ?? { running: 0, waiting: [] };
  gates.set(base, gate);
  if (gate.running >= IN_FLIGHT) await new Promise<void>((resolve) => gate.waiting.push(resolve));
  gate.running++;
  try {
    return await send(base, url, headers);
  } finally {
    gate.running--;
    gate.waiting.shift()?.();
  }
}

async function send(base: string, url: string, headers: Record<string, string>): Promise<Answer> {
  const response = await fetch(base + url, { headers });
  const text = await response.text();
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = { unparsable: text.slice(0, 200) };
  }
  return { status: response.status, contentType: response.headers.get('content-type'), body };
}

const compareIds = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** `included` has no order in JSON:API: both sides are compared sorted by type and id. */
function normalize(answer: Answer): Answer {
  const body = answer.body;
  if (body && Array.isArray(body.included)) {
    const included = [...body.included].sort(
      (a: any, b: any) => compareIds(a.type, b.type) || compareIds(String(a.id), String(b.id)),
    );
    return { ...answer, body: { ...body, included } };
  }
  return answer;
}

interface Difference {
  path: string;
  embedded: unknown;
  /** The other store's value. */
  other: unknown;
}

/** Every place where two JSON values differ, by path (`data[3].attributes.label`). */
function differences(a: unknown, b: unknown, path = '', out: Difference[] = []): Difference[] {
  if (Object.is(a, b)) return out;
  if (Array.isArray(a) && Array.isArray(b)) {
    const ids = (list: unknown[]) => list.map((x: any) => (x && typeof x === 'object' ? x.id : undefined));
    const [idsA, idsB] = [ids(a), ids(b)];
    if (idsA.some((id) => id !== undefined) && JSON.stringify(idsA) !== JSON.stringify(idsB)) {
      out.push({ path: `${path}[*].id`, embedded: idsA, other: idsB });
      return out;
    }
    for (let i = 0; i < Math.max(a.length, b.length); i++) differences(a[i], b[i], `${path}[${i}]`, out);
    return out;
  }
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const key of keys) differences((a as any)[key], (b as any)[key], path ? `${path}.${key}` : key, out);
    return out;
  }
  out.push({ path, embedded: a, other: b });
  return out;
}

const short = (value: unknown, max = 160) => {
  const text = value === undefined ? 'undefined' : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max)}…` : text;
};

function report(differencesFound: Difference[], other: string): string {
  return differencesFound
    .slice(0, 8)
    .map((d) =>
      Array.isArray(d.embedded) && Array.isArray(d.other) && d.path.endsWith('[*].id')
        ? `  ${d.path}: ${idListDiff(d.embedded as string[], d.other as string[])}`
        : `  ${d.path}: embedded ${short(d.embedded)} ≠ ${other} ${short(d.other)}`,
    )
    .concat(differencesFound.length > 8 ? [`  … and ${differencesFound.length - 8} more`] : [])
    .join('\n');
}

/** Follows `links.next` from the first page of a list (`/units`) to the end; checks the count and that no id repeats. */
async function walk(base: string, list: string, sort: string, size: number, cursor: boolean): Promise<Walk> {
  const ids: string[] = [];
  const problems: string[] = [];
  const mode = cursor ? 'cursor' : 'offset';
  let total: number | undefined;
  let url: string | null = `${list}?sort=${encodeURIComponent(sort)}&page[size]=${size}`;
  for (let pages = 0; url !== null; pages++) {
    const answer = await get(base, url, cursor ? PROFILE_ACCEPT : PLAIN_ACCEPT);
    if (answer.status !== 200) {
      problems.push(`${mode} walk: ${url} answered ${answer.status} ${short(answer.body?.errors?.[0]?.detail)}`);
      break;
    }
    if (cursor && answer.contentType !== CURSOR_PAGE)
      problems.push(`cursor walk: ${url} is no cursor page (${answer.contentType})`);
    total = cursor ? answer.body.meta?.page?.total : answer.body.meta?.count;
    ids.push(...answer.body.data.map((r: { id: string }) => r.id));
    url = answer.body.links?.next ?? null;
    if (total !== undefined && pages > total / size + 3) {
      problems.push(`${mode} walk: more than ${pages} pages of ${size} for ${total} members; stopped`);
      break;
    }
  }
  const repeated = ids.filter((id, i) => ids.indexOf(id) !== i);
  if (repeated.length > 0)
    problems.push(`${mode} walk: ${repeated.length} repeated ids (${short([...new Set(repeated)].slice(0, 5))})`);
  if (total !== ids.length)
    problems.push(`${mode} walk: visits ${new Set(ids).size} distinct of ${total} members (${ids.length} items)`);
  return { ids, problems };
}

/** The values of one attribute a walk by page number shows, member by member, to the end. */
async function walkShown(base: string, type: string, attribute: string, sort: string, size: number): Promise<Shown[]> {
  const shown: Shown[] = [];
  let url: string | null = `/${type}?sort=${sort}&fields[${type}]=${attribute}&page[size]=${size}`;
  for (let pages = 0; url !== null && pages < 100; pages++) {
    const answer = await get(base, url);
    if (answer.status !== 200) throw new Error(`${url} answered ${answer.status}`);
    shown.push(...answer.body.data.map((r: any) => ({ id: r.id, value: r.attributes[attribute] })));
    url = answer.body.links?.next ?? null;
  }
  return shown;
}

/** Every single-valued attribute a mapping types as a number, by type: what a number sort key is. */
function numberAttributes(mapping: Mapping): { type: string; attribute: string }[] {
  return [...mapping.types.values()].flatMap((type) =>
    [...type.attributes.values()]
      .filter(
        (a) =>
          !a.many && a.language === undefined && /#(decimal|double|float|integer|int|long)$/.test(a.datatype ?? ''),
      )
      .map((a) => ({ type: type.name, attribute: a.name })),
  );
}

/** The endpoints to compare with, each with the sample loaded; a missing one is a failure with CI=true. */
function comparedEndpoints() {
  return OTHERS.flatMap((name) => {
    const endpoint = sharedEndpoint(name);
    if (!('skip' in endpoint)) return [{ name, endpointUrl: endpoint.endpointUrl }];
    if (process.env.CI === 'true')
      test(`same answers on every store: a ${name} endpoint to compare with`, () => {
        throw new Error(`CI=true: ${endpoint.skip}`);
      });
    else console.warn(`\n!!! SKIPPED same-answers on ${name} (cross-store equivalence): ${endpoint.skip}\n`);
    return [];
  });
}

/**
 * Each store's and each server's time limit (the defaults are 10 s): answers are compared here,
 * not times (the bench measures those), and a page a machine shared with other work makes slow is
 * not a 504 that differs by store.
 */
const STORE_LIMIT_MS = 60_000;

const started = performance.now();
afterAll(() => console.log(`same-answers: ${((performance.now() - started) / 1000).toFixed(1)} s`));

const endpoints = comparedEndpoints();
if (endpoints.length > 0) {
  for (const spec of DATASETS) {
    const mapping: Mapping = await loadMapping(spec.mapping);
    const picker = dataPicker(spec.files, mapping);
    const corpus = nonEmpty(buildCorpus(mapping, picker), `${spec.name} corpus`);
    const walks = nonEmpty(walkCases(mapping, picker, spec.walkDepth, spec.maxPageSize), `${spec.name} walks`);
    // What each store loses at load, by rule (docs/development.md): Virtuoso's decimals; Jena keeps all.
    const virtuosoLosses = decimalLosses(mapping, picker);
    const lossesOf = (name: EndpointStoreName) => (name === 'virtuoso' ? virtuosoLosses : []);
    const excusedCount: Record<EndpointStoreName, number> = { virtuoso: 0, jena: 0 };

    describe(`same answers on every store: ${spec.name}`, () => {
      let embedded: Store | undefined;
      const others: Store[] = [];
      const apis: ApiClient[] = [];
      /** Each store's server: the embedded store's first. */
      let bases: { name: 'embedded' | EndpointStoreName; base: string }[] = [];
      /** What the embedded store saw of the files as they are: distinct triples served, and expected. */
      let served = { triples: 0, expected: picker.distinctTriples };

      beforeAll(async () => {
        const loadStarted = performance.now();
        const graph = `http://example.org/sparql-jsonapi-test/${randomUUID()}`;
        const loading = Promise.all(
          endpoints.map(({ endpointUrl }) => loadFiles({ endpointUrl, graph, files: spec.files })),
        );
        embedded = await createOxigraphStore({ files: spec.files, timeoutMs: STORE_LIMIT_MS });
        const [row] = await embedded.select(
          'SELECT (COUNT(*) AS ?n) WHERE { SELECT DISTINCT ?s ?p ?o WHERE { ?s ?p ?o } }',
        );
        served = { triples: Number(row?.n?.value), expected: picker.distinctTriples };
        if (served.triples !== served.expected) {
          // The embedded store does not serve every graph of the files (see the first test): the
          // rest of the suite compares with their triples merged, so that it still finds the rest.
          await embedded.close();
          const merged = join(scratch, `${spec.name}-merged.nt`);
          await writeFile(merged, await mergedTriples(spec.files));
          embedded = await createOxigraphStore({ files: [merged], timeoutMs: STORE_LIMIT_MS });
        }
        await loading;
        others.push(
          ...endpoints.map(({ endpointUrl }) => createHttpStore({ endpointUrl, graph, timeoutMs: STORE_LIMIT_MS })),
        );
        for (const store of [embedded, ...others])
          apis.push(
            await listenChecked(
              createApp({
                datasets: [
                  {
                    name: spec.name,
                    mapping,
                    store,
                    linkBase: '',
                    options: { page: { defaultSize: 20, maxSize: spec.maxPageSize ?? 100 }, timeoutMs: STORE_LIMIT_MS },
                  },
                ],
              }),
            ),
          );
        bases = [{ name: 'embedded', base: apis[0]!.baseUrl }];
        for (const [i, { name }] of endpoints.entries()) bases.push({ name, base: apis[i + 1]!.baseUrl });
        console.log(
          `same-answers ${spec.name}: ${bases.length} stores ready in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`,
        );
      });
      afterAll(async () => {
        console.log(`same-answers ${spec.name}: done at ${((performance.now() - started) / 1000).toFixed(1)} s`);
        for (const api of apis) await api.close();
        await embedded?.close();
        for (const store of others) await store.close();
      });

      it('the embedded store serves every triple of the files, whichever graph holds it', () => {
        expect(served.triples, 'distinct triples the embedded store serves').toBe(served.expected);
      });

      it.concurrent.each(corpus)('$kind $url', async ({ url }: CorpusEntry) => {
        const answers = (await Promise.all(bases.map(({ base }) => get(base, url)))).map(normalize);
        const reports: string[] = [];
        for (const [i, { name }] of endpoints.entries()) {
          const losses = lossesOf(name);
          const [a, b, trimmed] = withoutLossyMembers(losses, url, answers[0]!, answers[i + 1]!);
          if (trimmed) excusedCount[name]++;
          const found = differences(
            { status: a.status, contentType: a.contentType, body: a.body },
            { status: b.status, contentType: b.contentType, body: b.body },
          ).filter((d) => {
            if (excused(losses, d)) excusedCount[name]++;
            else return true;
            return false;
          });
          if (found.length > 0) reports.push(`embedded ≠ ${name}:\n${report(found, name)}`);
        }
        if (reports.length > 0) expect.fail(`${spec.name} GET ${url}: the stores differ\n${reports.join('\n')}`);
        expect(answers[0]!.status, `${url} answers on every store`).toBeLessThan(500);
      });

      it.concurrent.each(walks)(
        'walk /$type?sort=$sort by $size',
        async ({ type, sort, size }: WalkCase) => {
          const walked = await Promise.all(
            bases.map(async ({ name, base }) => {
              const [offset, cursor] = await Promise.all([
                walk(base, `/${type}`, sort, size, false),
                walk(base, `/${type}`, sort, size, true),
              ]);
              return { name, offset, cursor };
            }),
          );
          const eo = walked[0]!.offset;
          expect(eo.ids.length, `members of /${type} walked`).toBeGreaterThan(0);
          const same = (x: string[], y: string[]) => JSON.stringify(x) === JSON.stringify(y);
          const problems: string[] = [];
          for (const { name, offset, cursor } of walked) {
            problems.push(...[...offset.problems, ...cursor.problems].map((p) => `${name} ${p}`));
            if (!same(cursor.ids, offset.ids))
              problems.push(`${name} cursor walk ≠ offset walk: ${idListDiff(cursor.ids, offset.ids)}`);
            if (name === 'embedded' || same(eo.ids, offset.ids)) continue;
            const lossy = lossyIds(lossesOf(name), `/${type}?sort=${encodeURIComponent(sort)}`);
            if (
              lossy.size > 0 &&
              same(withoutIds(eo.ids, lossy) as string[], withoutIds(offset.ids, lossy) as string[])
            )
              excusedCount[name]++;
            else problems.push(`offset walks: embedded ≠ ${name}: ${idListDiff(eo.ids, offset.ids)}`);
          }
          if (problems.length > 0)
            expect.fail(`${spec.name} /${type}?sort=${sort} by ${size}:\n  ${problems.join('\n  ')}`);
        },
        120_000,
      );

      it.concurrent.each(numberAttributes(mapping).flatMap((c) => [c, { ...c, attribute: `-${c.attribute}` }]))(
        'sort=$attribute on /$type follows the numbers each store shows',
        async ({ type, attribute: sort }) => {
          const attribute = sort.replace(/^-/, '');
          const problems = await Promise.all(
            bases.map(async ({ name, base }) => {
              const shown = await walkShown(base, type, attribute, sort, spec.maxPageSize ?? 100);
              return shownOrderProblems(shown, sort.startsWith('-')).map((p) => `${name}: ${p}`);
            }),
          );
          if (problems.flat().length > 0)
            expect.fail(`/${type}?sort=${sort}:\n  ${problems.flat().slice(0, 10).join('\n  ')}`);
        },
        120_000,
      );

      it('generated sort corpus: cursor walk = offset walk = the order from the data, on every store', async () => {
        const oracle = Oracle.fromFile(spec.files, mapping);
        const stores = bases.map(({ name, base }) => ({
          name,
          walk: (list: string, sort: string, size: number, cursor: boolean) => walk(base, list, sort, size, cursor),
        }));
        const options = { label: spec.name, maxPageSize: spec.maxPageSize ?? 100, ...spec.sortCorpus };
        expect(await checkSortCorpus(oracle, mapping, stores, options)).toBeGreaterThanOrEqual(spec.sortCorpus.runs);
      }, 300_000);

      it('each allowance excuses something exactly when the data holds what it is about', () => {
        for (const { name } of endpoints) {
          const losses = lossesOf(name);
          expect({
            store: name,
            'decimals lost at load': losses.map((l) => `${l.attribute}: ${l.ids.size} members`),
            excused: excusedCount[name] > 0,
          }).toEqual({
            store: name,
            'decimals lost at load': losses.map((l) => `${l.attribute}: ${l.ids.size} members`),
            excused: losses.length > 0,
          });
        }
      });
    });
  }
}

/** The triples of every file, every graph merged, as N-Triples. */
async function mergedTriples(files: string[]): Promise<string> {
  const writer = new Writer({ format: 'N-Triples' });
  let text = '';
  for (const file of files)
    for (const q of new Parser().parse(await readFile(file, 'utf8')))
      text += writer.quadToString(q.subject, q.predicate, q.object);
  return text;
}
