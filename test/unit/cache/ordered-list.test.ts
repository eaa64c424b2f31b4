import rdf from '@rdfjs/data-model';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  cursorSlice,
  type OrderedList,
  offsetSlice,
  orderedList,
  orderedListBytes,
} from '../../../src/cache/ordered-list.js';
import { loadMapping } from '../../../src/mapping/load-mapping.js';
import type { Mapping } from '../../../src/mapping/model.js';
import type { Paging } from '../../../src/plan/plan.js';
import type { Cursor, KeyValue } from '../../../src/request/cursor.js';
import type { Row } from '../../../src/store/store.js';

const CONCEPT = (id: string) => `http://linkedeconomy.org/resource/concept/${id}`;
let mapping: Mapping;
beforeAll(async () => {
  mapping = await loadMapping('mappings/sample.yaml');
});

/** Members a…g in order; each with one key, its letter, and `null` for g (a missing key comes last). */
const IDS = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
const keyOf = (id: string): KeyValue => (id === 'g' ? null : rdf.literal(id));
const LIST: OrderedList = {
  members: IDS.map((id) => ({ iri: CONCEPT(id), id })),
  keys: IDS.map((id) => [keyOf(id)]),
  places: new Map(IDS.map((id, i) => [id, i])),
};
const cursor = (id: string, inclusive = false, values: KeyValue[] = [keyOf(id)]): Cursor => ({
  values,
  id,
  idValue: id,
  inclusive,
});
const paging = (size: number, sides: { after?: Cursor; before?: Cursor; skip?: number } = {}): Paging => ({
  page: { kind: 'cursor', size, ...(sides.skip !== undefined && { skip: sides.skip }) },
  count: true,
  ...(sides.after && { after: sides.after }),
  ...(sides.before && { before: sides.before }),
});
const ids = (read: { members: readonly { id: string }[] } | undefined) => read?.members.map((m) => m.id);

describe('orderedList', () => {
  it('reads the members in row order, each once, with their place by id', () => {
    const concepts = mapping.types.get('concepts')!;
    const rows: Row[] = ['0102', '0101', '0102'].map((id) => ({ s: rdf.namedNode(CONCEPT(id)) }));
    const list = orderedList({ type: concepts, sort: [], filters: [] }, rows);
    expect(ids(list)).toEqual(['0102', '0101']);
    expect(list.keys).toEqual([[], []]);
    expect([...list.places]).toEqual([
      ['0102', 0],
      ['0101', 1],
    ]);
    expect(list.missingParent).toBeUndefined();
  });

  it('a list off a parent: no row at all is a missing parent; a row without ?s an empty list', () => {
    const concepts = mapping.types.get('concepts')!;
    const relationship = concepts.relationships.get('narrower-concepts')!;
    const request = {
      type: concepts,
      sort: [],
      filters: [],
      parent: { type: concepts, lookup: { kind: 'iri' as const, iri: CONCEPT('01') }, relationship },
    };
    expect(orderedList(request, []).missingParent).toBe(true);
    const empty = orderedList(request, [{}]);
    expect(empty.missingParent).toBeUndefined();
    expect(empty.members).toEqual([]);
  });
});

describe('offsetSlice', () => {
  it.each([
    [{ limit: 3, offset: 0 }, ['a', 'b', 'c']],
    [{ limit: 3, offset: 5 }, ['f', 'g']],
    [{ limit: 3, offset: 7 }, []],
    [{ limit: 3, offset: 99 }, []],
  ])('%o → %o', (window, expected) => {
    expect(ids({ members: offsetSlice(LIST, window) })).toEqual(expected);
  });
});

describe('cursorSlice: what the keyset query reads, one more than the page', () => {
  it.each([
    ['the first page', paging(2), ['a', 'b', 'c']],
    ['a jump: skip 4', paging(2, { skip: 4 }), ['e', 'f', 'g']],
    ['after b', paging(2, { after: cursor('b') }), ['c', 'd', 'e']],
    ['after b, inclusive', paging(2, { after: cursor('b', true) }), ['b', 'c', 'd']],
    ['after f: the last', paging(2, { after: cursor('f') }), ['g']],
    ['after g (missing key, last)', paging(2, { after: cursor('g') }), []],
    ['before e, from the end', paging(2, { before: cursor('e') }), ['d', 'c', 'b']],
    ['before e, inclusive', paging(2, { before: cursor('e', true) }), ['e', 'd', 'c']],
    ['before b: only a', paging(2, { before: cursor('b') }), ['a']],
    ['after a and before e', paging(5, { after: cursor('a'), before: cursor('e') }), ['b', 'c', 'd']],
    ['after a and before g, cut short', paging(2, { after: cursor('a'), before: cursor('g') }), ['b', 'c', 'd']],
    ['after e and before b: nothing', paging(2, { after: cursor('e'), before: cursor('b') }), []],
  ])('%s', (_, request, expected) => {
    const read = cursorSlice(LIST, request);
    expect(ids(read)).toEqual(expected);
    expect(read!.keys).toEqual(expected.map((id) => [keyOf(id)]));
  });

  it.each([
    ['a member not in the list', paging(2, { after: cursor('x') })],
    ['a member with other key values', paging(2, { after: cursor('b', false, [rdf.literal('z')]) })],
    ['a missing key where the member has one', paging(2, { before: cursor('c', false, [null]) })],
    ['a key where the member has none', paging(2, { after: cursor('g', false, [rdf.literal('g')]) })],
    ['another number of keys', paging(2, { after: cursor('b', false, []) })],
  ])('undefined for %s: only the store can place that cursor', (_, request) => {
    expect(cursorSlice(LIST, request)).toBeUndefined();
  });
});

describe('orderedListBytes', () => {
  it('grows with the members, their ids, IRIs and keys', () => {
    const half: OrderedList = { ...LIST, members: LIST.members.slice(0, 3), keys: LIST.keys.slice(0, 3) };
    expect(orderedListBytes(half)).toBeLessThan(orderedListBytes(LIST));
    const bare: OrderedList = { ...LIST, keys: LIST.keys.map(() => []) };
    expect(orderedListBytes(bare)).toBeLessThan(orderedListBytes(LIST));
    expect(orderedListBytes(LIST)).toBeGreaterThan(IDS.length * 50);
  });
});
