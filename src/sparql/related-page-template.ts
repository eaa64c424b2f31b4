import { LRUCache } from 'lru-cache';
import type { SelectQuery } from 'sparqljs';
import type { IdLookup } from '../mapping/ids.js';
import type { Attribute, Mapping, ResourceType } from '../mapping/model.js';
import type { ListRequest, Window } from '../plan/plan.js';
import { buildRelatedPageQuery } from './list-query.js';
import { QueryTemplate } from './query-template.js';
import type { FilledQuery } from './to-text.js';

/**
 * Each parent type's related-page templates, by the page's shape (`relatedPageQuery`); `null` for
 * a shape that has no related-page query. Page sizes, offsets and fieldsets make many shapes
 * possible: the most recently used are kept.
 */
const templates = new WeakMap<ResourceType, LRUCache<string, { template: QueryTemplate | null }>>();
const TEMPLATES_PER_TYPE = 64;

/**
 * {@link buildRelatedPageQuery}'s query from a template of the page's shape (the relationship,
 * how the parent is looked up, the sort, the window, the attributes), with the parent's IRI or id
 * slotted in (`query-template.ts`): a related page's text is written once per shape, not per
 * request. A list with filters (whose values the template would have to hold) is built whole.
 * `undefined` where buildRelatedPageQuery gives none.
 *
 * @example relatedPageQuery(mapping, { type: concepts, parent, sort: concepts.defaultSort, filters: [] }, { limit: 20, offset: 0 }, [notation, label])
 */
export function relatedPageQuery(
  mapping: Mapping,
  request: ListRequest,
  window: Window,
  attributes: readonly Attribute[],
): SelectQuery | FilledQuery | undefined {
  const { parent } = request;
  if (!parent || request.filters.length > 0) return buildRelatedPageQuery(mapping, request, window, attributes);
  const key = JSON.stringify([
    parent.relationship.name,
    parent.lookup.kind,
    request.sort.map((k) => [k.field, k.descending]),
    window.limit,
    window.offset,
    attributes.map((a) => a.name),
  ]);
  let byShape = templates.get(parent.type);
  if (!byShape) templates.set(parent.type, (byShape = new LRUCache({ max: TEMPLATES_PER_TYPE })));
  let entry = byShape.get(key);
  if (!entry) {
    const lookup = (value: string): IdLookup =>
      parent.lookup.kind === 'iri' ? { kind: 'iri', iri: value } : { kind: 'literal', value };
    const build = ([value]: readonly string[]) =>
      buildRelatedPageQuery(mapping, { ...request, parent: { ...parent, lookup: lookup(value!) } }, window, attributes);
    entry = { template: build(['']) ? new QueryTemplate((values) => build(values)!) : null };
    byShape.set(key, entry);
  }
  const value = parent.lookup.kind === 'iri' ? parent.lookup.iri : parent.lookup.value;
  return entry.template?.fill([value]);
}
