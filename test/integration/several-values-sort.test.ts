import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { compileMapping } from '../../src/mapping/load-mapping.js';
import type { Store } from '../../src/store/store.js';
import type { ApiClient } from '../support/api-client.js';
import { describeStores, listenChecked, openStoreWith } from '../support/each-store.js';
import { codePointCompare } from '../support/oracle.js';

/*
 * Data that breaks the mapping: single-valued attributes (and a to-one relationship) that the
 * data gives several values. The README's rule: such a resource still lists once, by its least
 * value (the value it shows), in both directions. The expected order is computed here from the
 * data below in plain JavaScript; every sort is walked by offset and by cursor on both stores.
 */

const EX = 'http://example.org/several/';
/** Per item: names, weights, birth dates, active flags and groups; two of a kind breaks the mapping. */
const ITEMS: Record<string, { name: string[]; weight: number[]; born: string[]; active: boolean[]; group: string[] }> =
  {
    a: { name: ['m', 'b'], weight: [5, 1], born: ['2001-01-01'], active: [true, false], group: ['1', '3'] },
    b: { name: ['c'], weight: [3], born: ['2000-06-01', '2003-01-01'], active: [true], group: ['2'] },
    c: { name: ['z', 'a'], weight: [], born: ['2002-01-01'], active: [false], group: [] },
    d: { name: [], weight: [2, 9], born: [], active: [], group: ['3'] },
    e: { name: ['k'], weight: [4], born: ['1999-01-01', '2004-01-01'], active: [true, false], group: ['1'] },
    f: { name: ['c', 'y'], weight: [0.5, 7], born: ['2000-01-01'], active: [true], group: ['2', '1'] },
    '0a': { name: ['q'], weight: [6], born: ['2005-01-01'], active: [false], group: ['3'] },
  };
const RANKS: Record<string, number[]> = { 1: [3, 8], 2: [1], 3: [2, 0] };

const ttl = [
  `@prefix ex: <${EX}> . @prefix xsd: <http://www.w3.org/2001/XMLSchema#> .`,
  ...Object.entries(RANKS).map(([g, ranks]) => `<${EX}group/${g}> a ex:Group ; ex:rank ${ranks.join(', ')} .`),
  ...Object.entries(ITEMS).map(([id, v]) =>
    [
      `<${EX}item/${id}> a ex:Item`,
      ...v.name.map((n) => `ex:name "${n}"`),
      ...v.weight.map((w) => `ex:weight "${w}"^^xsd:double`),
      ...v.born.map((d) => `ex:born "${d}"^^xsd:date`),
      ...v.active.map((a) => `ex:active ${a}`),
      ...v.group.map((g) => `ex:inGroup <${EX}group/${g}>`),
    ]
      .join(' ; ')
      .concat(' .'),
  ),
  // A name that ties with a's least one in ORDER BY (the same text) while it is another term.
  `<${EX}item/a> ex:name "b"@en .`,
].join('\n');

const mapping = compileMapping(
  {
    prefixes: { ex: EX, xsd: 'http://www.w3.org/2001/XMLSchema#' },
    types: {
      items: {
        class: 'ex:Item',
        id: { template: `${EX}item/{id}` },
        attributes: {
          name: 'ex:name',
          weight: { predicate: 'ex:weight', datatype: 'xsd:double' },
          born: { predicate: 'ex:born', datatype: 'xsd:date' },
          active: { predicate: 'ex:active', datatype: 'xsd:boolean' },
        },
        relationships: { group: { predicate: 'ex:inGroup', target: 'groups', cardinality: 'one' } },
      },
      groups: {
        class: 'ex:Group',
        id: { template: `${EX}group/{id}` },
        attributes: { rank: { predicate: 'ex:rank', datatype: 'xsd:integer' } },
        relationships: { members: { predicate: 'ex:inGroup', target: 'items', cardinality: 'many', inverse: true } },
      },
    },
  },
  'several-values-sort.test.ts',
);

type Key = string | number | boolean | undefined;
/** Strings by code point, numbers numerically, false before true. */
const compareKeys = (a: Key & {}, b: Key & {}): number =>
  typeof a === 'string' ? codePointCompare(a, b as string) : Number(a) - Number(b);
