import { badParameter } from '../errors/json-api-error.js';
import { describeIds, type IdLookup, resolveId } from '../mapping/ids.js';
import type { Attribute, Mapping, ResourceType } from '../mapping/model.js';
import { isSendableText } from '../rdf/vocabulary.js';
import { type FilterPath, filterableFields, resolveFilterPath } from './filter-path.js';
import { comparisonOf, splitValues, type TypedValue, typedValue } from './filter-values.js';
import { muFilterParameter } from './mu-filter.js';
import type { FamilyParameter, FilterSyntax } from './parse-query.js';

/** The operators of `filter[path][operator]`, in the order error details list them. */
export const FILTER_OPERATORS = ['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'contains', 'starts-with', 'exists'] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];
type AttributePath = Extract<FilterPath, { kind: 'attribute' }>;
type IdsPath = Extract<FilterPath, { kind: 'ids' }>;

/**
 * One parsed filter; every filter of a request must hold (AND). `parameter` is the query
 * parameter it came from. Over a path with several values (a `many` attribute, a to-many hop), a
 * resource matches when any value does; `ne` and `exists: false` hold when none does.
 * - `search` (`filter=text`): some text attribute contains `text`, case-insensitively
 * - `ids`: the path's ids are (`eq`) or are not (`ne`) among `lookups`; ids that can't be ids of
 *   the path's type are left out of `lookups`, so they match nothing
 * - `exists`: the path has a value (an attribute) or a related resource (a relationship), or not
 * - `text`: the path's values compared as text (`STR()`), with the operator, to any of `values`
 * - `typed`: the path's values read as `values`' datatype and compared, with the operator
 */
export type Filter =
  | {
      readonly kind: 'search';
      readonly parameter: string;
      readonly text: string;
      readonly attributes: readonly Attribute[];
    }
  | {
      readonly kind: 'ids';
      readonly parameter: string;
      readonly path: IdsPath;
      readonly operator: 'eq' | 'ne';
      readonly lookups: readonly IdLookup[];
    }
  | { readonly kind: 'exists'; readonly parameter: string; readonly path: FilterPath; readonly exists: boolean }
  | {
      readonly kind: 'text';
      readonly parameter: string;
      readonly path: AttributePath;
      readonly operator: Exclude<FilterOperator, 'exists'>;
      readonly values: readonly string[];
    }
  | {
      readonly kind: 'typed';
      readonly parameter: string;
      readonly path: AttributePath;
      readonly operator: Exclude<FilterOperator, 'exists' | 'contains' | 'starts-with'>;
      readonly values: readonly TypedValue[];
    };

const ORDER_OPERATORS: readonly FilterOperator[] = ['lt', 'lte', 'gt', 'gte'];
const LIST_HINT = String.raw`(several values are comma-separated; write \, for a comma inside a value)`;

/**
 * Parses the `filter` family against `type` (docs/api.md, "Filtering"):
 * `filter=text`, `filter[path]=v1,v2` (any of the values) and `filter[path][operator]=value`.
 * Throws a 400 naming the exact parameter for an unknown path or operator, an operator the path
 * does not take, or a value that is not one of the path's datatype. More than `maxFilters`
 * parameters are a 400 naming the first one past the limit, before any of them is parsed
 * (`planRequest` passes the dataset's `RequestLimits.filters`; without one the count is not bounded).
 * With `syntax` `mu-cl-resources`, each parameter is first read as mu-cl-resources' filter it may
 * be (`mu-filter.ts`), then parsed as the native filter it means.
 *
 * @example parseFilter(parseQuery('filter[concerns.notation]=0101').filter, mapping, tradeActivities, { maxFilters: 20 })
 */
export function parseFilter(
  parameters: readonly FamilyParameter[],
  mapping: Mapping,
  type: ResourceType,
  { maxFilters = Number.POSITIVE_INFINITY, syntax = 'json-api' }: { maxFilters?: number; syntax?: FilterSyntax } = {},
): Filter[] {
  const over = parameters.length > maxFilters ? parameters[maxFilters] : undefined;
  if (over !== undefined)
    throw badParameter(
      over.name,
      `The request has ${parameters.length} filter parameters; at most ${maxFilters} are allowed (the first past the limit: '${over.name}').`,
    );
  if (syntax === 'mu-cl-resources')
    return parameters.map((p) => parseOne(muFilterParameter(p, mapping, type, FILTER_OPERATORS), mapping, type));
  return parameters.map((parameter) => parseOne(parameter, mapping, type));
}

function parseOne(parameter: FamilyParameter, mapping: Mapping, type: ResourceType): Filter {
  const { name, members, value } = parameter;
  if (!isSendableText(value))
    throw badParameter(name, `The value of '${name}' holds the character U+0000, which no filter value may hold.`);
  if (members.length === 0) return search(name, value, type);
  const { field, operator, path } = operatorAndPath(parameter, mapping, type);
  if (operator === 'exists') {
    if (value !== 'true' && value !== 'false')
      throw badParameter(name, `'${name}' takes true or false; got '${value}'.`);
    return { kind: 'exists', parameter: name, path, exists: value === 'true' };
  }
  const values = splitValues(value);
  if (ORDER_OPERATORS.includes(operator) && values.length > 1) {
    throw badParameter(name, `'${name}' takes one value; got ${values.length} in '${value}' ${LIST_HINT}.`);
  }
  if (path.kind === 'ids') {
    const lookups = values.flatMap((id) => idLookup(name, path.type, id));
    return { kind: 'ids', parameter: name, path, operator: operator as 'eq' | 'ne', lookups };
  }
  const comparison = comparisonOf(path.attribute);
  if (comparison.kind === 'text')
    return { kind: 'text', parameter: name, path, operator: operator as Exclude<FilterOperator, 'exists'>, values };
  const typed = values.map((text) => {
    const parsed = typedValue(comparison.datatype, text);
    if (!parsed)
      throw badParameter(
        name,
        `'${text}' is not a value of '${field}' (${describe(path)}); expected ${comparison.expected}${values.length > 1 ? ` ${LIST_HINT}` : ''}.`,
      );
    return parsed;
  });
  return {
    kind: 'typed',
    parameter: name,
    path,
    operator: operator as Exclude<FilterOperator, 'exists' | 'contains' | 'starts-with'>,
    values: typed,
  };
}

/** `filter[field][operator]`'s field, resolved from `type`, and an operator it takes; anything else is a 400. */
function operatorAndPath(
  { name, members }: FamilyParameter,
  mapping: Mapping,
  type: ResourceType,
): { field: string; operator: FilterOperator; path: FilterPath } {
  const [field, operatorName = 'eq'] = members;
  if (members.length > 2 || field === '') {
    throw badParameter(
      name,
      `'${name}' is not a filter; expected filter=text, filter[field]=value or filter[field][operator]=value.`,
    );
  }
  const operator = FILTER_OPERATORS.find((o) => o === operatorName);
  if (!operator)
    throw badParameter(
      name,
      `Unknown filter operator '${operatorName}' in '${name}'; operators: ${FILTER_OPERATORS.join(', ')}.`,
    );
  const path = resolveFilterPath(mapping, type, field!);
  if (typeof path === 'string') {
    throw badParameter(
      name,
      `Cannot filter ${type.name} by '${field}': ${path}. Filterable: ${filterableFields(type).join(', ')}.`,
    );
  }
  const allowed = operatorsFor(path);
  if (!allowed.includes(operator)) {
    throw badParameter(
      name,
      `The operator '${operator}' does not apply to '${field}' (${describe(path)}); it takes: ${allowed.join(', ')}.`,
    );
  }
  return { field: field!, operator, path };
}

/**
 * An id filter value: what it stands for, or nothing when it is not of the type's id syntax (ids
 * are opaque: it matches nothing). An id of the right syntax that stands for no IRI (its hex
 * decodes to U+2028, a lone `%`…) is a 400: the client built it, and no store could take it.
 */
function idLookup(name: string, type: ResourceType, id: string): IdLookup[] {
  const resolved = resolveId(type.id, id);
  if (resolved.kind !== 'refused') return [resolved];
  if (resolved.reason === 'syntax') return [];
  throw badParameter(
    name,
    `'${id}' is not an id of ${type.name}: ${resolved.detail}; expected ${describeIds(type.id)}.`,
  );
}

/** `filter=text`: a case-insensitive search through the type's text attributes. */
function search(name: string, text: string, type: ResourceType): Filter {
  const attributes = [...type.attributes.values()].filter((a) => !a.fields && comparisonOf(a).kind === 'text');
  if (attributes.length === 0) {
    throw badParameter(
      name,
      `${type.name} has no text attributes to search; filter by a field instead (filter[field]=value). Filterable: ${filterableFields(type).join(', ')}.`,
    );
  }
  if (text === '')
    throw badParameter(
      name,
      `The search text is empty; expected filter=<text>, searched for in ${attributes.map((a) => a.name).join(', ')}.`,
    );
  return { kind: 'search', parameter: name, text, attributes };
}

/**
 * The operators a filter path takes: ids compare for equality only (and a relationship's may be
 * absent); booleans have no order; contains and starts-with read text. The OpenAPI description
 * lists them from here too, so it states exactly what this parser accepts.
 *
 * @example operatorsFor({ kind: 'ids', hops: [], type: concepts }) // ['eq', 'ne']
 */
export function operatorsFor(path: FilterPath): readonly FilterOperator[] {
  if (path.kind === 'ids') return path.hops.length === 0 ? ['eq', 'ne'] : ['eq', 'ne', 'exists'];
  const comparison = comparisonOf(path.attribute);
  if (comparison.kind === 'text') return FILTER_OPERATORS;
  return comparison.ordered ? ['eq', 'ne', ...ORDER_OPERATORS, 'exists'] : ['eq', 'ne', 'exists'];
}

function describe(path: FilterPath): string {
  if (path.kind === 'ids')
    return path.hops.length === 0 ? `the ${path.type.name} id` : `a relationship to ${path.type.name}`;
  const comparison = comparisonOf(path.attribute);
  return comparison.kind === 'text' ? 'text' : comparison.datatype.replace('http://www.w3.org/2001/XMLSchema#', 'xsd:');
}
