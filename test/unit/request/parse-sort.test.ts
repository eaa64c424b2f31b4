import { beforeAll, describe, expect, it } from 'vitest';
import { JsonApiError } from '../../../src/errors/json-api-error.js';
import { compileMapping, loadMapping } from '../../../src/mapping/load-mapping.js';
import type { Mapping, ResourceType } from '../../../src/mapping/model.js';
import { parseSort } from '../../../src/request/parse-sort.js';
import { thrown as thrownError } from '../../support/thrown.js';

let mapping: Mapping;
let tradeActivities: ResourceType;

beforeAll(async () => {
  mapping = await loadMapping('mappings/sample.yaml');
  tradeActivities = mapping.types.get('trade-activities')!;
});

/** What a resolved key looks like, reduced to comparable names. */
function summary(value: string) {
  return parseSort(value, mapping, tradeActivities).map((key) => ({
    field: key.field,
    descending: key.descending,
    hops: key.path.hops.map((hop) => hop.name),
    end: key.path.end === 'id' ? 'id' : key.path.end.name,
    multiValued: key.path.multiValued,
  }));
}

const thrown = (fn: () => unknown) => thrownError(JsonApiError, fn);

const FINANCIAL_YEAR = { field: 'financial-year', hops: [], end: 'financial-year', multiValued: false };
const ID = { field: 'id', hops: [], end: 'id', multiValued: false };

describe('parseSort: accepted values', () => {
  it.each([
    { input: 'financial-year', expected: [{ ...FINANCIAL_YEAR, descending: false }] },
    { input: '-financial-year', expected: [{ ...FINANCIAL_YEAR, descending: true }] },
    { input: 'id', expected: [{ ...ID, descending: false }] },
    { input: '-id', expected: [{ ...ID, descending: true }] },
    {
      input: 'financial-year,-id',
      expected: [
        { ...FINANCIAL_YEAR, descending: false },
        { ...ID, descending: true },
      ],
    },
    // Fields after id never decide an order (ids are unique): checked, then dropped.
    { input: '-id,financial-year', expected: [{ ...ID, descending: true }] },
    {
      input: 'financial-year,id,origin.country.name',
      expected: [
        { ...FINANCIAL_YEAR, descending: false },
        { ...ID, descending: false },
      ],
    },
    {
      input: 'origin.country.name',
      expected: [
        {
          field: 'origin.country.name',
          descending: false,
          hops: ['origin', 'country'],
          end: 'name',
          multiValued: false,
        },
      ],
    },
    {
      input: '-destination.country.iso-code',
      expected: [
        {
          field: 'destination.country.iso-code',
          descending: true,
          hops: ['destination', 'country'],
          end: 'iso-code',
          multiValued: false,
        },
      ],
    },
    {
      input: 'concerns.label',
      expected: [{ field: 'concerns.label', descending: false, hops: ['concerns'], end: 'label', multiValued: true }],
    },
    {
      input: 'amount.value',
      expected: [{ field: 'amount.value', descending: false, hops: ['amount'], end: 'value', multiValued: false }],
    },
    {
      input: 'concerns.broader-concepts.broader-concepts.label',
      expected: [
        {
          field: 'concerns.broader-concepts.broader-concepts.label',
          descending: false,
          hops: ['concerns', 'broader-concepts', 'broader-concepts'],
          end: 'label',
          multiValued: true,
        },
      ],
    },
  ])('$input', ({ input, expected }) => {
    expect(summary(input)).toEqual(expected);
  });

  it('resolves hops to the relationships of the mapping, in order', () => {
    const [key] = parseSort('origin.country.name', mapping, tradeActivities);
    expect(key!.path.hops).toEqual([
      tradeActivities.relationships.get('origin'),
      mapping.types.get('group-national-agents')!.relationships.get('country'),
    ]);
    expect(key!.path.end).toBe(mapping.types.get('countries')!.attributes.get('name'));
  });

  it('a many attribute is multi-valued without any hop', () => {
    const [key] = parseSort('keywords', mapping, mapping.types.get('aid-activities')!);
    expect(key!.path).toMatchObject({ hops: [], multiValued: true });
  });

  it('reports errors under the parameter name it is given', () => {
    const error = thrown(() => parseSort('nope', mapping, tradeActivities, { maxFields: 10, parameter: 'sort[x]' }));
    expect(error.errors[0]!.source).toEqual({ parameter: 'sort[x]' });
  });
});