const least = <T extends string | number | boolean>(values: T[]): T | undefined => [...values].sort(compareKeys)[0];
const KEYS: Record<string, (id: string) => Key> = {
  name: (id) => least(ITEMS[id]!.name),
  weight: (id) => least(ITEMS[id]!.weight),
  born: (id) => least(ITEMS[id]!.born),
  active: (id) => least(ITEMS[id]!.active),
  // The least rank over every group the item is in.
  'group.rank': (id) => least(ITEMS[id]!.group.flatMap((g) => RANKS[g]!)),
};

/** The README's order: missing last in both directions, then by the key, then by id. */
function expectedOrder(sort: string): string[] {
  const descending = sort.startsWith('-');
  const key = KEYS[sort.replace(/^-/, '')]!;
  return Object.keys(ITEMS).sort((x, y) => {
    const [a, b] = [key(x), key(y)];
    if (a === undefined || b === undefined) return a === b ? codePointCompare(x, y) : a === undefined ? 1 : -1;
    const c = compareKeys(a, b);
    return (descending ? -c : c) || codePointCompare(x, y);
  });
}

const CURSOR_ACCEPT = {
  Accept: 'application/vnd.api+json; profile="https://jsonapi.org/profiles/ethanresnick/cursor-pagination"',
};

/** Every id of a walk from the first page to the last (of `list`), following `links.next`. */
async function walk(api: ApiClient, sort: string, cursor: boolean, list = '/items'): Promise<string[]> {
  const ids: string[] = [];
  let url: string | undefined = `${list}?sort=${sort}&page%5Bsize%5D=2`;
  for (let pages = 0; url && pages < 10; pages++) {
    const response = await api.get(url, cursor ? CURSOR_ACCEPT : undefined);
    expect(response.status, url).toBe(200);
    ids.push(...response.body.data.map((r: { id: string }) => r.id));
    url = response.body.links.next ?? undefined;
  }
  return ids;
}

const scratch = mkdtempSync(join(tmpdir(), 'several-values-'));
const file = join(scratch, 'several.ttl');
writeFileSync(file, ttl);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const SORTS = Object.keys(KEYS).flatMap((k) => [k, `-${k}`]);

describeStores('a single-valued key the data gives several values', (storeName) => {
  let store: Store;
  let api: ApiClient;
  beforeAll(async () => {
    store = await openStoreWith(storeName, [file]);
    api = await listenChecked(createApp({ datasets: [{ name: 'several', mapping, store, linkBase: '' }] }));
  });
  afterAll(async () => {
    await api?.close();
    await store?.close();
  });

  it('the data does break the mapping on every key', () => {
    for (const kind of ['name', 'weight', 'born', 'active', 'group'] as const)
      expect(Object.values(ITEMS).some((v) => v[kind].length > 1)).toBe(true);
    expect(Object.values(RANKS).some((r) => r.length > 1)).toBe(true);
  });

  it.each(SORTS)('sort=%s lists each item once, by its least value, by offset and by cursor', async (sort) => {
    const expected = expectedOrder(sort);
    expect(await walk(api, sort, false)).toEqual(expected);
    expect(await walk(api, sort, true)).toEqual(expected);
  });

  // A related page reads its values with it, its keys projected: item a's two tied names come back
  // as two page rows, and the page is read again the plain way.
  it.each(SORTS)("a group's members, sort=%s: each once, by its least value, by offset and by cursor", async (sort) => {
    for (const group of Object.keys(RANKS)) {
      const expected = expectedOrder(sort).filter((id) => ITEMS[id]!.group.includes(group));
      const list = `/groups/${group}/members`;
      expect(await walk(api, sort, false, list), `${list} by offset`).toEqual(expected);
      expect(await walk(api, sort, true, list), `${list} by cursor`).toEqual(expected);
      const first = await api.get(`${list}?sort=${sort}&page%5Bsize%5D=2`);
      expect(first.body.meta, list).toEqual({ count: expected.length });
    }
  });
});
