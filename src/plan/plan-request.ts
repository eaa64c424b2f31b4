import { badParameter, notFound } from '../errors/json-api-error.js';
import { idToLookup, type IdLookup } from '../mapping/ids.js';
import type { Mapping, ResourceType } from '../mapping/model.js';
import { parseSort } from '../request/parse-sort.js';
import type { QueryParameters } from '../request/parse-query.js';
import type { Route } from '../request/parse-path.js';
import type { ListRequest } from '../sparql/list-query.js';

/**
 * What a request asks of the store, resolved against the mapping; no I/O.
 * - `collection`: an ordered list of resources (a type's collection, or a to-many related URL)
 * - `resource`: one resource by id
 * - `related-one`: the resource a to-one relationship points at, or null
 * - `linkage`: the resource identifiers a relationship points at
 */
export type Plan =
  | { readonly kind: 'collection'; readonly list: ListRequest }
  | { readonly kind: 'resource'; readonly type: ResourceType; readonly id: string; readonly lookup: IdLookup }
  | { readonly kind: 'related-one'; readonly list: ListRequest }
  | { readonly kind: 'linkage'; readonly list: ListRequest; readonly toMany: boolean };

/**
 * Resolves a route and its query parameters against a mapping. Unknown names and ids that can't
 * be ids of their type are 404s here, before any query is built.
 *
 * @example planRequest(mapping, parsePath('/trade-activities'), { sort: '-financial-year' })
 */
export function planRequest(mapping: Mapping, route: Route, query: QueryParameters): Plan {
  const type = mapping.types.get(route.type);
  if (!type) throw notFound(`There is no resource type '${route.type}'. Types: ${[...mapping.types.keys()].join(', ')}.`);
  if (route.id === undefined) return { kind: 'collection', list: { type, sort: sortOf(mapping, type, query) } };
  const lookup = idToLookup(type.id, route.id);
  if (!lookup) throw notFound(`There is no ${type.name} with id '${route.id}'.`);
  if (route.relationship === undefined) {
    noSort(query, 'a single resource');
    return { kind: 'resource', type, id: route.id, lookup };
  }
  const relationship = type.relationships.get(route.relationship);
  if (!relationship) {
    throw notFound(`${type.name} has no relationship '${route.relationship}'. Relationships: ${[...type.relationships.keys()].join(', ') || 'none'}.`);
  }
  const target = mapping.types.get(relationship.target)!;
  const parent = { type, lookup, relationship };
  const toMany = relationship.cardinality === 'many';
  if (!toMany) noSort(query, 'a to-one relationship');
  const list: ListRequest = { type: target, parent, sort: toMany ? sortOf(mapping, target, query) : [] };
  if (route.linkage) return { kind: 'linkage', list, toMany };
  return toMany ? { kind: 'collection', list } : { kind: 'related-one', list };
}

function sortOf(mapping: Mapping, type: ResourceType, query: QueryParameters) {
  if (query.sort !== undefined) return parseSort(query.sort, mapping, type);
  return type.defaultSort.length > 0 ? parseSort(type.defaultSort.join(','), mapping, type) : [];
}

function noSort(query: QueryParameters, what: string): void {
  if (query.sort !== undefined) throw badParameter('sort', `sort applies to collections; this URL answers with ${what}.`);
}
