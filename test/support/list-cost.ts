import type { Literal, NamedNode } from '@rdfjs/types';
import { cannotTie } from '../../src/execute/histogram-blocks.js';
import type { Attribute, Mapping, SortKey } from '../../src/mapping/model.js';
import { valueOrder } from '../../src/request/filter-values.js';
import { parseSort } from '../../src/request/parse-sort.js';
import type { Oracle } from './oracle.js';

/*
 * What a counted page of a top-level list costs in queries, read from the mapping and the data
 * (docs/performance.md, "Lists sorted by a key of few values"), for the tests' query counts.
 */

/**
 * The attribute key a counted page of `type` sorted by `sort` (its default order when omitted)
 * is read through the histogram of, when it is: the only attribute key, first, single-valued,
 * without a language, on the type itself (a key through relationships is not worked out here).
 * The sample's keys have far fewer than 500 values, so that bound is not checked.
 *
 * @example histogramKey(mapping, 'trade-activities')?.field // 'financial-year'
 */
export function histogramKey(mapping: Mapping, type: string, sort?: string): SortKey | undefined {
  const resourceType = mapping.types.get(type)!;
  const keys = sort === undefined ? resourceType.defaultSort : parseSort(sort, mapping, resourceType);
  const first = keys[0];
  if (first === undefined || first.path.end === 'id') return undefined;
  if (keys.filter((key) => key.path.end !== 'id').length !== 1) return undefined;
  const { end, multiValued, hops } = first.path;
  return multiValued || end.language !== undefined || hops.length > 0 ? undefined : first;
}

/**
 * Whether such a page also brings its members' attribute values in its list query, so that no
 * fetch query follows: it is read through {@link histogramKey}, and no two of that key's values
 * in the data can tie in ORDER BY (`cannotTie`).
 *
 * @example fetchGoesWithPage(mapping, oracle, 'trade-activities') // true: by -financial-year, dates with a zone
 */
export function fetchGoesWithPage(mapping: Mapping, oracle: Oracle, type: string, sort?: string): boolean {
  const key = histogramKey(mapping, type, sort);
  if (key === undefined || key.path.end === 'id') return false;
  const { predicate } = key.path.end;
  const values = oracle.members(type).flatMap((member) => oracle.objects(member.iri, predicate));
  return cannotTie(values as (Literal | NamedNode)[]);
}

/**
 * Whether a page of a list read before on the same server (its histogram reading the same) comes
 * with the histogram query, one query fewer (`execute/histogram-window.ts`): the condition of
 * {@link fetchGoesWithPage}, a key of the type's own whose values cannot tie (one sort key).
 *
 * @example pageGoesWithHistogram(mapping, oracle, 'trade-activities') // true
 */
export const pageGoesWithHistogram = fetchGoesWithPage;

/**
 * Whether a page of a top-level list sends the list query after its keyed window query
 * (`list-query.ts` buildKeyedWindowQuery): as docs/performance.md says, the list is sorted by one
 * text key of several values (a `many` attribute, a to-many hop or a language to choose; any other
 * key the id), and fewer of its members have that key than the window reaches (`offset + limit`).
 *
 * @example listAfterKeyedWindow(mapping, oracle, 'concepts', '-narrower-concepts.label', { offset: 0, limit: 20 }) // true
 */
export function listAfterKeyedWindow(
  mapping: Mapping,
  oracle: Oracle,
  type: string,
  sort: string,
  window: { offset: number; limit: number },
): boolean {
  const keys = parseSort(sort, mapping, mapping.types.get(type)!);
  const attributeKeys = keys.flatMap((key, i) => (key.path.end === 'id' ? [] : [{ path: key.path, i }]));
  if (attributeKeys.length !== 1) return false;
  const [{ path, i }] = attributeKeys as [(typeof attributeKeys)[number]];
  const end = path.end as Attribute;
  if (!(path.multiValued || end.language !== undefined) || valueOrder(end) !== 'text') return false;
  const field = sort.split(',')[i]!;
  const keyed = oracle.members(type).filter((member) => oracle.sortValue(type, member, field) !== undefined);
  return keyed.length < window.offset + window.limit;
}
