import rdf from '@rdfjs/data-model';
import { describe, expect, it } from 'vitest';
import { templateMemo } from '../../../src/cache/template-memo.js';

/** One app's memo, as the server keeps texts (`cache/template-memo.ts`). */
const memo = templateMemo();

import { groupValues } from '../../../src/execute/rows.js';
import { compileMapping, loadMapping } from '../../../src/mapping/load-mapping.js';
import type { ListRequest } from '../../../src/plan/plan.js';
import { parseFilter } from '../../../src/request/parse-filter.js';
import { parseQuery } from '../../../src/request/parse-query.js';
import { parseSort } from '../../../src/request/parse-sort.js';
import { buildKeyHistogramQuery, buildRangeWindowQuery, keyHistogramText } from '../../../src/sparql/key-histogram.js';
import { toText } from '../../../src/sparql/to-text.js';
import type { Row } from '../../../src/store/store.js';

const mapping = await loadMapping('mappings/sample.yaml');
const XSD = 'http://www.w3.org/2001/XMLSchema#';
const list = (type: string, sort: string): ListRequest => ({
  type: mapping.types.get(type)!,
  sort: parseSort(sort, mapping, mapping.types.get(type)!),
  filters: [],
});
const attributes = (type: string, ...names: string[]) =>
  names.map((name) => mapping.types.get(type)!.attributes.get(name)!);
const WINDOW = { limit: 20, offset: 40 };

/** The range window query of one key value, with the members' values of `names` (no range count). */
function rangeWindow(type: string, sort: string, value: string, names: string[], counted = false) {
  const term = rdf.literal(value);
  const built = buildRangeWindowQuery(mapping, list(type, sort), {
    window: WINDOW,
    range: { from: term, to: term },
    counted,
    attributes: attributes(type, ...names),
  });
  return { ...built, text: toText(built.query) };
}

