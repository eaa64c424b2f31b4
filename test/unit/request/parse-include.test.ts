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
  summary(parseInclude(value, mapping, type, { maxDepth: depth }));
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
    const [concerns] = parseInclude('concerns.broader-concepts', mapping, tradeActivities, { maxDepth: 3 });
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
    const error = thrown(() => parseInclude(input, mapping, tradeActivities, { maxDepth: DEFAULT_INCLUDE_DEPTH }));
    expect(error.status).toBe(400);
    expect(error.errors).toHaveLength(1);
    const [object] = error.errors;
    expect(object).toMatchObject({ status: '400', title: 'Invalid query parameter', source: { parameter: 'include' } });
    for (const pattern of detail) expect(object!.detail).toMatch(pattern);
  });

  it('the depth limit is the one it is given', () => {
    const error = thrown(() => parseInclude('origin.country', mapping, tradeActivities, { maxDepth: 1 }));
    expect(error.errors[0]!.detail).toMatch(
      /'origin\.country' follows 2 relationships; include paths may follow at most 1\./,
    );
  });
});

describe('parseInclude: how many paths', () => {
  /** Every path of concepts up to three relationships, from the mapping: many more than 21. */
  function allPaths(type: ResourceType, depth: number): string[] {
    if (depth === 0) return [];
    return [...type.relationships.values()].flatMap((relationship) => {
      const target = mapping.types.get(relationship.target)!;
      return [relationship.name, ...allPaths(target, depth - 1).map((rest) => `${relationship.name}.${rest}`)];
    });
  }
  /** Paths none of which is a prefix of another: each one counts. */
  const leaves = () => {
    const paths = allPaths(concepts(), 3);
    return paths.filter((path) => !paths.some((other) => other.startsWith(`${path}.`)));
  };
  const listOf = (count: number) => leaves().slice(0, count).join(',');
  const concepts = () => mapping.types.get('concepts')!;
  const parse = (value: string, max: number) =>
    parseInclude(value, mapping, concepts(), { maxDepth: 3, maxPaths: max });
  const countLeaves = (nodes: readonly IncludeNode[]): number =>
    nodes.reduce((sum, node) => sum + (node.children.length === 0 ? 1 : countLeaves(node.children)), 0);

  it('has enough distinct paths to test with', () => {
    expect(leaves().length).toBeGreaterThan(21);
  });

  it.each([
    { value: () => listOf(1), max: 1, paths: 1 },
    { value: () => listOf(3), max: 3, paths: 3 },
    { value: () => listOf(20), max: 20, paths: 20 },
    // Shared prefixes merge, and a path given twice is one.
    {
      value: () => 'broader-concepts,broader-concepts.concept-scheme,broader-concepts.concept-scheme',
      max: 1,
      paths: 1,
    },
    { value: () => Array(100).fill('concept-scheme').join(','), max: 1, paths: 1 },
    {
      value: () => 'broader-concepts,narrower-concepts,narrower-concepts.concept-scheme,concept-scheme',
      max: 3,
      paths: 3,
    },
    { value: () => '', max: 0, paths: 0 },
  ])('$paths paths, at most $max: parsed', ({ value, max, paths }) => {
    expect(countLeaves(parse(value(), max))).toBe(paths);
  });

  it.each([
    { value: () => listOf(2), max: 1, paths: 2 },
    { value: () => listOf(4), max: 3, paths: 4 },
    { value: () => listOf(21), max: 20, paths: 21 },
    {
      value: () => 'broader-concepts.broader-concepts,broader-concepts.narrower-concepts,concept-scheme,top-concept-of',
      max: 3,
      paths: 4,
    },
  ])('$paths paths, at most $max: 400', ({ value, max, paths }) => {
    const error = thrown(() => parse(value(), max));
    expect(error.errors[0]).toMatchObject({
      status: '400',
      title: 'Invalid query parameter',
      source: { parameter: 'include' },
    });
    expect(error.errors[0]!.detail).toBe(
      `include names ${paths} paths (once shared prefixes are merged); at most ${max} are allowed.`,
    );
  });

  it('without a limit, the count is not bounded (planRequest always passes one)', () => {
    expect(countLeaves(parseInclude(listOf(21), mapping, concepts(), { maxDepth: 3 }))).toBe(21);
  });
});
