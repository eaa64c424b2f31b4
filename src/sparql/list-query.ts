import type { Pattern, SelectQuery, VariableTerm } from 'sparqljs';
import type { IdLookup } from '../mapping/ids.js';
import type { Mapping, Relationship, ResourceType } from '../mapping/model.js';
import type { SortKey } from '../request/parse-sort.js';
import { bgp, iri, optional, triple, variable } from './ast.js';
import { idVariable, lookupPatterns, memberPatterns } from './members.js';
import { idSortExpression, sortClauses } from './sort-clauses.js';

/** The resources a related or relationship URL starts from. */
export interface ParentRef {
  readonly type: ResourceType;
  readonly lookup: IdLookup;
  readonly relationship: Relationship;
}

export interface ListRequest {
  /** The type of the listed resources. */
  readonly type: ResourceType;
  /** Set for related and relationship URLs: list what the parent's relationship points at. */
  readonly parent?: ParentRef;
  readonly sort: readonly SortKey[];
}

/** `?s` (and `?s_id` for the predicate id strategy) in each row of a list query. */
export const SUBJECT = variable('s');
const PARENT = variable('parent');

/**
 * Builds the query that selects the ordered members of a collection: all resources of a type, or
 * those a parent's relationship points at. Rows carry `?s` and, for `predicate` ids, `?s_id`.
 * With a parent, a parent that exists but points at nothing yields one row with `?s` unbound, and
 * a parent that does not exist yields no row, so one query tells 404 from empty.
 *
 * @example buildListQuery(mapping, { type: tradeActivities, sort: parseSort('-financial-year', mapping, tradeActivities) })
 */
export function buildListQuery(mapping: Mapping, request: ListRequest): SelectQuery {
  const { type, parent } = request;
  const sort = sortClauses(mapping, type, request.sort, SUBJECT);
  const members: Pattern[] = [...memberPatterns(type, SUBJECT), ...sort.optionals, ...sort.binds];
  const where: Pattern[] = parent
    ? [...lookupPatterns(parent.type, parent.lookup, PARENT), optional(bgp(link(parent.relationship, PARENT, SUBJECT)), ...members)]
    : members;
  const projected: VariableTerm[] = type.id.kind === 'predicate' ? [SUBJECT, idVariable(SUBJECT)] : [SUBJECT];
  const order = [...sort.order, { expression: idSortExpression(type, SUBJECT) }];
  if (sort.aggregates.length === 0) {
    return { type: 'query', queryType: 'SELECT', prefixes: {}, distinct: true, variables: projected, where, order };
  }
  const grouped: SelectQuery = {
    type: 'query',
    queryType: 'SELECT',
    prefixes: {},
    variables: [...projected, ...sort.aggregates],
    where,
    group: projected.map((expression) => ({ expression })),
  };
  return { type: 'query', queryType: 'SELECT', prefixes: {}, variables: projected, where: [{ type: 'group', patterns: [grouped] }], order };
}

function link(relationship: Relationship, from: VariableTerm, to: VariableTerm) {
  const predicate = iri(relationship.predicate);
  return relationship.inverse ? triple(to, predicate, from) : triple(from, predicate, to);
}
