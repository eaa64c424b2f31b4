import type { Mapping, ResourceType } from '../mapping/model.js';
import { MAX_HOPS } from '../mapping/resolve-path.js';
import type { PlanOptions } from '../plan/plan.js';
import { comparisonOf } from '../request/filter-values.js';
import { CURSOR_PAGINATION_PROFILE } from '../request/media-types.js';
import { FILTER_OPERATORS, type FilterOperator, operatorsFor } from '../request/parse-filter.js';
import { type Chain, chains, includePaths, MAX_ENUMERATED, sortFields } from './field-paths.js';
import { FIELDS, fieldsParameter } from './fields-parameter.js';
import { type Json, names, ref } from './json-schema.js';

/** A JSON:API member name, and a dot path of up to `hops + 1` of them. */
const MEMBER = '[a-zA-Z0-9](?:[a-zA-Z0-9_-]*[a-zA-Z0-9])?';
const dotPath = (segments: number) => `${MEMBER}(?:\\.${MEMBER}){0,${segments - 1}}`;

/** Shared parameter components: the `page[…]` family and If-None-Match. */
export const PAGE_PARAMETERS = [
  'page.number',
  'page.size',
  'page.offset',
  'page.limit',
  'page.after',
  'page.before',
] as const;

/**
 * The page family, If-None-Match, `fields`, and per type: sort, include, filter; with the
 * schemas of filter values they share (one per kind of comparison: `filter.text`, `filter.date`…).
 *
 * @example parameterComponents(mapping, DEFAULT_DATASET_OPTIONS).parameters['concepts.sort']
 */
export function parameterComponents(
  mapping: Mapping,
  options: PlanOptions,
): { parameters: Record<string, Json>; schemas: Record<string, Json> } {
  const schemas: Record<string, Json> = {};
  const { defaultSize, maxSize } = options.page;
  const query = (name: string, description: string, schema: Json): Json => ({ name, in: 'query', description, schema });
  const components: Record<string, Json> = {
    'page.number': query(
      'page[number]',
      'Offset pagination: the page, counted from 0 (as mu-cl-resources does). Not with page[after] or page[before]. With the cursor pagination profile in Accept, a jump: a cursor page that starts after this many pages.',
      { type: 'integer', minimum: 0, default: 0 },
    ),
    'page.size': query(
      'page[size]',
      `Resources per page: ${defaultSize} by default (the maximum, ${maxSize}, for a range of page[after] and page[before]). Past the maximum: 400 with meta.page.maxSize.`,
      { type: 'integer', minimum: 1, maximum: maxSize, default: defaultSize },
    ),
    'page.offset': query(
      'page[offset]',
      'Offset pagination as JSON:API recommends it: the resources to skip, from 0 by default (any number, not only multiples of page[limit]). Not with page[number], page[size], page[after], page[before] or the cursor pagination profile. Links keep this form.',
      // No `default` here nor on page[limit]: the docs page's client fills in every default, and
      // page[number]'s and page[offset]'s together are a request the server refuses as mixed.
      { type: 'integer', minimum: 0 },
    ),
    'page.limit': query(
      'page[limit]',
      `Resources per page, with page[offset]: as page[size] (default ${defaultSize}, at most ${maxSize}).`,
      { type: 'integer', minimum: 1, maximum: maxSize },
    ),
    'page.after': query(
      'page[after]',
      `Cursor pagination (${CURSOR_PAGINATION_PROFILE}): the page right after the resource of this cursor (an item's meta.page.cursor, or a next link's). Cursors are opaque, and work only with the type and sort they were made for.`,
      { type: 'string', minLength: 1 },
    ),
    'page.before': query(
      'page[before]',
      'Cursor pagination: the page that ends right before the resource of this cursor. With page[after]: the range between the two.',
      { type: 'string', minLength: 1 },
    ),
    'if-none-match': {
      name: 'If-None-Match',
      in: 'header',
      description: 'An ETag this client holds: when it still matches, the answer is 304 with no body.',
      schema: { type: 'string' },
    },
  };
  components[FIELDS] = fieldsParameter(mapping);
  for (const type of mapping.types.values()) {
    components[names.sort(type.name)] = sortParameter(mapping, type, options);
    components[names.include(type.name)] = includeParameter(mapping, type, options);
    components[names.filter(type.name)] = filterParameter(mapping, type, options, schemas);
  }
  return { parameters: components, schemas };
}

function sortParameter(mapping: Mapping, type: ResourceType, options: PlanOptions): Json {
  const fields = sortFields(mapping, type);
  const byDefault = type.defaultSort.map((k) => (k.descending ? `-${k.field}` : k.field)).join(',') || 'id';
  return {
    name: 'sort',
    in: 'query',
    description: `Comma-separated fields, applied in order; a leading - sorts descending. Fields: id, an attribute, or a dot path through up to ${MAX_HOPS} relationships to an attribute. Ties go to the id; missing values come last in both directions. Default: ${byDefault}. At most ${options.limits.sortFields} fields, each once.`,
    style: 'form',
    explode: false,
    schema: {
      type: 'array',
      minItems: 1,
      maxItems: options.limits.sortFields,
      items: fields
        ? { type: 'string', enum: fields.flatMap((f) => [f, `-${f}`]) }
        : { type: 'string', pattern: `^-?(?:id|${dotPath(MAX_HOPS + 1)})$` },
    },
  };
}

