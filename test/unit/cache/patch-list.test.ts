/**
 * The window cache's patch: members read again are moved where the store's ORDER BY puts them.
 * Every case is checked against an order computed independently (a sort by a tuple of plain
 * numbers and code point arrays), over seeded random lists with ties, missing keys, both
 * directions and text past U+FFFF; and the cases where the server cannot be sure give up.
 */
import rdf from '@rdfjs/data-model';
import type { Term } from '@rdfjs/types';
import { beforeAll, describe, expect, it } from 'vitest';
import { memberOrder, UncertainOrder } from '../../../src/cache/member-order.js';
import { type OrderedList, orderedList } from '../../../src/cache/ordered-list.js';
import { patchList } from '../../../src/cache/patch-list.js';
import { loadMapping } from '../../../src/mapping/load-mapping.js';
import type { Mapping } from '../../../src/mapping/model.js';
import type { ListRequest } from '../../../src/plan/plan.js';
import { parseSort } from '../../../src/request/parse-sort.js';
import type { Row } from '../../../src/store/store.js';

const XSD = 'http://www.w3.org/2001/XMLSchema#';
let mapping: Mapping;
beforeAll(async () => {
  mapping = await loadMapping('mappings/sample.yaml');
});

/** A small seeded generator (mulberry32), so that a failure can be replayed. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One test member: its id and its raw key value (`undefined`: none), as a row of the list query carries it. */
interface Raw {
  readonly id: string;
  readonly key: Term | undefined;
}

interface Shape {
  readonly name: string;
  readonly type: string;
  readonly sort: string;
  /** The row of a member (`?s`, `?s_id` for predicate ids, `?key0`, `?key0_exact` for numbers). */
  readonly row: (raw: Raw) => Row;
  /** A random key value (or none) from a small set, so that ties are common. */
  readonly value: (random: () => number) => Term | undefined;
  /** The key as a tuple of plain values that JavaScript's sort compares as the store orders. */
  readonly sortable: (key: Term) => number[];
}

