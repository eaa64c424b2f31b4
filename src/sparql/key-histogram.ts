import { type SelectQuery, type VariableExpression, Wildcard } from 'sparqljs';
import type { Mapping } from '../mapping/model.js';
import type { ListRequest } from '../plan/plan.js';
import { aggregate, filter, variable } from './ast.js';
import { type KeyRange, rangeClauses } from './keyset-clause.js';
import { listPatterns, SUBJECT, select } from './list-query.js';
import { keyVariable, type SortClauses, sortClauses } from './sort-clauses.js';

/*
 * A list sorted by a key with few distinct values (a year, a status, a category) can be paged
 * without sorting all its members: count the members per key value (the histogram, one GROUP BY
 * the store answers from its index), add the counts up to find which key values the page's rows
 * have, and sort only the members with those values. Over 70,000 members with 8 years this is
 * 8 + 13 ms on Virtuoso against 80 ms for the whole sort (execute/histogram-window.ts checks
 * that the counts add up, and reads the page the plain way when they don't).
 */

/** Each histogram row's count of rows, `?rows`. */
export const ROWS = variable('rows');

const countRows = (): VariableExpression => ({ expression: aggregate('count', new Wildcard()), variable: ROWS });

/**
 * The histogram of a list's first sort key: one row per distinct value (`?key0`, and for a number
 * key its exact text), with `?rows`, the list's rows that have it (members without the key make one
 * row with `?key0` unbound), in the list's order of the values (the rows without a usable value
 * anywhere: the reader puts them last), at most `limit` rows. `undefined` when the list
 * can't be paged this way: it hangs off a parent, or its first key is the id or not flat.
 *
 * @example buildKeyHistogramQuery(mapping, { type: tradeActivities, sort: parseSort('-financial-year', …), filters: [] }, 501)
 */
export function buildKeyHistogramQuery(mapping: Mapping, request: ListRequest, limit: number): SelectQuery | undefined {
  const sort = firstKeySort(mapping, request);
  if (!sort) return undefined;
  const key = sort.keys[0]!;
  return {
    ...select(request.type, []),
    variables: [keyVariable(0), ...(key.exact ? [key.exact] : []), countRows()],
    where: listPatterns(mapping, request, [sort.optionals[0]!]),
    group: [{ expression: keyVariable(0) }],
    // Only the values: where the members without one go, the reader knows (last). Virtuoso 7.2
    // orders a grouped query by IF(BOUND(?key0), 0, 1) as if every ?key0 were unbound.
    order: [{ expression: key.value, descending: key.descending }],
    limit,
  };
}

/**
 * Counts the rows of a list whose first sort key lies in `range`: one row with `?rows`. The rows
 * are those {@link buildKeyHistogramQuery} counts, so the two must agree on every range.
 */
export function buildRangeCountQuery(mapping: Mapping, request: ListRequest, range: KeyRange): SelectQuery {
  const sort = firstKeySort(mapping, request);
  if (!sort) throw new Error('A key range needs a flat attribute key first');
  const { optionals, condition } = rangeClauses(sort, range);
  return {
    ...select(request.type, []),
    variables: [countRows()],
    where: [...listPatterns(mapping, request, [optionals[0]!]), ...(condition ? [filter(condition)] : [])],
  };
}

/** The sort clauses of a list whose first key is a flat attribute key, and that has no parent. */
function firstKeySort(mapping: Mapping, request: ListRequest): SortClauses | undefined {
  const first = request.sort[0];
  if (request.parent || first === undefined || first.path.end === 'id') return undefined;
  const sort = sortClauses(mapping, request.type, request.sort, SUBJECT);
  return sort.flat ? sort : undefined;
}
