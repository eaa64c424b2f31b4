import { type Pattern, type SelectQuery, type VariableExpression, Wildcard } from 'sparqljs';
import type { Attribute, Mapping } from '../mapping/model.js';
import type { ListRequest, Window } from '../plan/plan.js';
import type { TextOrder } from '../rdf/text-order.js';
import type { Cursor } from '../request/cursor.js';
import { valueOrder } from '../request/filter-values.js';
import { sortSignature } from '../request/parse-sort.js';
import { aggregate, filter, literal, op, variable } from './ast.js';
import { guardedExactValue, withAttributeValues } from './fetch-query.js';
import { idSortExpression } from './id-sort.js';
import { type KeyRange, keysetOrder, rangeClauses, tieFreeRangeClauses } from './keyset-clause.js';
import { buildCountQuery, listPatterns, SUBJECT, select } from './list-query.js';
import { flatListQuery } from './list-shapes.js';
import { keyVariable, type SortClauses, sortClauses } from './sort-clauses.js';
import type { TemplateMemo } from './template-memo.js';
import { keyLike } from './text-key.js';
import { toText } from './to-text.js';

/*
 * A list sorted by a key with few distinct values (a year, a status, a category) can be paged
 * without sorting all its members: count the members per key value (the histogram, one GROUP BY
 * the store answers from its index), add the counts up to find which key values the page's rows
 * have, and sort only the members with those values. Over 70,000 trade activities sorted by year
 * this is 25 ms on Virtuoso for the count with the histogram and 25 ms for one year's page with
 * its range count, against 13 ms for the count and 80 ms for the whole sort (histogram-window.ts
 * checks that the counts add up; the plan's fallback reads the page when they don't).
 */

/** Each histogram row's count of rows, `?rows`; the list's count is `?count` (`buildCountQuery`). */
export const ROWS = variable('rows');

const countRows = (): VariableExpression => ({ expression: aggregate('count', new Wildcard()), variable: ROWS });

/**
 * The list's count (one row with `?count`, {@link buildCountQuery}) and the histogram of its
 * first sort key: one row per distinct value (`?key0`, and for a number key its exact text) with
 * `?rows`, the list's rows that have it (members without the key make one row with `?key0`
 * unbound), at most `limit` of them, in the list's order of the values (the rows without a usable
 * value anywhere: the reader puts them last). One query, so that a page read through the
 * histogram costs no more queries than a plain one. `undefined` when the list can't be paged this
 * way: it hangs off a parent, or its first key is the id or not flat.
 *
 * With `page` (a `reorderable` {@link buildRangeWindowQuery} without range count, guessed from
 * the list's last histogram: `execute/histogram-window.ts`), that window rides along as a third
 * branch, its rows told apart by their `?s`, so the page costs no second query when the histogram
 * confirms the guess. All rows are then in the list's order, which orders the histogram's rows by
 * their value (with the rows without one last; the later keys and the id are unbound there, and
 * tie) and the window's rows as the window orders them.
 *
 * @example buildKeyHistogramQuery(mapping, { type: tradeActivities, sort: parseSort('-financial-year', …), filters: [] }, { limit: 501, oneGraph: false })
 */
export function buildKeyHistogramQuery(
  mapping: Mapping,
  request: ListRequest,
  { limit, oneGraph, page }: { readonly limit: number; readonly oneGraph: boolean; readonly page?: SelectQuery },
): SelectQuery | undefined {
  const sort = firstKeySort(mapping, request);
  if (!sort) return undefined;
  const key = sort.keys[0]!;
  const histogram: SelectQuery = {
    ...select(request.type, []),
    variables: [keyVariable(0), ...(key.exact ? [key.exact] : []), countRows()],
    where: listPatterns(mapping, request, [sort.optionals[0]!]),
    group: [{ expression: keyVariable(0) }],
    limit,
  };
  return {
    ...select(request.type, []),
    variables: [new Wildcard()],
    where: [union(buildCountQuery(mapping, request, { oneGraph }), histogram, ...(page ? [page] : []))],
    // The flat ORDER BY of the values, as the list orders them (not a grouped query's ORDER BY:
    // Virtuoso 7.2 orders one by IF(BOUND(?key0), 0, 1) as if every ?key0 were unbound).
    order: page
      ? keysetOrder(sort.keys, idSortExpression(request.type, SUBJECT))
      : [{ expression: key.value, descending: key.descending }],
  };
}

