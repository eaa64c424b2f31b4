import { beforeAll, describe, expect, it } from 'vitest';
import { JsonApiError } from '../../../src/errors/json-api-error.js';
import { loadMapping } from '../../../src/mapping/load-mapping.js';
import type { Mapping } from '../../../src/mapping/model.js';
import { parseFields } from '../../../src/request/parse-fields.js';
import { parseQuery } from '../../../src/request/parse-query.js';
import { thrown as thrownError } from '../../support/thrown.js';

let mapping: Mapping;

beforeAll(async () => {
  mapping = await loadMapping('mappings/sample.yaml');
});

/** Parses `fields[…]` parameters from a query string, as the server does, into type → sorted fields. */
function fieldsets(query: string): Record<string, string[]> {
  const parsed = parseFields(parseQuery(query).fields, mapping);
  return Object.fromEntries([...parsed].map(([type, fields]) => [type, [...fields].sort()]));
}
const thrown = (fn: () => unknown) => thrownError(JsonApiError, fn);

describe('parseFields: accepted values', () => {
  it.each([
    { input: '', expected: {} },
    { input: 'fields[concepts]=label', expected: { concepts: ['label'] } },
    { input: 'fields[concepts]=label,notation', expected: { concepts: ['label', 'notation'] } },
    // Relationships are fields too.
    { input: 'fields[concepts]=label,broader-concepts', expected: { concepts: ['broader-concepts', 'label'] } },
    { input: 'fields[group-national-agents]=country', expected: { 'group-national-agents': ['country'] } },
    // An empty value means no field at all.
    { input: 'fields[concepts]=', expected: { concepts: [] } },
    { input: 'fields%5Bconcepts%5D=notation', expected: { concepts: ['notation'] } },
    { input: 'fields[concepts]=label,label', expected: { concepts: ['label'] } },
    {
      input: 'fields[trade-activities]=financial-year,concerns&fields[concepts]=label',
      expected: { 'trade-activities': ['concerns', 'financial-year'], concepts: ['label'] },
    },
  ])('$input', ({ input, expected }) => {
    expect(fieldsets(input)).toEqual(expected);
  });
});

describe('parseFields: rejected values', () => {
  const CONCEPT_FIELDS =
    /Fields: notation, label, broader-concepts, narrower-concepts, concept-scheme, top-concept-of\./;
  it.each([
    {
      input: 'fields[nope]=label',
      parameter: 'fields[nope]',
      detail: [/There is no resource type 'nope'/, /Types: trade-activities, amounts,/],
    },
    { input: 'fields[Concepts]=label', parameter: 'fields[Concepts]', detail: [/no resource type 'Concepts'/] },
    {
      input: 'fields[concepts]=nope',
      parameter: 'fields[concepts]',
      detail: [/concepts has no field 'nope'/, CONCEPT_FIELDS],
    },
    { input: 'fields[concepts]=label,nope', parameter: 'fields[concepts]', detail: [/has no field 'nope'/] },
    // id and type identify a resource; they are not fields.
    { input: 'fields[concepts]=id', parameter: 'fields[concepts]', detail: [/has no field 'id'/] },
    { input: 'fields[concepts]=type', parameter: 'fields[concepts]', detail: [/has no field 'type'/] },
    // A field of another type.
    {
      input: 'fields[concepts]=financial-year',
      parameter: 'fields[concepts]',
      detail: [/concepts has no field 'financial-year'/],
    },
    {
      input: 'fields[concepts]=label,',
      parameter: 'fields[concepts]',
      detail: [/'label,' has an empty field name/, /empty value for none/, CONCEPT_FIELDS],
    },
    { input: 'fields[concepts]=,', parameter: 'fields[concepts]', detail: [/empty field name/] },
    { input: 'fields[concepts]= label', parameter: 'fields[concepts]', detail: [/has no field ' label'/] },
    {
      input: 'fields[group-national-agents]=name',
      parameter: 'fields[group-national-agents]',
      detail: [/Fields: country\./],
    },
    // The first bad parameter is the one named.
    {
      input: 'fields[concepts]=label&fields[countries]=nope',
      parameter: 'fields[countries]',
      detail: [/countries has no field 'nope'/, /Fields: iso-code, name\./],
    },
  ])('$input → 400 naming $parameter', ({ input, parameter, detail }) => {
    const error = thrown(() => fieldsets(input));
    expect(error.status).toBe(400);
    expect(error.errors).toHaveLength(1);
    const [object] = error.errors;
    expect(object).toMatchObject({ status: '400', title: 'Invalid query parameter', source: { parameter } });
    for (const pattern of detail) expect(object!.detail).toMatch(pattern);
  });
});
