import { beforeAll, describe, expect, it } from 'vitest';
import { JsonApiError } from '../../../src/errors/json-api-error.js';
import { loadMapping } from '../../../src/mapping/load-mapping.js';
import type { Mapping } from '../../../src/mapping/model.js';
import { type Filter, parseFilter } from '../../../src/request/parse-filter.js';
import { parseQuery } from '../../../src/request/parse-query.js';
import { thrown as thrownError } from '../../support/thrown.js';

const XSD = 'http://www.w3.org/2001/XMLSchema#';
const CONCEPT = 'http://linkedeconomy.org/resource/concept/';
let mapping: Mapping;

beforeAll(async () => {
  mapping = await loadMapping('mappings/sample.yaml');
});

/** Parses the filters of a query string for a collection of `type`. */
const parse = (query: string, type = 'trade-activities') =>
  parseFilter(parseQuery(query).filter, mapping, mapping.types.get(type)!);

/** A filter with every mapping object (type, attribute, relationship) replaced by its name. */
function summary(filters: Filter[]): unknown {
  return JSON.parse(
    JSON.stringify(filters, (_, value) =>
      value && typeof value === 'object' && 'name' in value && ('predicate' in value || 'classIri' in value)
        ? value.name
        : value,
    ),
  );
}

const thrown = (fn: () => unknown) => thrownError(JsonApiError, fn);

const attribute = (attribute: string, hops: string[] = []) => ({ kind: 'attribute', hops, attribute });
const date = (lexical: string) => ({ lexical, datatype: `${XSD}date` });
const FY = 'filter[financial-year]';

