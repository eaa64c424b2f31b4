import rdf from '@rdfjs/data-model';
import { describe, expect, it } from 'vitest';
import { groupValues } from '../../../src/execute/rows.js';
import { loadMapping } from '../../../src/mapping/load-mapping.js';
import type { ListRequest } from '../../../src/plan/plan.js';
import { parseSort } from '../../../src/request/parse-sort.js';
import { buildRangeWindowQuery } from '../../../src/sparql/key-histogram.js';
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
  const built = buildRangeWindowQuery(
    mapping,
    list(type, sort),
    WINDOW,
    { from: term, to: term },
    counted,
    attributes(type, ...names),
  );
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
