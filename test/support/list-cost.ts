import type { Literal, NamedNode } from '@rdfjs/types';
import { cannotTie } from '../../src/execute/histogram-window.js';
import type { Mapping } from '../../src/mapping/model.js';
import { parseSort } from '../../src/request/parse-sort.js';
import type { Oracle } from './oracle.js';

/**
 * Whether a counted page of top-level `type`, sorted by `sort` (its default order when omitted),
 * brings its members' attribute values in its list query, so that no fetch query follows
 * (docs/performance.md, "Lists sorted by a key of few values"): it is read through the histogram
 * of its one attribute key (single-valued, without a language, on the type itself), and no two
 * of that key's values in the data can tie in ORDER BY (`cannotTie`). Read from the data, for
 * the tests' query counts; a key through relationships is not worked out here (false).
 *
 * @example fetchGoesWithPage(mapping, oracle, 'trade-activities') // true: by -financial-year, dates with a zone
 */
export function fetchGoesWithPage(mapping: Mapping, oracle: Oracle, type: string, sort?: string): boolean {
  const resourceType = mapping.types.get(type)!;
  const keys = sort === undefined ? resourceType.defaultSort : parseSort(sort, mapping, resourceType);
  const first = keys[0];
  if (first === undefined || first.path.end === 'id') return false;
  if (keys.filter((key) => key.path.end !== 'id').length !== 1) return false;
  const { end, multiValued, hops } = first.path;
  if (multiValued || end.language !== undefined || hops.length > 0) return false;
  const values = oracle.members(type).flatMap((member) => oracle.objects(member.iri, end.predicate));
  const distinct = new Set(values.map((value) => `${value.termType} ${value.value}`));
  return distinct.size <= 500 && cannotTie(values as (Literal | NamedNode)[]);
}