function includeParameter(mapping: Mapping, type: ResourceType, options: PlanOptions): Json {
  const paths = includePaths(mapping, type, options.includeDepth);
  const relationships = [...type.relationships.keys()];
  return {
    name: 'include',
    in: 'query',
    description: `Related resources to include (a compound document): comma-separated paths of relationships joined by dots, at most ${options.includeDepth} relationships each, ${options.limits.includePaths} paths, ${options.limits.included} included resources. Empty: include nothing (included is []). Relationships of ${type.name}: ${relationships.join(', ') || 'none'}.`,
    style: 'form',
    explode: false,
    schema:
      relationships.length === 0 || options.includeDepth === 0
        ? { type: 'array', items: { type: 'string' }, maxItems: 0 }
        : {
            type: 'array',
            items: paths
              ? { type: 'string', enum: paths }
              : { type: 'string', pattern: `^${dotPath(options.includeDepth)}$` },
          },
  };
}

/**
 * `filter`, as one deepObject parameter: `filter[path]=v1,v2` (any of the values),
 * `filter[path][operator]=value`, and `filter=text` (a search of the text attributes). One parameter
 * per family rather than one per path and operator: those are hundreds, and the deepObject's
 * property names are exactly the query parameters' brackets.
 */
function filterParameter(
  mapping: Mapping,
  type: ResourceType,
  options: PlanOptions,
  schemas: Record<string, Json>,
): Json {
  const valuesOf = (kind: string, operators: readonly FilterOperator[], expected: string): Json => {
    const name = `filter.${kind}`;
    schemas[name] ??= pathSchema(operators, expected);
    return ref(name);
  };
  const found = chains(mapping, type, MAX_HOPS, MAX_ENUMERATED);
  const paths = found ? filterPaths(found) : undefined;
  const searchable = [...type.attributes.values()].filter((a) => !a.fields && comparisonOf(a).kind === 'text');
  const object: Json = paths
    ? {
        type: 'object',
        additionalProperties: false,
        properties: Object.fromEntries(paths.map((p) => [p.path, valuesOf(p.kind, p.operators, p.expected)])),
      }
    : {
        type: 'object',
        propertyNames: { pattern: `^(?:id|${dotPath(MAX_HOPS + 1)})$` },
        additionalProperties: valuesOf('any', FILTER_OPERATORS, 'as the field takes (see the description)'),
      };
  return {
    name: 'filter',
    in: 'query',
    style: 'deepObject',
    explode: true,
    description: `Keeps the resources for which every filter holds. filter[field]=v1,v2: some value equals one of them (write \\, for a comma inside a value); filter[field][operator]=value with operators ${FILTER_OPERATORS.join(', ')} (exists takes true or false). Fields: id, an attribute, a relationship (its ids), or a dot path through up to ${MAX_HOPS} relationships to either. Values are read as the field's datatype. ${searchable.length > 0 ? `filter=text searches ${searchable.map((a) => a.name).join(', ')}, ignoring case. ` : ''}At most ${options.limits.filters} filter parameters.`,
    schema:
      searchable.length > 0
        ? {
            anyOf: [
              { type: 'string', minLength: 1, description: 'filter=text: a search of the text attributes.' },
              object,
            ],
          }
        : object,
  };
}

/** Every filter path of the chains, with the operators parse-filter takes for it. */
function filterPaths(found: readonly Chain[]): FilterPathInfo[] {
  const result: FilterPathInfo[] = [];
  for (const { path, hops, end } of found) {
    const prefix = path === '' ? '' : `${path}.`;
    const ids = operatorsFor({ kind: 'ids', hops, type: end });
    if (path === '') result.push({ path: 'id', kind: 'id', operators: ids, expected: 'ids' });
    else result.push({ path, kind: 'relationship', operators: ids, expected: 'ids of the related type' });
    for (const attribute of end.attributes.values()) {
      if (attribute.fields) continue; // no order, no comparison (`mapping/resolve-path.ts`)
      const comparison = comparisonOf(attribute);
      const operators = operatorsFor({ kind: 'attribute', hops, attribute });
      result.push(
        comparison.kind === 'text'
          ? { path: prefix + attribute.name, kind: 'text', operators, expected: 'any text' }
          : {
              path: prefix + attribute.name,
              kind: comparison.datatype.replace(/^.*[#/]/, ''),
              operators,
              expected: comparison.expected,
            },
      );
    }
  }
  return result;
}

/** A filter path, the kind of its values (which names their shared schema), and its operators. */
interface FilterPathInfo {
  readonly path: string;
  readonly kind: string;
  readonly operators: readonly FilterOperator[];
  readonly expected: string;
}

/** One filter path: its values (the eq shorthand), or an object of operators. */
function pathSchema(operators: readonly FilterOperator[], expected: string): Json {
  const value = { type: 'string', description: `Values: ${expected}.` };
  return {
    anyOf: [
      value,
      {
        type: 'object',
        additionalProperties: false,
        properties: Object.fromEntries(
          operators.map((o) => [o, o === 'exists' ? { type: 'string', enum: ['true', 'false'] } : value]),
        ),
      },
    ],
  };
}