const SORTABLE =
  /Sortable: id, financial-year, concerns\.<attribute>, origin\.<attribute>, destination\.<attribute>, amount\.<attribute>\./;
/** The empty-field message shows the whole value and an example of what is expected. */
const EMPTY_FIELD = /empty field .*expected comma-separated fields/;

describe("parseSort: the empty-field message's example is the type's own fields", () => {
  it.each([
    ['trade-activities', /such as -financial-year,id\./],
    ['concepts', /such as -notation,id\./],
  ])('%s', (name, example) => {
    const detail = thrown(() => parseSort('', mapping, mapping.types.get(name)!)).errors[0]!.detail;
    expect(detail).toMatch(example);
  });

  it('a type without attributes: id', () => {
    const bare = compileMapping({ types: { things: { class: 'http://x.org/T', id: { hex: true } } } }, 'inline');
    expect(thrown(() => parseSort(',', bare, bare.types.get('things')!)).errors[0]!.detail).toMatch(/such as id\./);
  });
});

describe('parseSort: rejected values', () => {
  it.each([
    { input: '', detail: [EMPTY_FIELD, /\(''\)/] },
    { input: 'financial-year,,id', detail: [EMPTY_FIELD, /'financial-year,,id'/] },
    { input: 'id,', detail: [EMPTY_FIELD, /'id,'/] },
    { input: '-', detail: [EMPTY_FIELD, /'-'/] },
    // Fields are checked in order: the unknown 'a' is reported before the empty field.
    { input: 'a,,b', detail: [/'a'/, /has no attribute 'a'/, SORTABLE] },
    { input: 'nope', detail: [/by 'nope'/, /'trade-activities' has no attribute 'nope'/, SORTABLE] },
    { input: '-nope', detail: [/by 'nope'/, /has no attribute 'nope'/, SORTABLE] },
    { input: '--financial-year', detail: [/by '-financial-year'/, /has no attribute '-financial-year'/, SORTABLE] },
    { input: 'financial-year,nope', detail: [/by 'nope'/, SORTABLE] },
    { input: 'id,nope', detail: [/by 'nope'/, SORTABLE] }, // checked, though fields after id are dropped
    {
      input: 'concerns',
      detail: [/by 'concerns'/, /ends on the relationship 'concerns'/, /concerns\.<attribute>\)/, SORTABLE],
    },
    { input: 'origin.country', detail: [/by 'origin\.country'/, /ends on the relationship 'country'/, SORTABLE] },
    { input: 'concerns.nope', detail: [/by 'concerns\.nope'/, /'concepts' has no attribute 'nope'/, SORTABLE] },
    { input: 'nope.label', detail: [/by 'nope\.label'/, /'trade-activities' has no relationship 'nope'/, SORTABLE] },
    {
      input: 'concerns.broader-concepts.broader-concepts.broader-concepts.label',
      detail: [
        /by 'concerns\.broader-concepts\.broader-concepts\.broader-concepts\.label'/,
        /follows more than 3 relationships/,
        SORTABLE,
      ],
    },
    // A related resource's id is not sortable: `id` only names the collection's own id.
    { input: 'origin.id', detail: [/by 'origin\.id'/, /'group-national-agents' has no attribute 'id'/, SORTABLE] },
    { input: 'concerns.id', detail: [/by 'concerns\.id'/, /'concepts' has no attribute 'id'/, SORTABLE] },
    // An attribute is not a relationship to step through.
    { input: 'financial-year.x', detail: [/by 'financial-year\.x'/, /has no relationship 'financial-year'/, SORTABLE] },
    { input: '.label', detail: [/by '\.label'/, /empty segment/, SORTABLE] },
    { input: 'concerns.', detail: [/by 'concerns\.'/, /empty segment/, SORTABLE] },
    { input: 'concerns..label', detail: [/empty segment/, SORTABLE] },
    { input: 'Financial-Year', detail: [/has no attribute 'Financial-Year'/, SORTABLE] },
  ])('$input → 400', ({ input, detail }) => {
    const error = thrown(() => parseSort(input, mapping, tradeActivities));
    expect(error.status).toBe(400);
    expect(error.errors).toHaveLength(1);
    const [object] = error.errors;
    expect(object).toMatchObject({ status: '400', title: 'Invalid query parameter', source: { parameter: 'sort' } });
    for (const pattern of detail) expect(object!.detail).toMatch(pattern);
  });

  it('lists the sortable fields of the collection being sorted', () => {
    const error = thrown(() => parseSort('nope', mapping, mapping.types.get('concepts')!));
    expect(error.errors[0]!.detail).toMatch(/Cannot sort concepts by 'nope'/);
    expect(error.errors[0]!.detail).toMatch(
      /Sortable: id, notation, label, broader-concepts\.<attribute>, narrower-concepts\.<attribute>, concept-scheme\.<attribute>, top-concept-of\.<attribute>\./,
    );
  });
});

