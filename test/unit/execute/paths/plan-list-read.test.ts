/**
 * The list planner as a table: for each access path, a request that takes it (and the path its
 * fallback takes), planned from a real route and query string on the sample mapping, with no
 * store. The same table is docs/performance.md's access-path table: the test fails when the
 * document and the planner's rules (names, when, queries) disagree, or when a rule has no case.
 */
import { readFileSync } from 'node:fs';
import rdf from '@rdfjs/data-model';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_DATASET_OPTIONS } from '../../../../src/dataset.js';
import { NO_HINTS } from '../../../../src/execute/list-hints.js';
import { pageRead } from '../../../../src/execute/list-page.js';
import type { AccessPath, ListTraits, PathName } from '../../../../src/execute/paths/access-path.js';
import { PATH_RULES, planListRead } from '../../../../src/execute/paths/plan-list-read.js';
import { loadMapping } from '../../../../src/mapping/load-mapping.js';
import type { Mapping } from '../../../../src/mapping/model.js';
import type { Plan } from '../../../../src/plan/plan.js';
import { planRequest } from '../../../../src/plan/plan-request.js';
import { shownAttributes } from '../../../../src/plan/shown-attributes.js';
import { encodeCursor } from '../../../../src/request/cursor.js';
import { parsePath } from '../../../../src/request/parse-path.js';
import { parseQuery } from '../../../../src/request/parse-query.js';
import { buildKeyHistogramQuery } from '../../../../src/sparql/key-histogram.js';
import { toText } from '../../../../src/sparql/to-text.js';
import { SAMPLE_DATA } from '../../../support/global-setup.js';
import { Oracle } from '../../../support/oracle.js';

const CURSOR_PROFILE = 'https://jsonapi.org/profiles/ethanresnick/cursor-pagination';
const XSD_DATE = 'http://www.w3.org/2001/XMLSchema#date';
const STORE: ListTraits = { oneGraph: false, windowCache: false };

let mapping: Mapping;
let oracle: Oracle;
beforeAll(async () => {
  mapping = await loadMapping('mappings/sample.yaml');
  oracle = Oracle.fromFile(SAMPLE_DATA, mapping);
});

/** A cursor of the list `path?query` plans to: after a member of 2016, or (`values: []`) of a list by id. */
function cursorOf(path: string, query: string, values: 'date' | 'none'): string {
  const plan = planOf(path, query, []);
  if (plan.kind !== 'collection') throw new Error('not a collection');
  const value = rdf.literal('2016-01-01Z', rdf.namedNode(XSD_DATE));
  const { id } = oracle.members(plan.list.type.name)[0]!;
  return encodeCursor(plan.list, { values: values === 'date' ? [value] : [], id, inclusive: false });
}

function planOf(path: string, query: string, profiles: string[]): Plan {
  return planRequest(mapping, { route: parsePath(path), query: parseQuery(query), profiles }, DEFAULT_DATASET_OPTIONS);
}

/** The access path a URL's list read takes, as `listPage` plans it (`listWindow` for a to-one). */
function pathOf(url: string, traits: ListTraits, profiles: string[] = []): AccessPath {
  const [path, query = ''] = url.split('?') as [string, string?];
  const plan = planOf(path, query, profiles);
  if (plan.kind === 'resource') throw new Error('not a list');
  if (plan.kind === 'related-one' || !plan.paging)
    return planListRead(
      mapping,
      { request: plan.list, window: { limit: 1, offset: 0 }, count: 'none', attributes: [] },
      { ...traits, windowCache: false },
    );
  const attributes = plan.kind === 'collection' ? shownAttributes(plan.list.type, plan.view.fields) : [];
  return planListRead(mapping, pageRead(plan.list, plan.paging, attributes), traits);
}

/** A path and its fallbacks, by name: `histogram>list-query`. */
const chain = (path: AccessPath): string =>
  'fallback' in path ? `${path.kind}>${chain(path.fallback.path)}` : path.kind;

interface Case {
  readonly path: PathName;
  /** The request as docs/performance.md shows it. */
  readonly example: string;
  readonly url: () => string;
  readonly traits?: ListTraits;
  readonly cursor?: true;
  /** The path and its fallbacks. */
  readonly chain: string;
}

