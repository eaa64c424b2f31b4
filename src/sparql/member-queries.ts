import type { Pattern, SelectQuery } from 'sparqljs';
import type { Attribute, Mapping, Relationship } from '../mapping/model.js';
import type { ListRequest, Window } from '../plan/plan.js';
import { bgp, integer, iri, op, values, variable } from './ast.js';
import { idSortExpression } from './id-sort.js';
import { keysetOrder } from './keyset-clause.js';
import { listPatterns, SUBJECT, select } from './list-query.js';
import { linkTriple } from './members.js';
import { perMemberKey, perMemberKeyIndex } from './per-member-key.js';
import type { KeyExpression } from './sort-clauses.js';

/*
 * Queries of some of a list's members: the window among those that have a key of several values
 * (the keyed-window path), and the list kept to given members or to the members a hop reaches (the
 * window cache's patch).
 */

/**
 * The window of a per-member-key list (see {@link perMemberListQuery}) among its members that have
 * a key, which come first in both directions: the members joined to their key, with neither the
 * UNION nor the list's GROUP BY (Virtuoso: 256 against 382 ms for the first page of 70,000 trade
 * activities by concerns.label at 1M triples). A window it does not fill reaches the members
 * without a key, which only the list query lists. DISTINCT unless the store reads `oneGraph`: a
 * class triple in several graphs of a union matches once per graph (the key is projected, so each
 * row is one member); 225 ms without it. `undefined` for any other list.
 *
 * @example buildKeyedWindowQuery(mapping, { type: tradeActivities, sort: parseSort('concerns.label', mapping, tradeActivities), filters: [] }, { window: { limit: 20, offset: 0 }, oneGraph: false })
 */
export function buildKeyedWindowQuery(
  mapping: Mapping,
  request: ListRequest,
  { window, oneGraph }: { readonly window: Window; readonly oneGraph: boolean },
): SelectQuery | undefined {
  const i = perMemberKeyIndex(request);
  if (i === undefined) return undefined;
  const { type } = request;
  const perMember = perMemberKey(mapping, request.sort[i]!, i, SUBJECT);
  const id = idSortExpression(type, SUBJECT);
  // A key in no language has one tier character, "0", in front of every value: ORDER BY compares
  // its values as they are (a fifth less of Virtuoso's CPU for a page than with the SUBSTR).
  const inNoLanguage = (request.sort[i]!.path.end as Attribute).language === undefined;
  const keyed = inNoLanguage ? perMember.value : op('substr', perMember.value, integer(2));
  const keys: KeyExpression[] = request.sort.map((sortKey, j) =>
    j === i
      ? { value: keyed, descending: sortKey.descending }
      : { value: id, descending: sortKey.descending, id: true },
  );
  return {
    ...select(type, [perMember.value], window),
    ...(!oneGraph && { distinct: true }),
    where: [...listPatterns(mapping, request, []), perMember.pattern],
    order: keysetOrder(keys, id),
  };
}

/**
 * A list query kept to the members `iris` (`VALUES ?s { … }` in front of its pattern): the same
 * membership, filters, keys and order, so each of them gives the row it gives in the whole list,
 * or none when it is not a member. The window cache's patch reads its changed members so
 * (`cache/patch-list.ts`). The restriction goes in front of each sub-select of the members too,
 * and of each branch of a union (a filter's DISTINCT ?s, a per-member key and the union of members
 * with and without one): a sub-select is evaluated on its own, and Virtuoso would otherwise read
 * every member it selects before the join keeps a few (a filter by origin country at 1M: 3.3 ms,
 * against 1.4 ms kept inside). Only where that keeps the same rows of those members: a sub-select
 * with no LIMIT or OFFSET, grouped by `?s` if grouped; and never directly in front of a sub-select
 * that holds another one kept so (see below).
 *
 * @example restrictedToMembers(LIST_QUERIES.flat(mapping, request, { keyset: { fromEnd: false } }), ['http://…/activity/1'])
 */
export function restrictedToMembers(query: SelectQuery, iris: readonly string[]): SelectQuery {
  const members = values(iris.map((member) => ({ [SUBJECT.value]: iri(member) })));
  const kept = (pattern: Pattern): Pattern => {
    if (pattern.type === 'group') return { ...pattern, patterns: pattern.patterns.map(kept) };
    // Each branch of a union too: a sub-select's own pattern may be the union of its members with and without a key.
    if (pattern.type === 'union')
      return {
        ...pattern,
        patterns: pattern.patterns.map((branch) =>
          branch.type === 'group' ? { ...branch, patterns: [members, ...branch.patterns.map(kept)] } : kept(branch),
        ),
      };
    if (pattern.type !== 'query' || !selectsMembers(pattern)) return pattern;
    const where = (pattern.where ?? []).map(kept);
    // Not in front of a sub-select that holds another one kept so: Virtuoso 7.2 fails on that form
    // ("VECSL: Internal error, ssl refd before set"); its unions' branches and inner sub-selects are kept.
    return { ...pattern, where: holdsMembers(pattern.where ?? []) ? where : [members, ...where] };
  };
  return { ...query, where: [members, ...(query.where ?? []).map(kept)] };
}

/** Whether `patterns` hold, at any depth of groups, unions and optionals, a sub-select of the members. */
function holdsMembers(patterns: readonly Pattern[]): boolean {
  return patterns.some((pattern) =>
    pattern.type === 'query'
      ? selectsMembers(pattern)
      : 'patterns' in pattern && Array.isArray(pattern.patterns) && holdsMembers(pattern.patterns as Pattern[]),
  );
}

/**
 * The resources a forward relationship `hop` leads from to one of `targets`: the members whose key
 * read through the hop a change of those targets may have moved (a concept's new label, for the
 * activities sorted by `concerns.label`). The window cache's patch reads them before it reads the
 * list's query kept to them (`restrictedToMembers`).
 *
 * @example membersReaching(concerns, ['http://linkedeconomy.org/resource/concept/0101'])
 */
export function membersReaching(hop: Relationship, targets: readonly string[]): SelectQuery {
  return {
    type: 'query',
    queryType: 'SELECT',
    prefixes: {},
    distinct: true,
    variables: [SUBJECT],
    where: [
      values(targets.map((target) => ({ [REACHED.value]: iri(target) }))),
      bgp(linkTriple(hop, SUBJECT, REACHED)),
    ],
  };
}

/** The resources a hop leads to, in {@link membersReaching}. */
const REACHED = variable('target');

/** Whether a sub-select gives each member's rows whatever other members it selects: it selects `?s`, uncut, per `?s` if grouped. */
function selectsMembers(query: SelectQuery): boolean {
  const projects = query.variables.some(
    (v) => 'termType' in v && v.termType === 'Variable' && v.value === SUBJECT.value,
  );
  const perMember =
    query.group === undefined ||
    query.group.some((g) => 'termType' in g.expression && g.expression.value === SUBJECT.value);
  return projects && perMember && query.limit === undefined && query.offset === undefined;
}
