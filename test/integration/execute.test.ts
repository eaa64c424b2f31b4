/**
 * The executor on its own: execute(mapping, plan, store, links) with plans made by planRequest
 * as the HTTP layer makes them, on each store, with the store wrapped in a QueryRecorder. No
 * HTTP in between: the documents are compared with the oracle's, and the number of SPARQL
 * queries each plan kind sends with the "What a request costs in SPARQL" table, read from the
 * documentation itself (docs/performance.md).
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { histogramHints } from '../../src/cache/histogram-hints.js';
import { templateMemo } from '../../src/cache/template-memo.js';
import { type DatasetOptions, DEFAULT_DATASET_OPTIONS } from '../../src/dataset.js';
import { JsonApiError } from '../../src/errors/json-api-error.js';
import { execute } from '../../src/execute/execute.js';
import { loadMapping } from '../../src/mapping/load-mapping.js';
import type { Mapping } from '../../src/mapping/model.js';
import { planRequest } from '../../src/plan/plan-request.js';
import { parsePath } from '../../src/request/parse-path.js';
import { parseQuery } from '../../src/request/parse-query.js';
import { APPLIED_PROFILES } from '../../src/shape/documents.js';
import { requestLink } from '../../src/shape/page-links.js';
import { QueryRecorder } from '../../src/store/query-recorder.js';
import { describeEachStore, SAMPLE_MAPPING } from '../support/each-store.js';
import { SAMPLE_DATA } from '../support/global-setup.js';
import { fetchGoesWithPage, pageGoesWithHistogram } from '../support/list-cost.js';
import { codePointCompare, Oracle, type Resource } from '../support/oracle.js';
import { titled } from '../support/titled.js';

const mapping = await loadMapping(SAMPLE_MAPPING);
/** What an app remembers from one request to the next (one of each per app): the hints and the query memo. */
const remembered = { hints: histogramHints(), memo: templateMemo() };
const oracle = Oracle.fromFile(SAMPLE_DATA, mapping);
const CURSOR_PROFILE = 'https://jsonapi.org/profiles/ethanresnick/cursor-pagination';

/** The mapping as written: default sorts (README: no `sort` → the type's defaultSort, else id ascending). */
const RAW: { types: Record<string, { defaultSort?: string[]; attributes?: object }> } = parseYaml(
  readFileSync(SAMPLE_MAPPING, 'utf8'),
);
const TYPES = Object.keys(RAW.types);
const defaultSortOf = (type: string) => (RAW.types[type]!.defaultSort ?? ['id']).join(',');
const hasAttributes = (type: string) => Object.keys(RAW.types[type]!.attributes ?? {}).length > 0;

/**
 * The README's cost table: request shape (the first code span of a row) → the number its row
 * starts with, and the "(n when empty)" figure where a row has one; plus the include row's "+n per level".
 */
function readmeCosts(): {
  cost: (shape: string) => number;
  whenEmpty: (shape: string) => number;
  perIncludeLevel: number;
} {
  const readme = readFileSync('docs/performance.md', 'utf8'); // the README's table, moved there
  const section = readme.slice(readme.indexOf('## What a request costs in SPARQL'));
  const table = section.slice(0, section.indexOf('\n## '));
  const rows = new Map<string, { cost: number; empty?: number }>();
  let perIncludeLevel: number | undefined;
  for (const line of table.split('\n').filter((l) => l.startsWith('| `'))) {
    const [, request = '', queries = ''] = line.split('|').map((cell) => cell.trim());
    const shape = /^`([^`]+)`/.exec(request)![1]!;
    const cost = /^(\d+)/.exec(queries);
    const empty = /\((\d+) when empty\)/.exec(queries);
    if (cost) rows.set(shape, { cost: Number(cost[1]), ...(empty && { empty: Number(empty[1]) }) });
    const level = /^\+(\d+) per include level/.exec(queries);
    if (shape.startsWith('include=') && level) perIncludeLevel = Number(level[1]);
  }
  const row = (shape: string) => {
    const found = rows.get(shape);
    if (!found)
      throw new Error(`README's cost table has no row for \`${shape}\` (rows: ${[...rows.keys()].join('; ')})`);
    return found;
  };
  if (perIncludeLevel === undefined) throw new Error("README's cost table has no '+n per include level' row");
  return {
    cost: (shape) => row(shape).cost,
    whenEmpty: (shape) => row(shape).empty ?? row(shape).cost,
    perIncludeLevel,
  };
}
const README = readmeCosts();
// The figures as the README gives them: a collection's "3" is list + count + fetch, and it says
// "no fetch when the page is empty or the type has no attributes; no count with count: false".
const COLLECTION = README.cost('GET /<type>');
const RESOURCE = README.cost('GET /<type>/<id>');
const TO_ONE = README.cost('GET /<type>/<id>/<to-one>');
const TO_ONE_EMPTY = README.whenEmpty('GET /<type>/<id>/<to-one>');
const TO_MANY = README.cost('GET /<type>/<id>/<to-many>');
const TO_MANY_EMPTY = README.whenEmpty('GET /<type>/<id>/<to-many>');
const LINKS_TO_ONE = README.cost('GET /<type>/<id>/links/<to-one>');
const LINKS_TO_MANY = README.cost('GET /<type>/<id>/links/<to-many>');
const PER_LEVEL = README.perIncludeLevel;

