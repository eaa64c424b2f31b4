import { badParameter, notFound } from '../errors/json-api-error.js';
import { resolveId } from '../mapping/ids.js';
import type { Mapping, ResourceType } from '../mapping/model.js';
import { decodeCursor } from '../request/cursor.js';
import { CURSOR_PAGINATION_PROFILE } from '../request/media-types.js';
import { parseFields } from '../request/parse-fields.js';
import { parseFilter } from '../request/parse-filter.js';
import { parseInclude } from '../request/parse-include.js';
import { parsePage } from '../request/parse-page.js';
import type { Route } from '../request/parse-path.js';
import type { QueryParameters } from '../request/parse-query.js';
import { parseSort } from '../request/parse-sort.js';
import type { ListRequest, Paging, Plan, PlanOptions, View } from './plan.js';

/** What the client asked: the route, its query parameters, and the profiles it named in Accept. */
export interface RequestToPlan {
  readonly route: Route;
  readonly query: QueryParameters;
  /** The cursor pagination profile turns offset pages into cursor pages; none when absent. */
  readonly profiles?: readonly string[];
}

/**
 * Resolves a request against a mapping. Unknown names, ids that can't be ids of their type, bad
 * parameter values and requests past `options.limits` (sort fields, filters, include paths) are
 * 404s and 400s here, before any query is built.
 *
 * @example planRequest(mapping, { route: parsePath('/trade-activities'), query: parseQuery('sort=-financial-year') }, DEFAULT_DATASET_OPTIONS)
 */
export function planRequest(mapping: Mapping, request: RequestToPlan, options: PlanOptions): Plan {
  const { route, query, profiles = [] } = request;
  const type = mapping.types.get(route.type);
  if (!type)
    throw notFound(`There is no resource type '${route.type}'. Types: ${[...mapping.types.keys()].join(', ')}.`);
  const pagingOf = (list: ListRequest): Paging => paging(query, options, list, profiles);
  if (route.id === undefined) {
    const list = listOf(mapping, type, query, options);
    return { kind: 'collection', list, paging: pagingOf(list), view: viewOf(mapping, type, query, options) };
  }
  const lookup = resolveId(type.id, route.id);
  if (lookup.kind === 'refused') throw notFound(`There is no ${type.name} with id '${route.id}': ${lookup.detail}.`);
  if (route.relationship === undefined) {
    onlyForLists(query, 'a single resource');
    return { kind: 'resource', type, id: route.id, lookup, view: viewOf(mapping, type, query, options) };
  }
  const relationship = type.relationships.get(route.relationship);
  if (!relationship) {
    throw notFound(
      `${type.name} has no relationship '${route.relationship}'. Relationships: ${[...type.relationships.keys()].join(', ') || 'none'}.`,
    );
  }
  const target = mapping.types.get(relationship.target)!;
  const parent = { type, lookup, relationship };
  const toMany = relationship.cardinality === 'many';
  if (!toMany) onlyForLists(query, 'a to-one relationship');
  const list: ListRequest = toMany
    ? { ...listOf(mapping, target, query, options), parent }
    : { type: target, parent, sort: [], filters: [] };
  if (route.linkage) {
    onlyForDocuments(query);
    return { kind: 'linkage', list, toMany, ...(toMany && { paging: pagingOf(list) }) };
  }
  const view = viewOf(mapping, target, query, options);
  return toMany ? { kind: 'collection', list, paging: pagingOf(list), view } : { kind: 'related-one', list, view };
}

/** The list a collection URL reads: its type, its `sort` (or the type's default) and its filters. */
function listOf(mapping: Mapping, type: ResourceType, query: QueryParameters, options: PlanOptions): ListRequest {
  const { limits, filterSyntax } = options;
  const sort =
    query.sort === undefined
      ? type.defaultSort
      : parseSort(query.sort, mapping, type, { maxFields: limits.sortFields });
  return {
    type,
    sort,
    filters: parseFilter(query.filter, mapping, type, { maxFilters: limits.filters, syntax: filterSyntax }),
  };
}

/** The page a list request asks for; a cursor page when the client named the cursor pagination profile. */
function paging(query: QueryParameters, options: PlanOptions, list: ListRequest, profiles: readonly string[]): Paging {
  const page = parsePage(query.page, options.page, { cursorProfile: profiles.includes(CURSOR_PAGINATION_PROFILE) });
  if (page.kind === 'offset') return { page, count: options.count };
  return {
    page,
    count: options.count,
    ...(page.after !== undefined && { after: decodeCursor(page.after, 'page[after]', list) }),
    ...(page.before !== undefined && { before: decodeCursor(page.before, 'page[before]', list) }),
  };
}

/** How the resources are shown: the `include` tree (when asked) and the fieldsets. */
function viewOf(mapping: Mapping, type: ResourceType, query: QueryParameters, options: PlanOptions): View {
  return {
    ...(query.include !== undefined && {
      include: parseInclude(query.include, mapping, type, {
        maxDepth: options.includeDepth,
        maxPaths: options.limits.includePaths,
      }),
      maxIncluded: options.limits.included,
    }),
    fields: parseFields(query.fields, mapping),
  };
}

/** `sort`, `page` and `filter` shape lists; on a URL that answers with one resource they are a 400. */
function onlyForLists(query: QueryParameters, what: string): void {
  const name = query.sort !== undefined ? 'sort' : (query.page[0] ?? query.filter[0])?.name;
  if (name !== undefined)
    throw badParameter(name, `${name.replace(/\[.*$/, '')} applies to collections; this URL answers with ${what}.`);
}

/** `include` and `fields` shape resource documents; on a relationship URL, which answers with identifiers, they are a 400. */
function onlyForDocuments(query: QueryParameters): void {
  const name = query.include !== undefined ? 'include' : query.fields[0]?.name;
  if (name !== undefined)
    throw badParameter(
      name,
      `A relationship URL answers with resource identifiers only; ${name.replace(/\[.*$/, '')} applies to resource documents.`,
    );
}
