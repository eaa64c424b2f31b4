import type { SelectQuery } from 'sparqljs';
import type { IdLookup } from '../mapping/ids.js';
import type { Attribute, Mapping } from '../mapping/model.js';
import type { ListRequest, Window } from '../plan/plan.js';
import { sortSignature } from '../request/parse-sort.js';
import type { ListShape } from './list-query.js';
import { buildRelatedPageQuery, LIST_QUERIES } from './list-shapes.js';
import { QueryTemplate } from './query-template.js';
import type { TemplateMemo } from './template-memo.js';
import type { FilledQuery } from './to-text.js';

/**
 * Each parent type's templates of related lists, by the query's shape; `null` for a shape that
 * has no such query. Page sizes, offsets, sorts and fieldsets make many shapes possible: the most
 * recently used are kept.
 */
const RELATED_TEMPLATES = { name: 'related', max: 64 } as const;

/**
 * {@link buildRelatedPageQuery}'s query (the first page of a related list with its members'
 * values) from a template of the page's shape, the parent's IRI or id slotted in.
 *
 * @example relatedPageQuery(mapping, { type: concepts, parent, sort: concepts.defaultSort, filters: [] }, { window: { limit: 20, offset: 0 }, attributes: [notation, label] })
 */
export function relatedPageQuery(
  mapping: Mapping,
  request: ListRequest,
  { window, attributes, memo }: { window: Window; attributes: readonly Attribute[]; memo?: TemplateMemo | undefined },
): SelectQuery | FilledQuery | undefined {
  const names = attributes.map((a) => a.name);
  const build = (r: ListRequest) => buildRelatedPageQuery(mapping, r, window, attributes);
  return withParentSlot(request, { shape: ['page', window, names], build, memo });
}

/**
 * A window of a related list (a relationship's linkage, a later page) in the planner's `shape`
 * ({@link LIST_QUERIES}) from a template of its shape, the parent's IRI or id slotted in.
 *
 * @example relatedListQuery(mapping, { type: concepts, parent, sort: concepts.defaultSort, filters: [] }, { shape: 'flat', window: { limit: 20, offset: 0 } })
 */
export function relatedListQuery(
  mapping: Mapping,
  request: ListRequest,
  { shape, window, memo }: { shape: ListShape; window: Window; memo?: TemplateMemo | undefined },
): SelectQuery | FilledQuery {
  const build = (r: ListRequest) => LIST_QUERIES[shape](mapping, r, { window });
  return withParentSlot(request, { shape: ['list', window], build, memo })!;
}

/**
 * The query `build` makes of `request`, from a template of its shape (`query-template.ts`) with
 * the parent's IRI or id slotted in, so that a related list's text is written once per shape, not
 * per request. `shape` holds whatever else the query depends on beside the request's parent,
 * type, relationship, lookup kind and sort. A list without parent, or with filters (whose values
 * the template would have to hold), is built whole, and so is every query without a `memo` to keep
 * templates in (the same text). `undefined` where `build` gives none.
 */
function withParentSlot(
  request: ListRequest,
  {
    shape,
    build,
    memo,
  }: {
    shape: readonly unknown[];
    build: (request: ListRequest) => SelectQuery | undefined;
    memo: TemplateMemo | undefined;
  },
): SelectQuery | FilledQuery | undefined {
  const { parent } = request;
  if (!parent || request.filters.length > 0 || !memo) return build(request);
  const key = JSON.stringify([parent.relationship.name, parent.lookup.kind, sortSignature(request.sort), ...shape]);
  const entry = memo.kept(RELATED_TEMPLATES, parent.type, key, () => {
    const lookup = (value: string): IdLookup =>
      parent.lookup.kind === 'iri' ? { kind: 'iri', iri: value } : { kind: 'literal', value };
    const withParent = ([value]: readonly string[]) =>
      build({ ...request, parent: { ...parent, lookup: lookup(value!) } });
    return { template: withParent(['']) ? new QueryTemplate((values) => withParent(values)!) : null };
  }) as { template: QueryTemplate | null };
  return entry.template?.fill([parent.lookup.kind === 'iri' ? parent.lookup.iri : parent.lookup.value]);
}
