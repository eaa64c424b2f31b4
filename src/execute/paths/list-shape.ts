import type { SelectQuery } from 'sparqljs';
import type { Mapping } from '../../mapping/model.js';
import type { ListRequest } from '../../plan/plan.js';
import type { ListShape, ListWindow } from '../../sparql/list-query.js';
import { LIST_QUERIES } from '../../sparql/list-shapes.js';
import { perMemberKeyIndex } from '../../sparql/per-member-key.js';
import { flatKeys } from '../../sparql/sort-clauses.js';

/**
 * The shape of a list's query, the planner's choice (`plan-list-read.ts`): `flat` when the sort
 * keys are flat (`sort-clauses.ts`: each member's least value orders the rows themselves), else
 * `per-member` for one text key of several values per member (`per-member-key.ts`), else `grouped`.
 *
 * @example listShape({ type: tradeActivities, sort: parseSort('concerns.label', mapping, tradeActivities), filters: [] }) // 'per-member'
 */
export function listShape(request: ListRequest): ListShape {
  if (flatKeys(request.sort)) return 'flat';
  return perMemberKeyIndex(request) !== undefined ? 'per-member' : 'grouped';
}

/**
 * The list query of `request`'s window in the shape the planner chooses for it: what the window
 * cache reads a list whole with when not given the path's query, and what tests compare with.
 *
 * @example listQuery(mapping, request, { keyset: { fromEnd: false } })
 */
export function listQuery(mapping: Mapping, request: ListRequest, asked?: ListWindow): SelectQuery {
  return LIST_QUERIES[listShape(request)](mapping, request, asked);
}
