import {
  type Expression,
  type Pattern,
  type SelectQuery,
  type VariableExpression,
  type VariableTerm,
  Wildcard,
} from 'sparqljs';
import type { Mapping, ResourceType } from '../mapping/model.js';
import type { Keyset, ListRequest, Window } from '../plan/plan.js';
import { aggregate, bgp, optional, variable } from './ast.js';
import { filterPatterns } from './filter-clauses.js';
import { keysetExpression } from './keyset-clause.js';
import { idVariable, linkTriple, lookupPatterns, memberPatterns } from './members.js';
import { type KeyExpression, type SortClauses, sortClauses } from './sort-clauses.js';
import { textKey } from './text-key.js';

/*
 * What every list query shares: the members' patterns, the SELECT of `?s`, the keyset conditions,
 * and the count. The list queries themselves, one builder per shape, are `list-shapes.ts`'s; which
 * shape a list takes is the planner's choice (`execute/paths/list-shape.ts`).
 */

/**
 * How a list query is written: `flat` (the sort keys order the rows themselves, each member's
 * least value only), `per-member` (one text key of several values per member, grouped by member
 * over a UNION with the members without it), `grouped` (the members grouped first, the keys as
 * aggregates).
 */
export type ListShape = 'flat' | 'grouped' | 'per-member';

/** Which window of a list a list query selects, past which cursors. */
export interface ListWindow {
  readonly window?: Window | undefined;
  readonly keyset?: Keyset | undefined;
}

/** `?s` (and `?s_id` for the predicate id strategy) in each row of a list query. */
export const SUBJECT = variable('s');
const PARENT = variable('parent');
/**
 * The id's text as an aggregate of a grouped keyset query, `(MIN(…) AS ?sid)` (one value per
 * member: its own), and what sorts and compares by it, as a text key (`idSortExpression`).
 */
export const ID_KEY = { variable: variable('sid') };
export const ID_SORT = textKey(ID_KEY.variable);
export const min = (expression: Expression) => aggregate('min', expression);

/**
 * The sort clauses of a list (`sort-clauses.ts`): a related list's keys of several values are
 * computed over its members on their own (the parent, the link, the members' class; not the
 * list's filters). Whether they are `flat` is what the planner reads to choose the list's shape.
 *
 * @example listSort(mapping, request).flat // true for -financial-year
 */
export function listSort(mapping: Mapping, request: ListRequest): SortClauses {
  const members = request.parent
    ? listPatterns(mapping, { ...request, filters: [] }, [], { parentRow: false })
    : undefined;
  return sortClauses(mapping, request.type, request.sort, {
    subject: SUBJECT,
    underParent: request.parent !== undefined,
    members,
  });
}

/** What a SELECT holds of a window: its limit, and its offset when past the start. */
export const windowClauses = (window: Window): Pick<SelectQuery, 'limit' | 'offset'> => ({
  limit: window.limit,
  ...(window.offset > 0 && { offset: window.offset }),
});

/** A SELECT of the members (`?s`, `?s_id`) and `extra`, over `window` if any. */
export function select(type: ResourceType, extra: (VariableTerm | VariableExpression)[], window?: Window): SelectQuery {
  return {
    type: 'query',
    queryType: 'SELECT',
    prefixes: {},
    variables: [...projection(type), ...extra],
    where: [],
    ...(window && windowClauses(window)),
  };
}

/** The conditions that keep what lies beyond a keyset's cursors. */
export function keysetConditions(keys: readonly KeyExpression[], id: Expression, keyset?: Keyset): Expression[] {
  return (['after', 'before'] as const).flatMap((side) =>
    keyset?.[side] ? [keysetExpression(keys, id, keyset[side], side)] : [],
  );
}

/** The exact text of number keys, for the cursors of a keyset page. */
export function exactKeys(sort: SortClauses, keyset?: Keyset): VariableExpression[] {
  return keyset ? sort.keys.flatMap((key) => (key.exact ? [key.exact] : [])) : [];
}

/**
 * Builds the query that counts a list's members: one row with `?count`, and with a parent also
 * `?parents` (0 when the parent does not exist, which tells 404 from an empty list). The rows a
 * list query lists are its distinct `?s` (and `?s_id`): counted as `COUNT(*)` over a DISTINCT
 * sub-select, which stores do far faster than a `COUNT(DISTINCT ?s)` (13 against 48 ms over 70,000
 * members on Virtuoso). When the store reads `oneGraph`, the member patterns match each member
 * once (each filter is a join with a DISTINCT sub-select, or a MINUS), so `COUNT(*)` counts them
 * with no DISTINCT at all (6.6 ms).
 *
 * @example buildCountQuery(mapping, { type: tradeActivities, sort: [], filters: [] }, { oneGraph: false })
 */
export function buildCountQuery(
  mapping: Mapping,
  request: ListRequest,
  { oneGraph }: { readonly oneGraph: boolean },
): SelectQuery {
  const count = (name: string, of?: VariableTerm): VariableExpression => ({
    expression: aggregate('count', of ?? new Wildcard(), { distinct: of !== undefined }),
    variable: variable(name),
  });
  if (request.parent) {
    return {
      ...select(request.type, []),
      variables: [count('count', SUBJECT), count('parents', PARENT)],
      where: listPatterns(mapping, request, []),
    };
  }
  if (oneGraph)
    return { ...select(request.type, []), variables: [count('count')], where: listPatterns(mapping, request, []) };
  const members: SelectQuery = {
    ...select(request.type, []),
    distinct: true,
    where: listPatterns(mapping, request, []),
  };
  return { ...select(request.type, []), variables: [count('count')], where: [{ type: 'group', patterns: [members] }] };
}

/**
 * The members of the list, their filters and `extra` patterns (sort keys), hung off the parent if
 * any: in an OPTIONAL, so that a parent that points at nothing still gives a row, unless
 * `parentRow` is false.
 */
export function listPatterns(
  mapping: Mapping,
  request: ListRequest,
  extra: Pattern[],
  { parentRow = true }: { readonly parentRow?: boolean } = {},
): Pattern[] {
  const { type, parent } = request;
  // Membership and filters go in one group: the filters need ?s bound there, and no FILTER may
  // share a group with the sort BINDs (Virtuoso loses such a FILTER). The joins with the resources
  // a path filter keeps come first: Jena joins in the order written, and with the members first it
  // evaluated the sub-select once per member (QUDT's units by a quantity kind's label: 10 s, not
  // 0.2 s); Oxigraph and Virtuoso choose their own order. MINUS needs the members before it.
  const filters = filterPatterns(mapping, type, request.filters, SUBJECT);
  const joins = filters.filter((p) => p.type === 'group');
  const patterns = [...joins, ...memberPatterns(type, SUBJECT), ...filters.filter((p) => p.type !== 'group')];
  const own: Pattern[] = patterns.some((p) => p.type === 'filter') ? [{ type: 'group', patterns }] : patterns;
  const members: Pattern[] = [...own, ...extra];
  if (!parent) return members;
  const linked = [bgp(linkTriple(parent.relationship, PARENT, SUBJECT)), ...members];
  return [...lookupPatterns(parent.type, parent.lookup, PARENT), ...(parentRow ? [optional(...linked)] : linked)];
}

/** The variables that name a member in each row: `?s`, and `?s_id` for the predicate id strategy. */
export function projection(type: ResourceType): VariableTerm[] {
  return type.id.kind === 'predicate' ? [SUBJECT, idVariable(SUBJECT)] : [SUBJECT];
}