/** One request per access path: the unit table, and the example column of the document's table. */
const CASES: readonly Case[] = [
  {
    path: 'window-cache',
    example: '`/trade-activities?page[number]=3`, window cache on',
    url: () => '/trade-activities?page[number]=3',
    traits: { ...STORE, windowCache: true },
    chain: 'window-cache>histogram>list-query',
  },
  {
    path: 'histogram',
    example: '`/trade-activities?page[number]=3` (by `-financial-year`)',
    url: () => '/trade-activities?page[number]=3',
    chain: 'histogram>list-query',
  },
  {
    path: 'related-page',
    example: '`/trade-activities/{id}/concerns`',
    url: () => '/trade-activities/a1/concerns',
    chain: 'related-page>related-list',
  },
  {
    path: 'related-list',
    example: '`/trade-activities/{id}/links/concerns`',
    url: () => '/trade-activities/a1/links/concerns',
    chain: 'related-list',
  },
  {
    path: 'keyed-window',
    example: '`/trade-activities?sort=concerns.label`',
    url: () => '/trade-activities?sort=concerns.label',
    chain: 'keyed-window>list-query',
  },
  {
    path: 'list-query',
    example: '`/trade-activities?sort=id`, `/trade-activities/{id}/origin`',
    url: () => '/trade-activities?sort=id',
    chain: 'list-query',
  },
  {
    path: 'keyset',
    example: '`/concepts?sort=id&page[after]=…` (cursor profile)',
    url: () => `/concepts?sort=id&page[after]=${cursorOf('/concepts', 'sort=id', 'none')}`,
    cursor: true,
    chain: 'keyset>keyset-wider',
  },
];

describe('planListRead: the access path of each request', () => {
  it.each(CASES)('$path: $example', (c) => {
    const path = pathOf(c.url(), c.traits ?? STORE, c.cursor ? [CURSOR_PROFILE] : []);
    expect(path.kind).toBe(c.path);
    expect(chain(path)).toBe(c.chain);
    expect(path.why).toBe(PATH_RULES.find((rule) => rule.path === c.path)!.when);
  });

  it.each([
    // A cursor page after one cursor of a list by one key (not a number) goes through the histogram, counted.
    ['/trade-activities?sort=financial-year&page[after]=C', 'histogram>keyset>keyset-wider', 'date'],
    // Not after a cursor alone, by id, or by two keys: the keyset.
    ['/trade-activities?sort=financial-year&page[before]=C', 'keyset>keyset-wider', 'date'],
    ['/concepts?sort=id&page[after]=C', 'keyset>keyset-wider', 'none'],
  ] as const)('a cursor page %s takes %s', (url, expected, values) => {
    const [path, query] = url.split('?') as [string, string];
    const list = query.replace(/&page\[(after|before)\]=C$/, '');
    const real = `${path}?${query.replace(/=C$/, `=${cursorOf(path, list, values)}`)}`;
    expect(chain(pathOf(real, STORE, [CURSOR_PROFILE]))).toBe(expected);
  });

  it('the histogram is left out for a list whose histogram found too many values lately, and uncounted', () => {
    const request = {
      type: mapping.types.get('trade-activities')!,
      sort: mapping.types.get('trade-activities')!.defaultSort,
      filters: [],
    };
    const text = toText(buildKeyHistogramQuery(mapping, request, { limit: 501, oneGraph: false })!);
    expect(
      chain(pathOf('/trade-activities', { ...STORE, hints: { ...NO_HINTS, manyValues: (t: string) => t === text } })),
    ).toBe('list-query');
    expect(pathOf('/trade-activities', STORE).kind).toBe('histogram');
    const uncounted = planListRead(
      mapping,
      { request, window: { limit: 21, offset: 0 }, count: 'none', attributes: [] },
      STORE,
    );
    expect(uncounted.kind).toBe('list-query');
  });

  it('a later page of a related list, and one that shows no attribute, is not a related page', () => {
    expect(pathOf('/trade-activities/a1/concerns?page[number]=1', STORE).kind).toBe('related-list');
    expect(pathOf('/trade-activities/a1/concerns?fields[concepts]=broader-concepts', STORE).kind).toBe('related-list');
    expect(pathOf('/trade-activities/a1/origin', { ...STORE, windowCache: true }).kind).toBe('list-query');
  });
});

describe("docs/performance.md's access-path table", () => {
  it('has a case here for every rule of the planner, and a rule for every case', () => {
    expect(CASES.map((c) => c.path)).toEqual(PATH_RULES.map((rule) => rule.path));
  });

  it('is the planner’s table: its paths, the requests that take them, when, and their queries', () => {
    const doc = readFileSync('docs/performance.md', 'utf8');
    const expected = [
      '| path | a request that takes it | taken when (the first rule that applies) | queries for the list |',
      '|---|---|---|---|',
      ...PATH_RULES.map((rule, i) => `| \`${rule.path}\` | ${CASES[i]!.example} | ${rule.when} | ${rule.queries} |`),
    ].join('\n');
    expect(doc, `docs/performance.md should hold this table:\n${expected}`).toContain(expected);
  });
});