/** Each mapping's histogram texts of lists without filters (`keyHistogramText`); `null`: none. */
const HISTOGRAM_TEXTS = { name: 'histogram', max: 256 } as const;
/** Each mapping's histogram texts of filtered lists, by the query's JSON (`keyHistogramText`). */
const FILTERED_HISTOGRAM_TEXTS = { name: 'filtered-histogram', max: 256 } as const;

/** How a histogram query is written: its bound on values, the store's graph and text order, and the memo that keeps its text. */
export interface HistogramTextOptions {
  readonly limit: number;
  readonly oneGraph: boolean;
  readonly textOrder?: TextOrder | undefined;
  readonly memo?: TemplateMemo | undefined;
}

/**
 * {@link buildKeyHistogramQuery}'s text in `textOrder`. A list without filters has the same one
 * on every page (its type, sort, `limit` and graph are the whole of it): it is written once per
 * mapping and kept (the most recently used {@link HISTOGRAM_TEXTS}), which spares every page of
 * such a list the query's building and writing (about 4 % of the server's CPU for a page of 20). A
 * filtered list's query is built each time, its values in it, and its text kept by the query
 * itself (its JSON, which holds every term of it): writing it took about 0.1 ms of a filtered
 * page's 3 (a third of the server's time beyond the store's).
 *
 * Without a `memo`, the text is written each time (the same text).
 *
 * @example keyHistogramText(mapping, { type: tradeActivities, sort: parseSort('-financial-year', …), filters: [] }, { limit: 501, oneGraph: false })
 */
export function keyHistogramText(
  mapping: Mapping,
  request: ListRequest,
  { limit, oneGraph, textOrder, memo }: HistogramTextOptions,
): string | undefined {
  if (request.parent) return undefined; // no list of a parent is read through its histogram
  const write = () => {
    const query = buildKeyHistogramQuery(mapping, request, { limit, oneGraph });
    return { text: query ? toText(query, textOrder) : null };
  };
  if (!memo) return write().text ?? undefined;
  if (request.filters.length > 0) {
    const query = buildKeyHistogramQuery(mapping, request, { limit, oneGraph });
    if (!query) return undefined;
    const key = JSON.stringify([textOrder ?? null, query]);
    return memo.kept(FILTERED_HISTOGRAM_TEXTS, mapping, key, () => ({ text: toText(query, textOrder) })).text;
  }
  const key = JSON.stringify([request.type.name, sortSignature(request.sort), limit, oneGraph, textOrder ?? null]);
  return memo.kept(HISTOGRAM_TEXTS, mapping, key, write).text ?? undefined;
}

/** Which window {@link buildRangeWindowQuery} reads: its rows, the key range, with the range's count or not, the attributes it may bring. */
export interface RangeWindowAsked {
  readonly window: Window;
  readonly range: KeyRange;
  /** With the range's count (`?rows`), to check it against the histogram's; `true` by default. */
  readonly counted?: boolean;
  readonly attributes?: readonly Attribute[];
}

/**
 * A window of a list's members whose first sort key lies in `range` (`flatListQuery` with the
 * range, its key values projected), and in one more row `?rows`, the list's rows in the range:
 * those {@link buildKeyHistogramQuery} counts, so that the two can be checked against each other.
 * Ordered again outside the UNION, which keeps no order of its own. Only for a list whose
 * histogram added up to its count (`execute/histogram-window.ts`). Without `counted`, the window
 * alone: for values that can't tie in ORDER BY while they count apart (a range of one such value
 * is then bound by VALUES: `tieFreeRangeClauses`); with `attributes`, such a
 * window of one sort key also brings its members' values of them (`withValues`), so the page
 * needs no fetch query; of the key's own attribute, each member's value is its key (`carried`).
 */