// Members the cases need, found in the data rather than named.
const activities = oracle.members('trade-activities');
const concernsOf = (m: Resource) => oracle.related('trade-activities', m.iri, 'concerns');
const mostConcerns = [...activities].sort((a, b) => concernsOf(b).length - concernsOf(a).length)[0]!;
const noConcerns = activities.find((m) => concernsOf(m).length === 0)!;
const noDestination = activities.find((m) => oracle.related('trade-activities', m.iri, 'destination').length === 0)!;
const withDestination = activities.find((m) => oracle.related('trade-activities', m.iri, 'destination').length > 0)!;
/** Well-formed ids of each id strategy that no member has. */
const MISSING = {
  'trade-activities': 'abcdef0123',
  concepts: 'fedcba',
  countries: Buffer.from('ZZ').toString('hex'),
} as const;

/** JSON as a client would receive it (no `undefined` members, no symbol keys). */
const asJson = (value: unknown): any => JSON.parse(JSON.stringify(value));
const sortedIncluded = (included: { type: string; id: string }[]) =>
  [...included].sort((a, b) => codePointCompare(a.type, b.type) || codePointCompare(a.id, b.id));

describeEachStore('execute: plan → SPARQL → document, directly', (h) => {
  /**
   * Plans a request as the HTTP handler does, executes it through a QueryRecorder; the document as
   * JSON and the number of queries. Each against a mapping of its own unless `served` is given: a
   * list's first read, whatever the cases before it read (a later page of a list read before can
   * cost one query fewer: `execute/histogram-window.ts`).
   */
  async function run(
    path: string,
    query = '',
    options: DatasetOptions = DEFAULT_DATASET_OPTIONS,
    profiles: string[] = [],
    served?: Mapping,
  ) {
    served ??= await loadMapping(SAMPLE_MAPPING);
    const { store } = h();
    const route = parsePath(path);
    const plan = planRequest(served, { route, query: parseQuery(query), profiles }, options);
    const recorder = new QueryRecorder(store);
    const page = { path, query };
    const related = path.replace(/\/(links|relationships)\/([^/]+)$/, '/$2');
    const document = await execute(served, plan, {
      store: recorder.store,
      links: { linkBase: '', self: requestLink(page), related, page },
      ...remembered,
    });
    return { document: asJson(document), raw: document, queries: recorder.queries };
  }

  /** Runs a request that must fail: the JsonApiError, and the queries sent before it. */
  async function failing(path: string, query = '', options: DatasetOptions = DEFAULT_DATASET_OPTIONS) {
    const recorder = new QueryRecorder(h().store);
    const plan = planRequest(h().mapping, { route: parsePath(path), query: parseQuery(query) }, options);
    const error = await execute(h().mapping, plan, {
      store: recorder.store,
      links: { linkBase: '', self: path, related: path, page: { path, query } },
    }).then(
      (document) => expect.fail(`expected a 404, got ${JSON.stringify(document).slice(0, 200)}`),
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(JsonApiError);
    return { error: error as JsonApiError, queries: recorder.queries };
  }

  it('the sample has the members these cases need', () => {
    expect(concernsOf(mostConcerns).length).toBeGreaterThan(1);
    expect([noConcerns, noDestination, withDestination].every(Boolean)).toBe(true);
    for (const [type, id] of Object.entries(MISSING)) expect(oracle.member(type, id), `${type}/${id}`).toBeUndefined();
  });

  // --- collections -------------------------------------------------------------------------

  it.each(TYPES)(
    'collection /%s: the first page in default-sort order, every resource as the oracle has it, the count, and list + count + fetch',
    async (type) => {
      const { document, queries } = await run(`/${type}`);
      const order = oracle
        .order(type, oracle.members(type), defaultSortOf(type))
        .slice(0, DEFAULT_DATASET_OPTIONS.page.defaultSize);
      expect(document.data.map((r: { type: string; id: string }) => `${r.type}/${r.id}`)).toEqual(
        order.map((id) => `${type}/${id}`),
      );
      expect(document.data).toEqual(order.map((id) => oracle.resourceObject(type, oracle.member(type, id)!)));
      expect(document.meta).toEqual({ count: oracle.members(type).length });
      expect(document.links.self).toBe(`/${type}`);
      expect('included' in document).toBe(false);
      // No fetch without attributes; none either when the page's list query brings the values.
      const fetch = hasAttributes(type) && !fetchGoesWithPage(mapping, oracle, type) ? 1 : 0;
      expect(queries).toBe(COLLECTION - 1 + fetch);
    },
  );

  it('collection, a later page: the next slice of the oracle order, the same cost', async () => {
    const size = 5;
    const { document, queries } = await run('/trade-activities', `page[size]=${size}&page[number]=1`);
    const order = oracle.order('trade-activities', activities, defaultSortOf('trade-activities'));
    expect(order.length).toBeGreaterThan(size);
    expect(document.data.map((r: { id: string }) => r.id)).toEqual(order.slice(size, 2 * size));
    expect(document.links.prev).toBe(
      requestLink({ path: '/trade-activities', query: `page[size]=${size}&page[number]=1` }, [['number', '0']]),
    );
    expect(queries).toBe(COLLECTION - (fetchGoesWithPage(mapping, oracle, 'trade-activities') ? 1 : 0));
  });

  it('collection, a list read before: the same pages, each coming with the histogram (one query fewer)', async () => {
    const served = await loadMapping(SAMPLE_MAPPING);
    const order = oracle.order('trade-activities', activities, defaultSortOf('trade-activities'));
    const [first, later, again] = [
      await run('/trade-activities', 'page[size]=5', DEFAULT_DATASET_OPTIONS, [], served),
      await run('/trade-activities', 'page[size]=5&page[number]=2', DEFAULT_DATASET_OPTIONS, [], served),
      await run('/trade-activities', 'page[size]=5', DEFAULT_DATASET_OPTIONS, [], served),
    ];
    expect(later.document.data.map((r: { id: string }) => r.id)).toEqual(order.slice(10, 15));
    expect(again.document).toEqual(first.document);
    // The sample orders its trade activities by dates with a zone, which cannot tie.
    expect(pageGoesWithHistogram(mapping, oracle, 'trade-activities')).toBe(true);
    expect(first.queries).toBe(COLLECTION - 1);
    expect([later.queries, again.queries]).toEqual([first.queries - 1, first.queries - 1]);
  });

  it('collection, an explicit sort through relationships: the oracle order for it', async () => {
    const sort = '-origin.country.name,concerns.label';
    const { document, queries } = await run('/trade-activities', `sort=${sort}`);
    expect(document.data.map((r: { id: string }) => r.id)).toEqual(oracle.order('trade-activities', activities, sort));
    expect(queries).toBe(COLLECTION);
  });

  it('collection, a page past the end: data [], no fetch (list + count)', async () => {
    const { document, queries } = await run('/concepts', 'page[number]=99');
    expect(document.data).toEqual([]);
    expect(document.meta).toEqual({ count: oracle.members('concepts').length });
    expect(queries).toBe(COLLECTION - 1);
  });

  it('collection with count: false: the same page, no meta.count and no last link, no count query', async () => {
    const options = { ...DEFAULT_DATASET_OPTIONS, count: false, page: { defaultSize: 4, maxSize: 10 } };
    const { document, queries } = await run('/trade-activities', '', options);
    expect(document.data.map((r: { id: string }) => r.id)).toEqual(
      oracle.order('trade-activities', activities, defaultSortOf('trade-activities')).slice(0, 4),
    );
    expect(document.meta).toBeUndefined();
    expect(Object.keys(document.links).sort()).toEqual(['first', 'next', 'prev', 'self']);
    expect(queries).toBe(COLLECTION - 1);
  });

  it('collection with the cursor profile: the same first page, a cursor on each item, the same cost', async () => {
    const { document, raw, queries } = await run('/trade-activities', 'page[size]=4', DEFAULT_DATASET_OPTIONS, [
      CURSOR_PROFILE,
    ]);
    expect(document.data.map((r: { id: string }) => r.id)).toEqual(
      oracle.order('trade-activities', activities, defaultSortOf('trade-activities')).slice(0, 4),
    );
    for (const item of document.data) expect(item.meta.page.cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(document.meta).toEqual({ page: { total: activities.length } });
    expect(raw[APPLIED_PROFILES]).toEqual([CURSOR_PROFILE]); // for the Content-Type
    expect(queries).toBe(COLLECTION);
  });

  it("a to-many related URL is a collection of what the parent points at, in the target's order", async () => {
    const path = `/trade-activities/${mostConcerns.id}/concerns`;
    const { document, queries } = await run(path);
    const expected = oracle.order('concepts', concernsOf(mostConcerns), defaultSortOf('concepts'));
    expect(document.data).toEqual(
      expected.map((id) => oracle.resourceObject('concepts', oracle.member('concepts', id)!)),
    );
    expect(document.meta).toEqual({ count: expected.length });
    expect(document.links.self).toBe(path);
    expect(queries).toBe(TO_MANY);
  });

  it('an empty to-many related URL: data [], count 0, after the page and the count that tells it from a missing parent', async () => {
    const { document, queries } = await run(`/trade-activities/${noConcerns.id}/concerns`);
    expect(document.data).toEqual([]);
    expect(document.meta).toEqual({ count: 0 });
    expect(queries).toBe(TO_MANY_EMPTY);
  });

  it('an empty to-many related URL without a count is still 200 with data [], not a 404', async () => {
    const { document, queries } = await run(`/trade-activities/${noConcerns.id}/concerns`, '', {
      ...DEFAULT_DATASET_OPTIONS,
      count: false,
    });
    expect(document.data).toEqual([]);
    expect(queries).toBe(TO_MANY_EMPTY); // as with a count: only a count tells an empty list from a missing parent
  });

  it('a full to-many related page: the count query follows it, and the count is the whole list', async () => {
    const all = concernsOf(mostConcerns).length;
    const { document, queries } = await run(`/trade-activities/${mostConcerns.id}/concerns`, 'page[size]=1');
    const expected = oracle.order('concepts', concernsOf(mostConcerns), defaultSortOf('concepts'));
    expect(document.data.map((r: { id: string }) => r.id)).toEqual(expected.slice(0, 1));
    expect(document.meta).toEqual({ count: all });
    expect(queries).toBe(TO_MANY + 1);
  });

  // --- single resources --------------------------------------------------------------------

  it.each(['trade-activities', 'concepts', 'countries', 'aid-activities'])(
    "resource /%s/<id> (each id strategy): the oracle's attributes, one query",
    async (type) => {
      const member = oracle.members(type).at(-1)!;
      const { document, queries } = await run(`/${type}/${member.id}`);
      expect(document.data).toEqual(oracle.resourceObject(type, member));
      expect(document.data.attributes).toEqual(oracle.attributes(type, member.iri));
      expect(document.links).toEqual({ self: `/${type}/${member.id}` });
      expect(queries).toBe(RESOURCE);
    },
  );

  it.each(Object.entries(MISSING))('a missing resource /%s/%s: 404 after one query', async (type, id) => {
    const { error, queries } = await failing(`/${type}/${id}`);
    expect(error.status).toBe(404);
    expect(error.errors[0]).toMatchObject({ status: '404', title: 'Not Found' });
    expect(error.errors[0]!.detail).toContain(`There is no ${type}`);
    expect(queries).toBe(RESOURCE);
  });

  it.each(
    titled(
      [
        { type: 'trade-activities', include: 'concerns.broader-concepts' },
        { type: 'concepts', include: 'broader-concepts.concept-scheme,narrower-concepts' },
      ],
      ({ type, include }) =>
        `resource /${type}/<id>?include=${include}: included each once, as the oracle compounds it; one query more per level`,
    ),
  )('%s', async (_, { type, include }) => {
    const member =
      type === 'trade-activities'
        ? mostConcerns
        : oracle.members(type).find((m) => oracle.related(type, m.iri, 'broader-concepts').length > 0)!;
    const { document, queries } = await run(`/${type}/${member.id}`, `include=${include}`);
    const expected = oracle.compound(type, [member], include);
    expect(document.data).toEqual(expected.data[0]);
    const keys = document.included.map((r: { type: string; id: string }) => `${r.type}/${r.id}`);
    expect(new Set(keys).size, 'each included resource once').toBe(keys.length);
    expect(sortedIncluded(document.included)).toEqual(expected.included);
    expect(expected.included.length).toBeGreaterThan(0);
    const levels = Math.max(...include.split(',').map((path) => path.split('.').length));
    expect(queries).toBe(RESOURCE + levels * PER_LEVEL);
  });

  it('a missing resource with include is still a 404', async () => {
    for (const [type, include] of [
      ['trade-activities', 'concerns'],
      ['concepts', 'broader-concepts'],
    ] as const) {
      expect((await failing(`/${type}/${MISSING[type]}`, `include=${include}`)).error.status).toBe(404);
    }
  });

  // --- related to-one ----------------------------------------------------------------------

  it('related to-one with attributes (amount): the first target by id, with its attributes; list + fetch', async () => {
    const member = activities[0]!;
    const { document, queries } = await run(`/trade-activities/${member.id}/amount`);
    const [target] = oracle.related('trade-activities', member.iri, 'amount');
    expect(document.data).toEqual(oracle.resourceObject('amounts', target!));
    expect(document.links).toEqual({ self: `/trade-activities/${member.id}/amount` });
    expect(queries).toBe(TO_ONE);
  });

  it('related to-one of a type without attributes (destination → agents): no fetch', async () => {
    const { document, queries } = await run(`/trade-activities/${withDestination.id}/destination`);
    const [target] = oracle.related('trade-activities', withDestination.iri, 'destination');
    expect(document.data).toEqual(oracle.resourceObject('group-national-agents', target!));
    expect(hasAttributes('group-national-agents')).toBe(false);
    expect(queries).toBe(TO_ONE - 1);
  });

  it('an empty related to-one: data null', async () => {
    const { document, queries } = await run(`/trade-activities/${noDestination.id}/destination`);
    expect(document).toEqual({
      jsonapi: { version: '1.1' },
      links: { self: `/trade-activities/${noDestination.id}/destination` },
      data: null,
    });
    expect(queries).toBe(TO_ONE_EMPTY);
  });

  it('related to-one with include: included as the oracle compounds it', async () => {
    const member = activities[0]!;
    const { document, queries } = await run(`/trade-activities/${member.id}/origin`, 'include=country');
    const [origin] = oracle.related('trade-activities', member.iri, 'origin');
    const expected = oracle.compound('group-national-agents', [origin!], 'country');
    expect(document.data).toEqual(expected.data[0]);
    expect(sortedIncluded(document.included)).toEqual(expected.included);
    expect(queries).toBe(TO_ONE - 1 + PER_LEVEL); // agents have no attributes: list, then the one level
  });

  it.each(['origin', 'amount', 'destination'])(
    'related to-one of a missing parent (/trade-activities/<missing>/%s): 404 after one query',
    async (rel) => {
      const { error, queries } = await failing(`/trade-activities/${MISSING['trade-activities']}/${rel}`);
      expect(error.status).toBe(404);
      expect(error.errors[0]!.detail).toContain('There is no trade-activities');
      expect(queries).toBe(1);
    },
  );

  it('related to-many of a missing parent: 404, with and without a count', async () => {
    for (const options of [DEFAULT_DATASET_OPTIONS, { ...DEFAULT_DATASET_OPTIONS, count: false }]) {
      const { error } = await failing(`/concepts/${MISSING.concepts}/narrower-concepts`, '', options);
      expect(error.status).toBe(404);
      expect(error.errors[0]!.detail).toContain('There is no concepts');
    }
  });

  // --- linkage -----------------------------------------------------------------------------

  it('linkage to-one: the first target by id as an identifier, self and related links; one query', async () => {
    const { document, queries } = await run(`/trade-activities/${withDestination.id}/links/destination`);
    const [target] = oracle.related('trade-activities', withDestination.iri, 'destination');
    expect(document).toEqual({
      jsonapi: { version: '1.1' },
      links: {
        self: `/trade-activities/${withDestination.id}/links/destination`,
        related: `/trade-activities/${withDestination.id}/destination`,
      },
      data: { type: 'group-national-agents', id: target!.id },
    });
    expect(queries).toBe(LINKS_TO_ONE);
  });

  it('linkage to-one, empty: data null', async () => {
    const { document, queries } = await run(`/trade-activities/${noDestination.id}/relationships/destination`);
    expect(document.data).toBeNull();
    expect(document.links.related).toBe(`/trade-activities/${noDestination.id}/destination`);
    expect(queries).toBe(LINKS_TO_ONE);
  });

  it("linkage to-many: every identifier in the target's order, the count; the page and its count", async () => {
    const { document, queries } = await run(`/trade-activities/${mostConcerns.id}/links/concerns`);
    const expected = oracle.order('concepts', concernsOf(mostConcerns), defaultSortOf('concepts'));
    expect(document.data).toEqual(expected.map((id) => ({ type: 'concepts', id })));
    expect(document.meta).toEqual({ count: expected.length });
    expect(queries).toBe(LINKS_TO_MANY);
  });

  it('linkage to-many, paged and sorted: the slice of the oracle order', async () => {
    const sort = '-label';
    const { document, queries } = await run(
      `/trade-activities/${mostConcerns.id}/links/concerns`,
      `sort=${sort}&page[size]=2&page[number]=1`,
    );
    const expected = oracle.order('concepts', concernsOf(mostConcerns), sort).slice(2, 4);
    expect(document.data).toEqual(expected.map((id) => ({ type: 'concepts', id })));
    expect(document.meta).toEqual({ count: concernsOf(mostConcerns).length });
    // A full page can't tell where the list ends: the count query follows it.
    expect(queries).toBe(LINKS_TO_MANY + (expected.length === 2 ? 1 : 0));
  });

  it('linkage to-many, empty: data [] and count 0', async () => {
    const { document } = await run(`/trade-activities/${noConcerns.id}/links/concerns`);
    expect(document.data).toEqual([]);
    expect(document.meta).toEqual({ count: 0 });
  });

  it('linkage of a missing parent: 404, to-one and to-many', async () => {
    for (const rel of ['origin', 'concerns']) {
      const { error } = await failing(`/trade-activities/${MISSING['trade-activities']}/links/${rel}`);
      expect(error.status, rel).toBe(404);
    }
  });

  // --- include on lists --------------------------------------------------------------------

  it.each(
    titled(
      [
        { include: 'concerns.broader-concepts', levels: 2 },
        { include: 'origin.country,destination,amount', levels: 2 },
        { include: 'concerns', levels: 1 },
      ],
      ({ include }) =>
        `collection ?include=${include}: linkage and included each once, as the oracle compounds it; +1 query per level`,
    ),
  )('%s', async (_, { include, levels }) => {
    const { document, queries } = await run('/trade-activities', `include=${include}`);
    const order = oracle.order('trade-activities', activities, defaultSortOf('trade-activities'));
    const expected = oracle.compound(
      'trade-activities',
      order.map((id) => oracle.member('trade-activities', id)!),
      include,
    );
    expect(document.data).toEqual(expected.data);
    const keys = document.included.map((r: { type: string; id: string }) => `${r.type}/${r.id}`);
    expect(new Set(keys).size, 'each included resource once').toBe(keys.length);
    expect(sortedIncluded(document.included)).toEqual(expected.included);
    expect(Math.max(...include.split(',').map((p) => p.split('.').length))).toBe(levels);
    const fetchWithPage = fetchGoesWithPage(mapping, oracle, 'trade-activities') ? 1 : 0;
    expect(queries).toBe(COLLECTION - fetchWithPage + levels * PER_LEVEL);
  });

  it('a to-many related collection with include: included from the page only', async () => {
    const { document, queries } = await run(`/trade-activities/${mostConcerns.id}/concerns`, 'include=concept-scheme');
    const members = oracle
      .order('concepts', concernsOf(mostConcerns), defaultSortOf('concepts'))
      .map((id) => oracle.member('concepts', id)!);
    const expected = oracle.compound('concepts', members, 'concept-scheme');
    expect(document.data).toEqual(expected.data);
    expect(sortedIncluded(document.included)).toEqual(expected.included);
    expect(queries).toBe(TO_MANY + PER_LEVEL);
  });

  it('fields with no attribute of the primary type: no fetch query', async () => {
    const { document, queries } = await run('/trade-activities', 'fields[trade-activities]=concerns');
    expect(document.data.every((r: object) => !('attributes' in r))).toBe(true);
    expect(document.data.map((r: { id: string }) => r.id)).toEqual(
      oracle.order('trade-activities', activities, defaultSortOf('trade-activities')),
    );
    expect(queries).toBe(COLLECTION - 1);
  });
});