describe('parseFilter: accepted filters', () => {
  it.each([
    // filter[path]=v1,v2: equality with any of the values, typed by the attribute's datatype.
    {
      query: `${FY}=2016-01-01Z`,
      expected: [
        {
          kind: 'typed',
          parameter: FY,
          path: attribute('financial-year'),
          operator: 'eq',
          values: [date('2016-01-01Z')],
        },
      ],
    },
    {
      query: `${FY}=2016-01-01Z,2018-01-01`,
      expected: [
        {
          kind: 'typed',
          parameter: FY,
          path: attribute('financial-year'),
          operator: 'eq',
          values: [date('2016-01-01Z'), date('2018-01-01')],
        },
      ],
    },
    {
      query: `${FY}[eq]=2016-02-29`,
      expected: [
        {
          kind: 'typed',
          parameter: `${FY}[eq]`,
          path: attribute('financial-year'),
          operator: 'eq',
          values: [date('2016-02-29')],
        },
      ],
    },
    {
      query: `${FY}[ne]=2016-01-01Z,2014-01-01Z`,
      expected: [
        {
          kind: 'typed',
          parameter: `${FY}[ne]`,
          path: attribute('financial-year'),
          operator: 'ne',
          values: [date('2016-01-01Z'), date('2014-01-01Z')],
        },
      ],
    },
    ...(['lt', 'lte', 'gt', 'gte'] as const).map((operator) => ({
      query: `${FY}[${operator}]=2016-01-01%2B02:00`,
      expected: [
        {
          kind: 'typed',
          parameter: `${FY}[${operator}]`,
          path: attribute('financial-year'),
          operator,
          values: [date('2016-01-01+02:00')],
        },
      ],
    })),
    {
      query: `${FY}[exists]=true`,
      expected: [{ kind: 'exists', parameter: `${FY}[exists]`, path: attribute('financial-year'), exists: true }],
    },
    {
      query: `${FY}[exists]=false`,
      expected: [{ kind: 'exists', parameter: `${FY}[exists]`, path: attribute('financial-year'), exists: false }],
    },
    // Decimals through a to-one relationship.
    {
      query: 'filter[amount.value][gte]=-1000.5',
      expected: [
        {
          kind: 'typed',
          parameter: 'filter[amount.value][gte]',
          path: attribute('value', ['amount']),
          operator: 'gte',
          values: [{ lexical: '-1000.5', datatype: `${XSD}decimal` }],
        },
      ],
    },
    {
      query: 'filter[amount.value]=.5,3',
      expected: [
        {
          kind: 'typed',
          parameter: 'filter[amount.value]',
          path: attribute('value', ['amount']),
          operator: 'eq',
          values: [
            { lexical: '.5', datatype: `${XSD}decimal` },
            { lexical: '3', datatype: `${XSD}decimal` },
          ],
        },
      ],
    },
    // Text attributes: any operator; values are kept as written.
    {
      query: 'filter[concerns.notation]=0101',
      expected: [
        {
          kind: 'text',
          parameter: 'filter[concerns.notation]',
          path: attribute('notation', ['concerns']),
          operator: 'eq',
          values: ['0101'],
        },
      ],
    },
    {
      query: 'filter[concerns.label][contains]=LIVE',
      expected: [
        {
          kind: 'text',
          parameter: 'filter[concerns.label][contains]',
          path: attribute('label', ['concerns']),
          operator: 'contains',
          values: ['LIVE'],
        },
      ],
    },
    {
      query: 'filter[concerns.label][starts-with]=a,b',
      expected: [
        {
          kind: 'text',
          parameter: 'filter[concerns.label][starts-with]',
          path: attribute('label', ['concerns']),
          operator: 'starts-with',
          values: ['a', 'b'],
        },
      ],
    },
    {
      query: 'filter[origin.country.name][lt]=H',
      expected: [
        {
          kind: 'text',
          parameter: 'filter[origin.country.name][lt]',
          path: attribute('name', ['origin', 'country']),
          operator: 'lt',
          values: ['H'],
        },
      ],
    },
    {
      query: 'filter[concerns.broader-concepts.label][gte]=M',
      expected: [
        {
          kind: 'text',
          parameter: 'filter[concerns.broader-concepts.label][gte]',
          path: attribute('label', ['concerns', 'broader-concepts']),
          operator: 'gte',
          values: ['M'],
        },
      ],
    },
    // id: the listed resource's own id; ids that can't be ids of the type are left out (they match nothing).
    {
      query: 'filter[id]=7c1e0a42,NOT-AN-ID',
      expected: [
        {
          kind: 'ids',
          parameter: 'filter[id]',
          path: { kind: 'ids', hops: [], type: 'trade-activities' },
          operator: 'eq',
          lookups: [{ kind: 'literal', value: '7c1e0a42' }],
        },
      ],
    },
    {
      query: 'filter[id][ne]=x y',
      expected: [
        {
          kind: 'ids',
          parameter: 'filter[id][ne]',
          path: { kind: 'ids', hops: [], type: 'trade-activities' },
          operator: 'ne',
          lookups: [],
        },
      ],
    },
    // A relationship: the ids of the related resources.
    {
      query: 'filter[concerns]=0101,0A01,0a01,zz',
      expected: [
        {
          kind: 'ids',
          parameter: 'filter[concerns]',
          path: { kind: 'ids', hops: ['concerns'], type: 'concepts' },
          operator: 'eq',
          lookups: [
            { kind: 'iri', iri: `${CONCEPT}0101` },
            { kind: 'iri', iri: `${CONCEPT}0a01` },
          ],
        },
      ],
    },
    {
      query: 'filter[concerns][ne]=0201',
      expected: [
        {
          kind: 'ids',
          parameter: 'filter[concerns][ne]',
          path: { kind: 'ids', hops: ['concerns'], type: 'concepts' },
          operator: 'ne',
          lookups: [{ kind: 'iri', iri: `${CONCEPT}0201` }],
        },
      ],
    },
    {
      query: 'filter[destination][exists]=false',
      expected: [
        {
          kind: 'exists',
          parameter: 'filter[destination][exists]',
          path: { kind: 'ids', hops: ['destination'], type: 'group-national-agents' },
          exists: false,
        },
      ],
    },
    {
      // Values that are not of the id syntax (odd length, not hex) match nothing.
      query: 'filter[origin.country]=4752,475,4G',
      expected: [
        {
          kind: 'ids',
          parameter: 'filter[origin.country]',
          path: { kind: 'ids', hops: ['origin', 'country'], type: 'countries' },
          operator: 'eq',
          lookups: [{ kind: 'iri', iri: 'http://linkedeconomy.org/resource/country/GR' }],
        },
      ],
    },
    {
      query: 'filter[concerns.broader-concepts.broader-concepts][exists]=true',
      expected: [
        {
          kind: 'exists',
          parameter: 'filter[concerns.broader-concepts.broader-concepts][exists]',
          path: { kind: 'ids', hops: ['concerns', 'broader-concepts', 'broader-concepts'], type: 'concepts' },
          exists: true,
        },
      ],
    },
    // Several filters, in the order given.
    {
      query: `filter[concerns.notation]=0101&${FY}[gte]=2016-01-01Z`,
      expected: [
        {
          kind: 'text',
          parameter: 'filter[concerns.notation]',
          path: attribute('notation', ['concerns']),
          operator: 'eq',
          values: ['0101'],
        },
        {
          kind: 'typed',
          parameter: `${FY}[gte]`,
          path: attribute('financial-year'),
          operator: 'gte',
          values: [date('2016-01-01Z')],
        },
      ],
    },
    { query: '', expected: [] },
  ])('$query', ({ query, expected }) => {
    expect(summary(parse(query))).toEqual(expected);
  });

  it.each([
    // Commas separate values; \, is a comma inside one and \\ a backslash; other backslashes stay.
    { query: String.raw`filter[label]=calves\, pure-bred,0101`, values: ['calves, pure-bred', '0101'] },
    { query: String.raw`filter[label]=a\\,b`, values: ['a\\', 'b'] },
    { query: String.raw`filter[label]=a\b\\\,c`, values: [String.raw`a\b\,c`] },
    { query: 'filter[label]=', values: [''] },
    { query: 'filter[label]=,', values: ['', ''] },
    { query: `filter[label]=${encodeURIComponent('"}> \'\n')}`, values: ['"}> \'\n'] },
  ])('values of $query', ({ query, values }) => {
    expect(summary(parse(query, 'concepts'))).toEqual([
      { kind: 'text', parameter: 'filter[label]', path: attribute('label'), operator: 'eq', values },
    ]);
  });

  it.each([
    {
      query: 'filter[budget]=%2B42',
      type: 'aid-activities',
      expected: { kind: 'typed', values: [{ lexical: '+42', datatype: `${XSD}integer` }] },
    },
    {
      query: 'filter[completed]=1,false',
      type: 'aid-activities',
      expected: {
        kind: 'typed',
        values: [
          { lexical: 'true', datatype: `${XSD}boolean` },
          { lexical: 'false', datatype: `${XSD}boolean` },
        ],
      },
    },
    { query: 'filter[completed][ne]=true', type: 'aid-activities', expected: { kind: 'typed', operator: 'ne' } },
    {
      query: 'filter[keywords]=water,ports',
      type: 'aid-activities',
      expected: { kind: 'text', values: ['water', 'ports'] },
    },
    {
      query: 'filter[id]=4752',
      type: 'countries',
      expected: { kind: 'ids', lookups: [{ kind: 'iri', iri: 'http://linkedeconomy.org/resource/country/GR' }] },
    },
  ])('$query ($type)', ({ query, type, expected }) => {
    expect(summary(parse(query, type))).toEqual([expect.objectContaining(expected)]);
  });

  it.each([
    { type: 'concepts', attributes: ['notation', 'label'] },
    { type: 'aid-activities', attributes: ['title', 'description', 'keywords'] },
    { type: 'countries', attributes: ['iso-code', 'name'] },
  ])('filter=text searches the text attributes of $type', ({ type, attributes }) => {
    expect(summary(parse('filter=Oil,%20olive', type))).toEqual([
      { kind: 'search', parameter: 'filter', text: 'Oil, olive', attributes },
    ]);
  });
});