export function buildRangeWindowQuery(
  mapping: Mapping,
  request: ListRequest,
  { window, range, counted = true, attributes = [] }: RangeWindowAsked,
): { query: SelectQuery; withValues: boolean; carried?: Attribute; reorderable: boolean } {
  const sort = firstKeySort(mapping, request);
  if (!sort) throw new Error('A key range needs a flat attribute key first');
  const { optionals, condition } = counted ? rangeClauses(sort, range) : tieFreeRangeClauses(sort, range);
  const inRange = (extra: Pattern[]) => [
    ...listPatterns(mapping, request, extra),
    ...(condition ? [filter(condition)] : []),
  ];
  const id = idSortExpression(request.type, SUBJECT);
  const order = keysetOrder(sort.keys, id);
  // One attribute key: the histogram's rows added up to the count, so each member has one row
  // with one value of it, and the page needs neither the least-value guard nor DISTINCT (4 to
  // 5 ms of Virtuoso's 20 for a year's page). With more keys, the others may still have several.
  // A range of one value ties every row on the key: the rest of the order is the id's (3 ms of
  // Virtuoso's 14 for a year's page).
  // A page of one key and no range count also brings its members' attribute values
  // (`withAttributeValues`): its ORDER BY is over what it projects, so the rows can be ordered
  // again after the join. Not beside the range count: Virtuoso 7.2 fails on that UNION (502).
  const oneValue = range.from !== null && range.to !== null && range.from.equals(range.to);
  const oneKey = sort.keys.filter((key) => key.present).length === 1;
  const withValues = oneKey && !counted && attributes.length > 0;
  // The key's own attribute is not fetched again: each member's ?key0 is its one value of it (the
  // histogram added up), projected with its exact text as ?o is (`groupValues` reads both). A
  // fifth of Virtuoso's CPU for a year's page at 100k, when it is the page's one attribute.
  const carried = withValues ? keyAttribute(request, attributes) : undefined;
  const fetched = attributes.filter((attribute) => attribute !== carried);
  const keyPage: SelectQuery = {
    ...select(request.type, [keyVariable(0), ...(carried ? [guardedExactValue(keyVariable(0))] : [])], window),
    where: inRange(optionals),
    order: oneValue ? keysetOrder(sort.keys.slice(1), id) : order,
  };
  const page = !oneKey
    ? flatListQuery(mapping, request, { sort, window, range })
    : withValues && fetched.length > 0
      ? withAttributeValues(keyPage, fetched)
      : keyPage;
  // The key page of one key orders by what it projects: its rows can be ordered again around it
  // (the list query of more keys is left as it is).
  if (!counted) return { query: page, withValues, ...(carried && { carried }), reorderable: oneKey };
  const rangeCount: SelectQuery = {
    ...select(request.type, []),
    variables: [countRows()],
    where: inRange([optionals[0]!]),
  };
  return {
    query: { ...select(request.type, []), variables: [new Wildcard()], where: [union(page, rangeCount)], order },
    withValues,
    reorderable: false,
  };
}

/**
 * How many of a list's rows have the first key of a cursor (`cursor.values[0]`, one value that
 * ties with no other term: bound by VALUES, see `tieFreeRangeClauses`) and come up to the cursor's
 * member in the id's order (before it, for an inclusive cursor): with the rows of the values
 * before it in the histogram, where the page after the cursor starts (`?count`). The id is
 * compared as the keyset FILTER compares it (`keysetExpression`).
 *
 * @example buildCursorPositionQuery(mapping, { type: tradeActivities, sort: parseSort('-financial-year', …), filters: [] }, cursor)
 */
export function buildCursorPositionQuery(mapping: Mapping, request: ListRequest, cursor: Cursor): SelectQuery {
  const sort = firstKeySort(mapping, request);
  const value = cursor.values[0];
  if (!sort || !value) throw new Error("A cursor's position needs a flat attribute key and its value");
  const { optionals } = tieFreeRangeClauses(sort, { from: value, to: value });
  const id = idSortExpression(request.type, SUBJECT);
  return {
    ...select(request.type, []),
    variables: [{ expression: aggregate('count', new Wildcard()), variable: variable('count') }],
    where: [
      ...listPatterns(mapping, request, [optionals[0]!]),
      filter(op(cursor.inclusive ? '<' : '<=', id, keyLike(id, literal(cursor.idValue)))),
    ],
  };
}

/**
 * The attribute of `attributes` that a list's first sort key is, read as the store holds it: a key
 * of the type's own attribute (no hop), not a number (a number key is compared as a double, and its
 * exact text is the double's, not the value's).
 */
function keyAttribute(request: ListRequest, attributes: readonly Attribute[]): Attribute | undefined {
  const { path } = request.sort[0]!;
  if (path.hops.length > 0 || path.end === 'id' || valueOrder(path.end) === 'number') return undefined;
  const end = path.end;
  return attributes.find((attribute) => attribute.name === end.name && attribute.predicate === end.predicate);
}

const union = (...queries: SelectQuery[]): Pattern => ({ type: 'union', patterns: queries.map(group) });
const group = (query: SelectQuery): Pattern => ({ type: 'group', patterns: [query] });

/** The sort clauses of a list whose first key is a flat attribute key, and that has no parent. */
function firstKeySort(mapping: Mapping, request: ListRequest): SortClauses | undefined {
  const first = request.sort[0];
  if (request.parent || first === undefined || first.path.end === 'id') return undefined;
  const sort = sortClauses(mapping, request.type, request.sort, {
    subject: SUBJECT,
    underParent: request.parent !== undefined,
  });
  return sort.flat ? sort : undefined;
}
