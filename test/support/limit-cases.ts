/*
 * Distinct parameters on `concepts` of the sample mapping, more than each default request limit
 * allows (10 sort fields, 20 filters): the limit suites take the first n of them.
 */

/** Sort fields of concepts, each path once (so no list of them names a field twice). */
export const CONCEPT_SORT_FIELDS: readonly string[] = [
  'id',
  'notation',
  '-label',
  'broader-concepts.label',
  'broader-concepts.notation',
  'narrower-concepts.label',
  '-narrower-concepts.notation',
  'concept-scheme.label',
  'top-concept-of.label',
  'broader-concepts.broader-concepts.label',
  'narrower-concepts.narrower-concepts.label',
];

/** Filter parameter names on concepts, each once. */
export const CONCEPT_FILTERS: readonly string[] = [
  'filter',
  ...['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'contains'].flatMap((op) => [
    `filter[label][${op}]`,
    `filter[notation][${op}]`,
    `filter[broader-concepts.label][${op}]`,
  ]),
];