/** Every operator, for the detail of an unknown one. */
const OPERATORS = /operators: eq, ne, lt, lte, gt, gte, contains, starts-with, exists\./;
const FILTERABLE =
  /Filterable: id, financial-year, concerns, origin, destination, amount, concerns\.<field>, origin\.<field>, destination\.<field>, amount\.<field>\./;
const NOT_A_FILTER =
  /is not a filter; expected filter=text, filter\[field\]=value or filter\[field\]\[operator\]=value/;

describe('parseFilter: rejected filters', () => {
  it.each([
    // Shapes of the family that are no filter.
    { query: 'filter[]=x', parameter: 'filter[]', detail: [NOT_A_FILTER] },
    { query: 'filter[]=', parameter: 'filter[]', detail: [NOT_A_FILTER] },
    { query: 'filter[financial-year][eq][x]=1', parameter: 'filter[financial-year][eq][x]', detail: [NOT_A_FILTER] },
    // Unknown operators (operators are case-sensitive, like every member name).
    {
      query: `${FY}[foo]=x`,
      parameter: `${FY}[foo]`,
      detail: [/Unknown filter operator 'foo' in 'filter\[financial-year\]\[foo\]'/, OPERATORS],
    },
    { query: `${FY}[EQ]=x`, parameter: `${FY}[EQ]`, detail: [/Unknown filter operator 'EQ'/, OPERATORS] },
    { query: `${FY}[]=x`, parameter: `${FY}[]`, detail: [/Unknown filter operator ''/, OPERATORS] },
    { query: `${FY}[not.eq]=x`, parameter: `${FY}[not.eq]`, detail: [/Unknown filter operator 'not\.eq'/] },
    // Unknown paths.
    {
      query: 'filter[nope]=x',
      parameter: 'filter[nope]',
      detail: [
        /Cannot filter trade-activities by 'nope': 'trade-activities' has no attribute or relationship 'nope'/,
        FILTERABLE,
      ],
    },
    {
      query: 'filter[Financial-Year]=x',
      parameter: 'filter[Financial-Year]',
      detail: [/has no attribute or relationship 'Financial-Year'/],
    },
    {
      query: 'filter[concerns.nope][eq]=x',
      parameter: 'filter[concerns.nope][eq]',
      detail: [/by 'concerns\.nope': 'concepts' has no attribute or relationship 'nope'/, FILTERABLE],
    },
    {
      query: 'filter[concerns.id]=0101',
      parameter: 'filter[concerns.id]',
      detail: [/'concepts' has no attribute or relationship 'id'/],
    },
    {
      query: 'filter[nope.label]=x',
      parameter: 'filter[nope.label]',
      detail: [/'trade-activities' has no relationship 'nope'/],
    },
    {
      query: `filter[financial-year.x]=1`,
      parameter: 'filter[financial-year.x]',
      detail: [/has no relationship 'financial-year'/],
    },
    {
      query: 'filter[concerns.broader-concepts.broader-concepts.broader-concepts]=01',
      parameter: 'filter[concerns.broader-concepts.broader-concepts.broader-concepts]',
      detail: [/follows more than 3 relationships/],
    },
    {
      query: 'filter[concerns.broader-concepts.broader-concepts.broader-concepts.label]=x',
      parameter: 'filter[concerns.broader-concepts.broader-concepts.broader-concepts.label]',
      detail: [/follows more than 3 relationships/],
    },
    // Values that are not of the attribute's datatype.
    {
      query: `${FY}=2016`,
      parameter: FY,
      detail: [
        /'2016' is not a value of 'financial-year' \(xsd:date\); expected a date such as 2016-01-01 or 2016-01-01Z\.$/,
      ],
    },
    { query: `${FY}=2016-02-30Z`, parameter: FY, detail: [/'2016-02-30Z' is not a value/] },
    { query: `${FY}=2015-02-29`, parameter: FY, detail: [/'2015-02-29' is not a value/] },
    { query: `${FY}=`, parameter: FY, detail: [/'' is not a value of 'financial-year'/] },
    {
      query: `${FY}[gte]=2016-01-01T00:00:00Z`,
      parameter: `${FY}[gte]`,
      detail: [/is not a value of 'financial-year' \(xsd:date\)/],
    },
    {
      query: `${FY}=2016-01-01Z,`,
      parameter: FY,
      detail: [/'' is not a value/, /write \\, for a comma inside a value/],
    },
    {
      query: 'filter[amount.value]=1e3',
      parameter: 'filter[amount.value]',
      detail: [/'1e3' is not a value of 'amount\.value' \(xsd:decimal\); expected a decimal number/],
    },
    { query: 'filter[amount.value][lt]=abc', parameter: 'filter[amount.value][lt]', detail: [/'abc' is not a value/] },
    // Operators that take one value, or true/false.
    {
      query: `${FY}[lt]=2016-01-01Z,2017-01-01Z`,
      parameter: `${FY}[lt]`,
      detail: [/takes one value; got 2 in '2016-01-01Z,2017-01-01Z'/, /write \\, for a comma/],
    },
    {
      query: `${FY}[exists]=yes`,
      parameter: `${FY}[exists]`,
      detail: [/'filter\[financial-year\]\[exists\]' takes true or false; got 'yes'/],
    },
    { query: `${FY}[exists]=TRUE`, parameter: `${FY}[exists]`, detail: [/takes true or false/] },
    { query: `${FY}[exists]=`, parameter: `${FY}[exists]`, detail: [/takes true or false; got ''/] },
    {
      query: 'filter[destination][exists]=1',
      parameter: 'filter[destination][exists]',
      detail: [/takes true or false/],
    },
    // Operators a path does not take.
    {
      query: `${FY}[contains]=2016`,
      parameter: `${FY}[contains]`,
      detail: [
        /'contains' does not apply to 'financial-year' \(xsd:date\); it takes: eq, ne, lt, lte, gt, gte, exists\./,
      ],
    },
    {
      query: `${FY}[starts-with]=2016`,
      parameter: `${FY}[starts-with]`,
      detail: [/it takes: eq, ne, lt, lte, gt, gte, exists\./],
    },
    {
      query: 'filter[id][exists]=true',
      parameter: 'filter[id][exists]',
      detail: [/'exists' does not apply to 'id' \(the trade-activities id\); it takes: eq, ne\./],
    },
    { query: 'filter[id][lt]=a', parameter: 'filter[id][lt]', detail: [/it takes: eq, ne\./] },
    {
      query: 'filter[concerns][contains]=01',
      parameter: 'filter[concerns][contains]',
      detail: [/'contains' does not apply to 'concerns' \(a relationship to concepts\); it takes: eq, ne, exists\./],
    },
    {
      query: 'filter[origin.country][gt]=4752',
      parameter: 'filter[origin.country][gt]',
      detail: [/it takes: eq, ne, exists\./],
    },
    {
      query: 'filter[concerns.label][contains]=a%00b',
      parameter: 'filter[concerns.label][contains]',
      detail: [/holds the character U\+0000/],
    },
    // filter=text needs text, and text attributes.
    {
      query: 'filter=x',
      parameter: 'filter',
      detail: [/trade-activities has no text attributes to search/, FILTERABLE],
    },
  ])('$query → 400', ({ query, parameter, detail }) => {
    const error = thrown(() => parse(query));
    expect(error.status).toBe(400);
    expect(error.errors).toHaveLength(1);
    const [object] = error.errors;
    expect(object).toMatchObject({ status: '400', title: 'Invalid query parameter', source: { parameter } });
    for (const pattern of detail) expect(object!.detail).toMatch(pattern);
  });

  it.each([
    {
      query: 'filter=',
      type: 'concepts',
      parameter: 'filter',
      detail: /The search text is empty; expected filter=<text>, searched for in notation, label\./,
    },
    {
      query: 'filter=x',
      type: 'group-national-agents',
      parameter: 'filter',
      detail: /group-national-agents has no text attributes/,
    },
    {
      query: 'filter[budget]=1.5',
      type: 'aid-activities',
      parameter: 'filter[budget]',
      detail: /'1\.5' is not a value of 'budget' \(xsd:integer\); expected an integer/,
    },
    {
      query: 'filter[completed]=yes',
      type: 'aid-activities',
      parameter: 'filter[completed]',
      detail: /'yes' is not a value of 'completed' \(xsd:boolean\); expected true or false/,
    },
    {
      query: 'filter[completed][lt]=true',
      type: 'aid-activities',
      parameter: 'filter[completed][lt]',
      detail: /'lt' does not apply to 'completed' \(xsd:boolean\); it takes: eq, ne, exists\./,
    },
    {
      query: 'filter[label][lt]=a,b',
      type: 'concepts',
      parameter: 'filter[label][lt]',
      detail: /takes one value; got 2/,
    },
    {
      query: 'filter[broader-concepts][lte]=01',
      type: 'concepts',
      parameter: 'filter[broader-concepts][lte]',
      detail: /it takes: eq, ne, exists\./,
    },
  ])('$query ($type) → 400', ({ query, type, parameter, detail }) => {
    const error = thrown(() => parse(query, type));
    expect(error.errors[0]).toMatchObject({ status: '400', title: 'Invalid query parameter', source: { parameter } });
    expect(error.errors[0]!.detail).toMatch(detail);
  });

  // An id of the right syntax that stands for no IRI: the client made it up, and no store could
  // take it (the ids: U+2028, a lone %, a C1 control), so it is a 400, not an empty match.
  it.each([
    { query: 'filter[id]=494e4ae280a8', parameter: 'filter[id]', detail: /it holds U\+2028, which no IRI may hold/ },
    { query: 'filter[id]=4752,494e4a25', parameter: 'filter[id]', detail: /'494e4a25'.*a % that does not start/ },
    { query: 'filter[id][ne]=494e4ac285', parameter: 'filter[id][ne]', detail: /it holds U\+0085/ },
    { query: 'filter[id]=e2808e', parameter: 'filter[id]', detail: /it holds U\+200E/ },
    { query: 'filter[id]=efbfbe', parameter: 'filter[id]', detail: /it holds U\+FFFE/ },
    { query: 'filter[id]=3e', parameter: 'filter[id]', detail: /it holds '>' \(U\+003E\)/ },
    { query: 'filter[id]=ff', parameter: 'filter[id]', detail: /its bytes are not UTF-8 text/ },
    { query: 'filter[id]=5b', parameter: 'filter[id]', detail: /does not follow the IRI syntax/ },
  ])('$query on countries → 400', ({ query, parameter, detail }) => {
    const error = thrown(() => parse(query, 'countries'));
    expect(error.errors[0]).toMatchObject({ status: '400', title: 'Invalid query parameter', source: { parameter } });
    expect(error.errors[0]!.detail).toMatch(detail);
    expect(error.errors[0]!.detail).toMatch(
      /is not an id of countries: .*; expected the lowercase hex of the UTF-8 of what follows http:\/\/linkedeconomy\.org\/resource\/country\/ in an IRI\.$/,
    );
  });

  it('an id through a relationship is checked the same way', () => {
    const error = thrown(() => parse('filter[origin.country]=4752,494e4ae280a8'));
    expect(error.errors[0]).toMatchObject({ source: { parameter: 'filter[origin.country]' } });
    expect(error.errors[0]!.detail).toMatch(/'494e4ae280a8' is not an id of countries: .*U\+2028/);
  });

  it('the first bad filter is the one reported', () => {
    const error = thrown(() => parse(`${FY}=2016-01-01Z&filter[nope]=1&filter[concerns][gt]=1`));
    expect(error.errors[0]!.source).toEqual({ parameter: 'filter[nope]' });
  });
});