const ACTIVITY = (id: string) => `http://linkedeconomy.org/resource/TradeActivity/${id}`;
const CONCEPT = (id: string) => `http://linkedeconomy.org/resource/concept/${id}`;
const AMOUNT = (id: string) => `http://linkedeconomy.org/resource/Amount/${id}`;
const pick = <T>(random: () => number, values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
const codePoints = (text: string) => [...text].map((c) => c.codePointAt(0)!);

const SHAPES = (): Shape[] => [
  {
    name: 'activities by -financial-year (dates, one time zone)',
    type: 'trade-activities',
    sort: '-financial-year',
    row: ({ id, key }) => ({
      s: rdf.namedNode(ACTIVITY(id)),
      s_id: rdf.literal(id),
      ...(key && { key0: key }),
    }),
    value: (random) =>
      random() < 0.1
        ? undefined
        : rdf.literal(
            `20${pick(random, ['09', '10', '16', '19'])}-${pick(random, ['01', '02', '12'])}-${pick(random, ['01', '15', '28'])}Z`,
            rdf.namedNode(`${XSD}date`),
          ),
    sortable: (key) => [Date.parse(key.value.replace('Z', 'T00:00:00Z'))],
  },
  {
    name: 'amounts by value (numbers read as doubles)',
    type: 'amounts',
    sort: 'value',
    row: ({ id, key }) => ({
      s: rdf.namedNode(AMOUNT(id)),
      s_id: rdf.literal(id),
      ...(key && { key0: key, key0_exact: rdf.literal(`${key.value} 0`) }),
    }),
    value: (random) =>
      random() < 0.1 ? undefined : rdf.literal(pick(random, ['-1.5', '0', '2', '10', '1e3', '3.25']), `${XSD}double`),
    sortable: (key) => [Number(key.value)],
  },
  {
    name: 'concepts by -notation (text by code point, past U+FFFF and private use)',
    type: 'concepts',
    sort: '-notation',
    row: ({ id, key }) => ({ s: rdf.namedNode(CONCEPT(id)), ...(key && { key0: key }) }),
    value: (random) =>
      random() < 0.1 ? undefined : rdf.literal(pick(random, ['a', 'ab', 'B', '\uE000', '😀', 'é', '01', ''])),
    sortable: (key) => codePoints(key.value),
  },
  ...(['concerns.label', '-concerns.label'] as const).map(
    (sort): Shape => ({
      name: `activities by ${sort} (a key per member through a to-many hop, tiered by language)`,
      type: 'trade-activities',
      sort,
      // The key as the whole-list query gives it: a tier character in front (which ORDER BY skips),
      // or the placeholder of a member without one (MIN's "~", MAX's "").
      row: ({ id, key }) => ({
        s: rdf.namedNode(ACTIVITY(id)),
        s_id: rdf.literal(id),
        key0: rdf.literal(key ? `${'0123'[id.charCodeAt(3) % 4]}${key.value}` : sort.startsWith('-') ? '' : '~'),
      }),
      value: (random) =>
        random() < 0.1 ? undefined : rdf.literal(pick(random, ['Beef', 'beef', 'Bé', 'Z', '😀', '\uE000', 'a b', ''])),
      sortable: (key) => codePoints(key.value),
    }),
  ),
];

/** The order of `raws` as the store gives it, computed apart from memberOrder: missing last, direction, then id. */
function expectedOrder(shape: Shape, descending: boolean, raws: readonly Raw[]): string[] {
  const compareTuples = (a: number[], b: number[]) => {
    for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
    return a.length - b.length;
  };
  return [...raws]
    .sort((x, y) => {
      if (!x.key || !y.key) {
        if (x.key !== y.key) return x.key ? -1 : 1;
      } else {
        const c = compareTuples(shape.sortable(x.key), shape.sortable(y.key));
        if (c !== 0) return descending ? -c : c;
      }
      // Ids here are ASCII: code unit order is code point order; template ids sort as their text too.
      return x.id < y.id ? -1 : x.id > y.id ? 1 : 0;
    })
    .map((raw) => raw.id);
}

const requestOf = (shape: Shape): ListRequest => {
  const type = mapping.types.get(shape.type)!;
  return { type, sort: parseSort(shape.sort, mapping, type), filters: [] };
};

/** The list the store would give for `raws`, in the expected order. */
function storeList(shape: Shape, raws: readonly Raw[]): OrderedList {
  const byId = new Map(raws.map((raw) => [raw.id, raw]));
  const descending = shape.sort.startsWith('-');
  return orderedList(
    requestOf(shape),
    expectedOrder(shape, descending, raws).map((id) => shape.row(byId.get(id)!)),
  );
}

const ids = (list: OrderedList | undefined) => list?.members.map((member) => member.id);

describe('patchList', () => {
  it.each([1, 2, 3, 4, 5, 6])('seed %i: random changes land where the store puts them', (seed) => {
    for (const shape of SHAPES()) {
      const random = seeded(seed * 101 + shape.name.length);
      const request = requestOf(shape);
      const hex = (i: number) => i.toString(16).padStart(4, '0');
      let raws: Raw[] = Array.from({ length: 200 }, (_, i) => ({ id: hex(i), key: shape.value(random) }));
      let list = storeList(shape, raws);
      for (let round = 0; round < 20; round++) {
        // Some members get a new key (or lose it), some leave, some arrive; one may be named without change.
        const changed = new Set<string>();
        const next = new Map(raws.map((raw) => [raw.id, raw]));
        for (let j = Math.floor(random() * 8); j >= 0; j--) {
          const id = hex(Math.floor(random() * 260));
          const action = random();
          if (action < 0.2) next.delete(id);
          else if (action < 0.9) next.set(id, { id, key: shape.value(random) });
          changed.add(id);
        }
        raws = [...next.values()];
        const iri = (id: string) => shape.row({ id, key: undefined }).s!.value;
        const reread = storeList(
          shape,
          raws.filter((raw) => changed.has(raw.id)),
        );
        const rows = reread.members.map((member) => shape.row(next.get(member.id)!));
        const patched = patchList(request, list, new Set([...changed].map(iri)), rows);
        const context = `${shape.name}, seed ${seed}, round ${round}`;
        expect(ids(patched), context).toEqual(ids(storeList(shape, raws)));
        expect(patched!.keys, context).toEqual(storeList(shape, raws).keys);
        expect([...patched!.places], context).toEqual([...storeList(shape, raws).places]);
        list = patched!;
      }
    }
  });

  it('an empty change, an empty list, and changes at both ends', () => {
    const shape = SHAPES()[1]!;
    const request = requestOf(shape);
    const key = (v: string) => rdf.literal(v, `${XSD}double`);
    const list = storeList(shape, [
      { id: 'b', key: key('1') },
      { id: 'c', key: key('2') },
    ]);
    expect(ids(patchList(request, list, new Set(), []))).toEqual(['b', 'c']);
    const empty = storeList(shape, []);
    const rows = [shape.row({ id: 'a', key: key('5') })];
    expect(ids(patchList(request, empty, new Set([AMOUNT('a')]), rows))).toEqual(['a']);
    const ends = [shape.row({ id: 'a', key: key('0') }), shape.row({ id: 'z', key: undefined })];
    expect(ids(patchList(request, list, new Set([AMOUNT('a'), AMOUNT('z')]), ends))).toEqual(['a', 'b', 'c', 'z']);
  });

  it('gives up where the store order is not certain: time zones, ill-typed or other values, ties on the id, blank nodes', () => {
    const shape = SHAPES()[0]!;
    const request = requestOf(shape);
    const date = (v: string, datatype = `${XSD}date`) => rdf.literal(v, rdf.namedNode(datatype));
    const list = storeList(shape, [
      { id: 'b', key: date('2016-01-01Z') },
      { id: 'c', key: date('2010-01-01Z') },
    ]);
    const patch = (key: Term | undefined, id = 'a') =>
      patchList(request, list, new Set([ACTIVITY(id)]), [shape.row({ id, key })]);
    expect(ids(patch(date('2012-01-01Z')))).toEqual(['b', 'a', 'c']);
    expect(patch(date('2012-01-01'))).toBeUndefined(); // no time zone among Z
    expect(patch(date('2012-01-01+01:00'))).toBeUndefined();
    expect(patch(date('2012-02-30Z'))).toBeUndefined(); // no such day
    expect(patch(date('12-01-01Z'))).toBeUndefined();
    expect(patch(date('2012-01-01T00:00:00Z', `${XSD}dateTime`))).toBeUndefined();
    expect(patch(rdf.literal('2012'))).toBeUndefined(); // a plain string
    expect(patch(rdf.namedNode('http://example.org/2012'))).toBeUndefined();
    expect(patch(rdf.blankNode('b0'))).toBeUndefined();
    // A member with the same id as another (the predicate id strategy allows it): a tie on everything.
    expect(
      patchList(request, list, new Set([ACTIVITY('x')]), [
        { s: rdf.namedNode(ACTIVITY('x')), s_id: rdf.literal('b'), key0: date('2016-01-01Z') },
      ]),
    ).toBeUndefined();
    // Missing keys place anywhere certain: last.
    expect(ids(patch(undefined))).toEqual(['b', 'c', 'a']);
  });

  it('numbers that are no finite double, and a kept list holding a blank key, give up', () => {
    const shape = SHAPES()[1]!;
    const request = requestOf(shape);
    const list = storeList(shape, [{ id: 'b', key: rdf.literal('1', `${XSD}double`) }]);
    const row = shape.row({ id: 'a', key: rdf.literal('NaN', `${XSD}double`) });
    expect(patchList(request, list, new Set([AMOUNT('a')]), [row])).toBeUndefined();
    const blank = orderedList(request, [
      { s: rdf.namedNode(AMOUNT('b')), s_id: rdf.literal('b'), key0: rdf.blankNode() },
    ]);
    expect(blank.blankKeys).toBe(true);
    const fine = shape.row({ id: 'a', key: rdf.literal('1', `${XSD}double`) });
    expect(patchList(request, blank, new Set([AMOUNT('a')]), [fine])).toBeUndefined();
  });
});

describe('memberOrder', () => {
  it('text by code point: U+E000 before a character past U+FFFF (UTF-16 code units say the reverse)', () => {
    const shape = SHAPES()[2]!;
    const compare = memberOrder({ ...requestOf(shape), sort: parseSort('notation', mapping, requestOf(shape).type) });
    const keyed = (id: string, text: string) => ({ member: { id, iri: CONCEPT(id) }, keys: [rdf.literal(text)] });
    expect(compare(keyed('1', '\uE000'), keyed('2', '😀'))).toBeLessThan(0);
    expect(compare(keyed('1', 'b'), keyed('2', 'ab'))).toBeGreaterThan(0);
    expect(compare(keyed('1', 'a'), keyed('2', 'a'))).toBeLessThan(0); // the id breaks the tie
    expect(() => compare(keyed('1', 'a'), keyed('1', 'a'))).toThrow(UncertainOrder);
  });

  it('orders by id alone when sorted by id, in either direction', () => {
    const type = mapping.types.get('concepts')!;
    const compare = memberOrder({ type, sort: parseSort('-id', mapping, type) });
    const keyed = (id: string) => ({ member: { id, iri: CONCEPT(id) }, keys: [] });
    expect(compare(keyed('0101'), keyed('0102'))).toBeGreaterThan(0);
  });
});