/** The attribute names the query fetches by `VALUES (?p ?f)`. */
const fetchedNames = (text: string) => [...text.matchAll(/\(<[^>]+> "([^"]+)"\)/g)].map((m) => m[1]);

describe("buildRangeWindowQuery: the key's own attribute is each member's key, not fetched again", () => {
  it('a page whose one attribute is its sort key fetches no values: its ?key0 and the exact text are the value', () => {
    const { text, withValues, carried } = rangeWindow('trade-activities', '-financial-year', '2008-01-01Z', [
      'financial-year',
    ]);
    expect(withValues).toBe(true);
    expect(carried?.name).toBe('financial-year');
    expect(text).not.toMatch(/OPTIONAL|\?f\b|\?o\b/);
    expect(text).toContain('AS ?key0_exact)');
    expect(text).toContain('<http://linkedeconomy.org/ontology#financialYear> ?key0');
  });

  it('the other attributes are fetched as before', () => {
    const { text, carried } = rangeWindow('concepts', 'notation', '0101', ['notation', 'label']);
    expect(carried?.name).toBe('notation');
    expect(fetchedNames(text)).toEqual(['label']);
    expect(text).toContain('AS ?key0_exact)');
  });

  it.each([
    [
      'a number key (compared as a double: its exact text is not the value’s)',
      'amounts',
      'value',
      ['value', 'currency'],
    ],
    ['a key that is no attribute of the page', 'concepts', 'notation', ['label']],
    ['a key over a hop', 'trade-activities', 'amount.currency', []],
  ])('%s: every attribute is fetched', (_, type, sort, names) => {
    const { text, carried } = rangeWindow(type, sort, '1', names);
    expect(carried).toBeUndefined();
    expect(fetchedNames(text)).toEqual(names);
    expect(text).not.toContain('?key0_exact');
  });

  it('a window with its range count brings no values at all', () => {
    const { text, withValues, carried } = rangeWindow('concepts', 'notation', '0101', ['notation', 'label'], true);
    expect(withValues).toBe(false);
    expect(carried).toBeUndefined();
    expect(fetchedNames(text)).toEqual([]);
  });
});

describe('groupValues with a carried attribute', () => {
  const s = rdf.namedNode('http://example.org/c1');
  it("adds each member's key as the attribute's value once, with its exact text as for ?o", () => {
    const decimal = rdf.literal('1.50', rdf.namedNode(`${XSD}decimal`));
    const label = rdf.literal('Food', 'en');
    const rows: Row[] = [
      { s, key0: decimal, key0_exact: rdf.literal('1.5 0'), f: rdf.literal('label'), o: label },
      {
        s,
        key0: decimal,
        key0_exact: rdf.literal('1.5 0'),
        f: rdf.literal('label'),
        o: rdf.literal('Nourriture', 'fr'),
      },
      { s: rdf.namedNode('http://example.org/c2') },
    ];
    const values = groupValues(rows, 'notation');
    expect(values.get(s.value)?.get('notation')).toEqual([rdf.literal('1.5', rdf.namedNode(`${XSD}decimal`))]);
    expect(values.get(s.value)?.get('label')).toHaveLength(2);
    // A member without the key has no value of it.
    expect([...(values.get('http://example.org/c2')?.keys() ?? [])]).toEqual([]);
  });

  it('without it, ?key0 is no value', () => {
    const values = groupValues([{ s, key0: rdf.literal('0101') }]);
    expect([...(values.get(s.value)?.keys() ?? [])]).toEqual([]);
  });
});

describe('keyHistogramText: written once per list (a filtered one per query), the same text as the builder’s', () => {
  const written = (
    request: ListRequest,
    limit: number,
    oneGraph: boolean,
    order?: 'code point' | 'UTF-16 code units',
  ) => {
    const query = buildKeyHistogramQuery(mapping, request, { limit, oneGraph });
    return query && toText(query, order);
  };
  const filtered = (filter: string): ListRequest => ({
    ...list('trade-activities', '-financial-year'),
    filters: parseFilter(parseQuery(filter).filter, mapping, mapping.types.get('trade-activities')!),
  });
  // Lists that differ in one thing each: none may be given another's text.
  const cases: [string, ListRequest, number, boolean, ('code point' | 'UTF-16 code units')?][] = [
    ['by year, descending', list('trade-activities', '-financial-year'), 501, false],
    ['by year, ascending', list('trade-activities', 'financial-year'), 501, false],
    ['by year, then the id', list('trade-activities', '-financial-year,id'), 501, false],
    ['another limit', list('trade-activities', '-financial-year'), 7, false],
    ['one graph', list('trade-activities', '-financial-year'), 501, true],
    ['in UTF-16 order', list('trade-activities', '-financial-year'), 501, false, 'UTF-16 code units'],
    ['by a to-one path', list('trade-activities', 'amount.currency'), 501, false],
    ['another type', list('concepts', 'notation'), 501, false],
    ['filtered', filtered('filter[financial-year][gte]=2016-01-01Z'), 501, false],
    ['filtered otherwise', filtered('filter[financial-year][gte]=2017-01-01Z'), 501, false],
    ['filtered with another operator', filtered('filter[financial-year][lte]=2017-01-01Z'), 501, false],
    ['filtered, one graph', filtered('filter[financial-year][gte]=2016-01-01Z'), 501, true],
    ['filtered, in UTF-16 order', filtered('filter[financial-year][gte]=2016-01-01Z'), 501, false, 'UTF-16 code units'],
    ['filtered by text', filtered('filter[concerns.label][contains]=e'), 501, false],
    ['filtered by other text', filtered('filter[concerns.label][contains]=E'), 501, false],
    [
      'filtered by two filters',
      filtered('filter[concerns.label][contains]=e&filter[destination][exists]=true'),
      501,
      false,
    ],
    ['no histogram (sorted by id)', list('trade-activities', 'id'), 501, false],
  ];

  it('each list gets its own text, the first time and again', () => {
    for (let round = 0; round < 2; round++)
      for (const [what, request, limit, oneGraph, order] of cases)
        expect(
          keyHistogramText(mapping, request, { limit, oneGraph, textOrder: order, memo }),
          `${what}, round ${round}`,
        ).toBe(written(request, limit, oneGraph, order));
    expect(
      keyHistogramText(mapping, list('trade-activities', 'id'), { limit: 501, oneGraph: false, memo }),
    ).toBeUndefined();
  });

  it('a mapping of the same names with other predicates gets its own text', () => {
    const other = compileMapping(
      {
        types: {
          'trade-activities': {
            class: 'http://example.org/Activity',
            id: { predicate: 'http://example.org/id' },
            attributes: { 'financial-year': 'http://example.org/year' },
          },
        },
      },
      'other.yaml',
    );
    const request = list('trade-activities', '-financial-year');
    const otherRequest = {
      ...request,
      type: other.types.get('trade-activities')!,
      sort: parseSort('-financial-year', other, other.types.get('trade-activities')!),
    };
    const mine = keyHistogramText(mapping, request, { limit: 501, oneGraph: false, memo });
    const theirs = keyHistogramText(other, otherRequest, { limit: 501, oneGraph: false, memo });
    expect(theirs).toBe(written(otherRequest, 501, false));
    expect(theirs).toContain('http://example.org/year');
    expect(mine).not.toContain('http://example.org/year');
  });
});

describe('buildKeyHistogramQuery with a page: the window rides along as a third branch', () => {
  const request = list('trade-activities', '-financial-year');
  const year = rdf.literal('2016-01-01Z', rdf.namedNode(`${XSD}date`));
  const page = buildRangeWindowQuery(mapping, request, {
    window: WINDOW,
    range: { from: year, to: year },
    counted: false,
  });
  const alone = buildKeyHistogramQuery(mapping, request, { limit: 501, oneGraph: true })!;
  const withPage = buildKeyHistogramQuery(mapping, request, { limit: 501, oneGraph: true, page: page.query })!;

  it('keeps the count and histogram branches as they are, and adds the page as it is', () => {
    const branches = (query: typeof alone) => (query.where![0] as { patterns: unknown[] }).patterns;
    expect(branches(withPage)).toHaveLength(3);
    expect(branches(withPage).slice(0, 2)).toEqual(branches(alone));
    expect(toText(withPage)).toContain(toText(page.query).split('\n').join('\n    '));
  });

  it('orders every row in the list’s order: missing last, the key descending, then the id', () => {
    const order = toText(withPage).split('\n').at(-1);
    expect(order).toBe('ORDER BY (IF(BOUND(?key0), 0 , 1 )) DESC (?key0) (STR(?s_id))');
    expect(toText(alone).split('\n').at(-1)).toBe('ORDER BY DESC (?key0)');
  });
});
