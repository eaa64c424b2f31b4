import type { Expression, Pattern, SelectQuery, VariableTerm } from 'sparqljs';
import type { Mapping, Relationship, ResourceType } from '../mapping/model.js';
import type { Keyset, ListRequest, Window } from '../plan/plan.js';
import { bgp, filter, iri, optional, triple, variable } from './ast.js';
import { filterPatterns } from './filter-clauses.js';
import { keysetExpression, keysetOrder } from './keyset-clause.js';
import { idVariable, lookupPatterns, memberPatterns } from './members.js';
import { idSortExpression, sortClauses } from './sort-clauses.js';

/** `?s` (and `?s_id` for the predicate id strategy) in each row of a list query. */
export const SUBJECT = variable('s');
const PARENT = variable('parent');
/** The id sort expression as an aggregate of a grouped keyset query: `(MIN(…) AS ?sid)`. */
const ID_KEY = { variable: variable('sid') };
const min = (expression: Expression): Expression => ({
  type: 'aggregate',
  aggregation: 'min',
  expression,
  distinct: false,
});

/**
 * Builds the query that selects a window of the ordered members of a list. Rows carry `?s` and,
 * for `predicate` ids, `?s_id`. With a parent, a parent that exists but points at nothing yields
 * one row with `?s` unbound, and a parent that does not exist yields no row, so one query tells
 * 404 from empty (on the first page).
 *
 * @example buildListQuery(mapping, { type: tradeActivities, sort: parseSort('-financial-year', mapping, tradeActivities), filters: [] }, { limit: 20, offset: 0 })
 */
export function buildListQuery(mapping: Mapping, request: ListRequest, window?: Window, keyset?: Keyset): SelectQuery {
  const { type } = request;
  const sort = sortClauses(mapping, type, request.sort, SUBJECT);
  const where = listPatterns(mapping, request, [...sort.optionals, ...sort.binds]);
  const projected = projection(type);
  const id = idSortExpression(type, SUBJECT);
  // The keyset FILTER sits where the sort keys are known: after the GROUP BY when there is one,
  // where it compares aggregates only, the id as its MIN too (see keysetExpression).
  const isGrouped = sort.aggregates.length > 0;
  const [keysetId, keys] = isGrouped
    ? [ID_KEY.variable, sort.keys.map((key) => (key.missing ? key : { ...key, value: ID_KEY.variable }))]
    : [id, sort.keys];
  const keysetFilters = (['after', 'before'] as const).flatMap((side) =>
    keyset?.[side] ? [filter(keysetExpression(keys, keysetId, keyset[side], side))] : [],
  );
  // Without a cursor FILTER, the plain ORDER BY is right on every store (see KeyExpression).
  const filtered = keysetFilters.length > 0;
  const order = filtered ? keysetOrder(keys, keysetId, keyset!.fromEnd) : [...sort.order, { expression: id }];
  const slice = window ? { limit: window.limit, ...(window.offset > 0 && { offset: window.offset }) } : {};
  if (!isGrouped) {
    return {
      type: 'query',
      queryType: 'SELECT',
      prefixes: {},
      distinct: true,
      variables: projected,
      where: [...where, ...keysetFilters],
      order,
      ...slice,
    };
  }
  const flags = filtered
    ? [...sort.keys.flatMap((key) => (key.missing ? [key.missing] : [])), { ...ID_KEY, expression: min(id) }]
    : [];
  const grouped: SelectQuery = {
    type: 'query',
    queryType: 'SELECT',
    prefixes: {},
    variables: [...projected, ...sort.aggregates, ...flags],
    where,
    group: projected.map((expression) => ({ expression })),
  };
  const exact = sort.keys.flatMap((key) => (key.exact ? [key.exact] : []));
  const outer = keyset ? [...projected, ...sort.aggregates.map((a) => a.variable), ...exact] : projected;
  return {
    type: 'query',
    queryType: 'SELECT',
    prefixes: {},
    variables: outer,
    where: [{ type: 'group', patterns: [grouped] }, ...keysetFilters],
    order,
    ...slice,
  };
}

/**
 * Builds the query that counts a list's members: one row with `?count`, and with a parent also
 * `?parents` (0 when the parent does not exist, which tells 404 from an empty list).
 *
 * @example buildCountQuery(mapping, { type: tradeActivities, sort: [], filters: [] })
 */
export function buildCountQuery(mapping: Mapping, request: ListRequest): SelectQuery {
  const count = (of: VariableTerm, name: string) => ({
    expression: { type: 'aggregate' as const, aggregation: 'count', distinct: true, expression: of },
    variable: variable(name),
  });
  return {
    type: 'query',
    queryType: 'SELECT',
    prefixes: {},
    variables: request.parent ? [count(SUBJECT, 'count'), count(PARENT, 'parents')] : [count(SUBJECT, 'count')],
    where: listPatterns(mapping, request, []),
  };
}

/** The members of the list, their filters and `extra` patterns (sort keys), hung off the parent if any. */
function listPatterns(mapping: Mapping, request: ListRequest, extra: Pattern[]): Pattern[] {
  const { type, parent } = request;
  // Membership and filters go in one group: the filters need ?s bound there, and no FILTER may
  // share a group with the sort BINDs (Virtuoso loses such a FILTER).
  const patterns = [...memberPatterns(type, SUBJECT), ...filterPatterns(mapping, type, request.filters, SUBJECT)];
  const own: Pattern[] = patterns.some((p) => p.type === 'filter') ? [{ type: 'group', patterns }] : patterns;
  const members: Pattern[] = [...own, ...extra];
  return parent
    ? [
        ...lookupPatterns(parent.type, parent.lookup, PARENT),
        optional(bgp(link(parent.relationship, PARENT, SUBJECT)), ...members),
      ]
    : members;
}

function projection(type: ResourceType): VariableTerm[] {
  return type.id.kind === 'predicate' ? [SUBJECT, idVariable(SUBJECT)] : [SUBJECT];
}

function link(relationship: Relationship, from: VariableTerm, to: VariableTerm) {
  const predicate = iri(relationship.predicate);
  return relationship.inverse ? triple(to, predicate, from) : triple(from, predicate, to);
}