describe('parseSort: how many fields', () => {
  // Eleven distinct sortable fields of trade-activities (id last: fields after it are dropped).
  const FIELDS = [
    'financial-year',
    'concerns.label',
    '-concerns.notation',
    'origin.country.name',
    'origin.country.iso-code',
    '-destination.country.name',
    'destination.country.iso-code',
    'amount.value',
    'amount.currency',
    'concerns.broader-concepts.label',
    '-id',
  ];
  const sortOf = (count: number) => FIELDS.slice(0, count).join(',');

  it.each([
    { count: 1, max: 1 },
    { count: 3, max: 3 },
    { count: 10, max: 10 },
    { count: 11, max: 11 },
  ])('$count fields, at most $max: parsed', ({ count, max }) => {
    expect(parseSort(sortOf(count), mapping, tradeActivities, { maxFields: max })).toHaveLength(count);
  });

  it.each([
    { value: sortOf(2), max: 1, count: 2 },
    { value: sortOf(4), max: 3, count: 4 },
    { value: sortOf(11), max: 10, count: 11 },
    // Counted before any field is resolved: a long list of anything is refused as cheaply.
    { value: Array(201).fill('id').join(','), max: 10, count: 201 },
    { value: Array(50).fill('nope').join(','), max: 10, count: 50 },
    { value: ','.repeat(10), max: 10, count: 11 },
  ])('$count fields, at most $max: 400', ({ value, max, count }) => {
    const error = thrown(() => parseSort(value, mapping, tradeActivities, { maxFields: max }));
    expect(error.errors[0]).toMatchObject({
      status: '400',
      title: 'Invalid query parameter',
      source: { parameter: 'sort' },
    });
    expect(error.errors[0]!.detail).toBe(`sort names ${count} fields; at most ${max} are allowed.`);
  });

  it('without a limit, the count is not bounded (planRequest always passes one)', () => {
    expect(parseSort(sortOf(11), mapping, tradeActivities)).toHaveLength(11);
  });
});

describe('parseSort: a field named twice', () => {
  it.each([
    { input: 'id,id', detail: "sort names the field 'id' twice ('id' and 'id'); name each field at most once." },
    { input: 'id,-id', detail: "sort names the field 'id' twice ('id' and '-id')" },
    {
      input: '-financial-year,financial-year',
      detail: "the field 'financial-year' twice ('-financial-year' and 'financial-year')",
    },
    { input: 'financial-year,id,-financial-year', detail: "'financial-year' twice" },
    { input: 'concerns.label,-concerns.label', detail: "'concerns.label' twice" },
    { input: 'origin.country.name,amount.value,origin.country.name', detail: "'origin.country.name' twice" },
  ])('$input → 400', ({ input, detail }) => {
    const error = thrown(() => parseSort(input, mapping, tradeActivities, { maxFields: 10 }));
    expect(error.errors[0]).toMatchObject({ status: '400', source: { parameter: 'sort' } });
    expect(error.errors[0]!.detail).toContain(detail);
  });

  it.each([
    ['concerns.label,concerns.notation', 2],
    ['origin.country.name,destination.country.name', 2],
    ['id,financial-year', 1],
  ])('%s names different fields: parsed (%i keys kept)', (input, kept) => {
    expect(parseSort(input, mapping, tradeActivities, { maxFields: 10 })).toHaveLength(kept);
  });
});