describe('parseFilter: how many filters', () => {
  // Distinct parameter names (a name given twice is parse-query's 400): one per operator and path.
  const NAMES = [
    'filter',
    'filter[id]',
    'filter[id][ne]',
    ...['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'contains', 'starts-with'].flatMap((op) => [
      `filter[label][${op}]`,
      `filter[notation][${op}]`,
      `filter[broader-concepts.label][${op}]`,
    ]),
  ];
  const query = (count: number) =>
    NAMES.slice(0, count)
      .map((name) => `${name}=0`)
      .join('&');
  const parseWith = (count: number, max: number) =>
    parseFilter(parseQuery(query(count)).filter, mapping, mapping.types.get('concepts')!, { maxFilters: max });

  it('has enough distinct filters to test with', () => {
    expect(NAMES.length).toBeGreaterThan(21);
    expect(new Set(NAMES).size).toBe(NAMES.length);
  });

  it.each([
    { count: 0, max: 0 },
    { count: 1, max: 1 },
    { count: 3, max: 3 },
    { count: 20, max: 20 },
  ])('$count filters, at most $max: parsed', ({ count, max }) => {
    expect(parseWith(count, max)).toHaveLength(count);
  });

  it.each([
    { count: 1, max: 0 },
    { count: 2, max: 1 },
    { count: 4, max: 3 },
    { count: 21, max: 20 },
    { count: NAMES.length, max: 20 },
  ])('$count filters, at most $max: 400 naming the first past the limit', ({ count, max }) => {
    const error = thrown(() => parseWith(count, max));
    expect(error.errors[0]).toMatchObject({
      status: '400',
      title: 'Invalid query parameter',
      source: { parameter: NAMES[max] },
    });
    expect(error.errors[0]!.detail).toBe(
      `The request has ${count} filter parameters; at most ${max} are allowed (the first past the limit: '${NAMES[max]}').`,
    );
  });

  it('the count is checked before any filter is parsed', () => {
    const bad = Array.from({ length: 21 }, (_, i) => `filter[nope${i}]=x`).join('&');
    const error = thrown(() =>
      parseFilter(parseQuery(bad).filter, mapping, mapping.types.get('concepts')!, { maxFilters: 20 }),
    );
    expect(error.errors[0]!.detail).toMatch(/has 21 filter parameters; at most 20/);
  });
});
