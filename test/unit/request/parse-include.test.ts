import { beforeAll, describe, expect, it } from 'vitest';
import { JsonApiError } from '../../../src/errors/json-api-error.js';
import { loadMapping } from '../../../src/mapping/load-mapping.js';
import type { Mapping, ResourceType } from '../../../src/mapping/model.js';
import { DEFAULT_INCLUDE_DEPTH, type IncludeNode, parseInclude } from '../../../src/request/parse-include.js';
import { thrown as thrownError } from '../../support/thrown.js';

let mapping: Mapping;
let tradeActivities: ResourceType;

beforeAll(async () => {
  mapping = await loadMapping('mappings/sample.yaml');
  tradeActivities = mapping.types.get('trade-activities')!;
});

/** A tree reduced to names: `{ 'concerns (concepts)': { 'broader-concepts (concepts)': {} } }`. */
type Summary = { [node: string]: Summary };
function summary(nodes: readonly IncludeNode[]): Summary {
  return Object.fromEntries(nodes.map((n) => [`${n.relationship.name} (${n.type.name})`, summary(n.children)]));
}
const tree = (value: string, type = tradeActivities, depth = DEFAULT_INCLUDE_DEPTH) =>
  summary(parseInclude(value, mapping, type, depth));
const thrown = (fn: () => unknown) => thrownError(JsonApiError, fn);

describe('parseInclude: accepted values', () => {
  it.each([
    { input: '', expected: {} },
    { input: 'concerns', expected: { 'concerns (concepts)': {} } },
    {
      input: 'origin,destination',
      expected: { 'origin (group-national-agents)': {}, 'destination (group-national-agents)': {} },
    },
    { input: 'concerns.broader-concepts', expected: { 'concerns (concepts)': { 'broader-concepts (concepts)': {} } } },
    {
      input: 'concerns.broader-concepts.broader-concepts',
      expected: { 'concerns (concepts)': { 'broader-concepts (concepts)': { 'broader-concepts (concepts)': {} } } },
    },
    { input: 'origin.country', expected: { 'origin (group-national-agents)': { 'country (countries)': {} } } },
    // Shared prefixes merge, whatever the order; a path given twice is included once.
    {
      input: 'concerns,concerns.broader-concepts',
      expected: { 'concerns (concepts)': { 'broader-concepts (concepts)': {} } },
    },
    {
      input: 'concerns.broader-concepts,concerns',
      expected: { 'concerns (concepts)': { 'broader-concepts (concepts)': {} } },
    },
    { input: 'concerns,concerns', expected: { 'concerns (concepts)': {} } },
    {
      input: 'concerns.broader-concepts,concerns.narrower-concepts,origin.country,destination.country',
      expected: {
        'concerns (concepts)': { 'broader-concepts (concepts)': {}, 'narrower-concepts (concepts)': {} },
        'origin (group-national-agents)': { 'country (countries)': {} },
        'destination (group-national-agents)': { 'country (countries)': {} },
      },
    },
    // Inverse relationships are relationships like any other.
    {
      input: 'concerns.narrower-concepts',
      expected: { 'concerns (concepts)': { 'narrower-concepts (concepts)': {} } },
    },
  ])('$input', ({ input, expected }) => {
    expect(tree(input)).toEqual(expected);
  });

  it('keeps the order of the paths as given', () => {
    expect(Object.keys(tree('amount,concerns,origin'))).toEqual([
      'amount (amounts)',
      'concerns (concepts)',
      'origin (group-national-agents)',
    ]);
  });

  it('resolves nodes to the relationships and types of the mapping', () => {
    const [concerns] = parseInclude('concerns.broader-concepts', mapping, tradeActivities, 3);
    const concepts = mapping.types.get('concepts')!;
    expect(concerns!.relationship).toBe(tradeActivities.relationships.get('concerns'));
    expect(concerns!.type).toBe(concepts);
    expect(concerns!.children[0]!.relationship).toBe(concepts.relationships.get('broader-concepts'));
  });

  it('starts from the type it is given (a related URL starts from the target type)', () => {
    expect(tree('broader-concepts.concept-scheme', mapping.types.get('concepts')!)).toEqual({
      'broader-concepts (concepts)': { 'concept-scheme (concept-schemes)': {} },
    });
  });

  it('accepts paths up to the depth it is given', () => {
    const four = 'concerns.broader-concepts.broader-concepts.broader-concepts';
    expect(Object.keys(tree(four, tradeActivities, 4))).toEqual(['concerns (concepts)']);
    expect(tree('concerns', tradeActivities, 1)).toEqual({ 'concerns (concepts)': {} });
  });
});

describe('parseInclude: rejected values', () => {
  const RELATIONSHIPS = /Relationships: concerns, origin, destination, amount\./;
  it.each([
    { input: 'nope', detail: [/Cannot include 'nope'/, /trade-activities has no relationship 'nope'/, RELATIONSHIPS] },
    { input: 'financial-year', detail: [/trade-activities has no relationship 'financial-year'/, RELATIONSHIPS] },
    { input: 'Concerns', detail: [/has no relationship 'Concerns'/] },
    {
      input: 'concerns.nope',
      detail: [
        /Cannot include 'concerns\.nope'/,
        /concepts has no relationship 'nope'/,
        /Relationships: broader-concepts, narrower-concepts, concept-scheme, top-concept-of\./,
      ],
    },
    { input: 'origin.country.nope', detail: [/countries has no relationship 'nope'/, /Relationships: none\./] },
    { input: 'concerns,nope', detail: [/Cannot include 'nope'/] },
    { input: 'amount.value', detail: [/amounts has no relationship 'value'/] },
    {
      input: ',',
      detail: [/empty relationship name/, /Relationships of trade-activities: concerns, origin, destination, amount\./],
    },
    { input: 'concerns,', detail: [/The include list 'concerns,' has an empty relationship name/] },
    { input: 'concerns.', detail: [/empty relationship name/] },
    { input: '.concerns', detail: [/empty relationship name/] },
    {
      input: 'concerns..broader-concepts',
      detail: [/empty relationship name/, /Relationships of concepts: broader-concepts,/],
    },
    {
      input: 'concerns.broader-concepts.broader-concepts.broader-concepts',
      detail: [/follows 4 relationships; include paths may follow at most 3\./],
    },
    {
      input: 'origin,concerns.broader-concepts.broader-concepts.broader-concepts.broader-concepts',
      detail: [/follows 5 relationships/],
    },
  ])('$input → 400', ({ input, detail }) => {
    const error = thrown(() => parseInclude(input, mapping, tradeActivities, DEFAULT_INCLUDE_DEPTH));
    expect(error.status).toBe(400);
    expect(error.errors).toHaveLength(1);
    const [object] = error.errors;
    expect(object).toMatchObject({ status: '400', title: 'Invalid query parameter', source: { parameter: 'include' } });
    for (const pattern of detail) expect(object!.detail).toMatch(pattern);
  });

  it('the depth limit is the one it is given', () => {
    const error = thrown(() => parseInclude('origin.country', mapping, tradeActivities, 1));
    expect(error.errors[0]!.detail).toMatch(
      /'origin\.country' follows 2 relationships; include paths may follow at most 1\./,
    );
  });
});
