import {
  type Expression,
  type Pattern,
  type SelectQuery,
  type VariableExpression,
  type VariableTerm,
  Wildcard,
} from 'sparqljs';
import type { Attribute, Mapping, Relationship, ResourceType } from '../mapping/model.js';
import type { Keyset, ListRequest, Window } from '../plan/plan.js';
import {
  aggregate,
  bgp,
  bind,
  filter,
  integer,
  iri,
  literal,
  op,
  optional,
  RDF_TYPE,
  str,
  triple,
  values,
  variable,
} from './ast.js';
import { withAttributeValues } from './fetch-query.js';
import { filterPatterns } from './filter-clauses.js';
import { idSortExpression, idText } from './id-sort.js';
import { type KeyRange, keysetExpression, keysetOrder, rangeClauses } from './keyset-clause.js';
import { idVariable, linkTriple, lookupPatterns, memberPatterns } from './members.js';
import { perMemberKey, perMemberKeyIndex } from './per-member-key.js';
import { type KeyExpression, keyVariable, type SortClauses, sortClauses } from './sort-clauses.js';
import { textKey } from './text-key.js';

/** `?s` (and `?s_id` for the predicate id strategy) in each row of a list query. */
export const SUBJECT = variable('s');
const PARENT = variable('parent');
/**
 * The id's text as an aggregate of a grouped keyset query, `(MIN(…) AS ?sid)` (one value per
 * member: its own), and what sorts and compares by it, as a text key (`idSortExpression`).
 */
const ID_KEY = { variable: variable('sid') };
const ID_SORT = textKey(ID_KEY.variable);
const min = (expression: Expression) => aggregate('min', expression);

/**
 * Builds the query that selects a window of the ordered members of a list. Rows carry `?s` and,
 * for `predicate` ids, `?s_id`; cursor pages also the sort keys' values (`?key<i>`). With a
 * parent, a parent that exists but points at nothing yields one row with `?s` unbound, and a
 * parent that does not exist yields no row, so one query tells 404 from empty (on the first page).
 *
 * Flat sort keys (`sort-clauses.ts`) order the rows themselves, each member's least value only,
 * and a cursor's keyset FILTER goes into the pattern, so a deep cursor page costs what a first
 * page costs. Other keys group the members first. A `range` (flat keys only) keeps the rows whose
 * first key lies in it: a window read by its key histogram (`key-histogram.ts`).
 *
 * @example buildListQuery(mapping, { type: tradeActivities, sort: parseSort('-financial-year', mapping, tradeActivities), filters: [] }, { limit: 20, offset: 0 })
 */
export function buildListQuery(
  mapping: Mapping,
  request: ListRequest,
  window?: Window,
  keyset?: Keyset,
  range?: KeyRange,
): SelectQuery {
  // A related list's members on their own (the parent, the link, the members' class; not the
  // list's filters): what each key of several values is computed over (`sortClauses`).
  const members = request.parent ? listPatterns(mapping, { ...request, filters: [] }, [], false) : undefined;
  const sort = sortClauses(mapping, request.type, request.sort, {
    subject: SUBJECT,
    underParent: request.parent !== undefined,
    members,
  });
  if (sort.flat) return flatListQuery(mapping, request, sort, window, keyset, range);
  if (range) throw new Error('A key range needs flat sort keys');
  const perMember = perMemberKeyIndex(request);
  if (perMember !== undefined) return perMemberListQuery(mapping, request, perMember, window, keyset);
  return groupedListQuery(mapping, request, sort, window, keyset);
}

function flatListQuery(
  mapping: Mapping,
  request: ListRequest,
  sort: SortClauses,
  window?: Window,
  keyset?: Keyset,
  range?: KeyRange,
  /** The members joined to the parent, not OPTIONAL (`buildRelatedPageQuery`). */
  joined = false,
): SelectQuery {
  const id = idSortExpression(request.type, SUBJECT);
  // Cursors read the keys; a range window is ordered again outside (key-histogram.ts).
  const projected = keyset || range ? sort.keys.flatMap((key, i) => (key.missing ? [keyVariable(i)] : [])) : [];
  const inRange = range ? rangeClauses(sort, range) : { optionals: sort.optionals };
  // Under a parent, each key's missing flag is bound after its OPTIONAL (`?missing<i>`): Virtuoso
  // 7.2 orders by IF(BOUND(?key0), 0, 1) of a key nested in the parent's OPTIONAL as if every
  // key were unbound, which put a member without the key first.
  const flag = (i: number) => variable(`missing${i}`);
  const flagged = request.parent ? sort.keys.flatMap((key, i) => (key.missing ? [i] : [])) : [];
  const keys = sort.keys.map((key, i) =>
    flagged.includes(i) ? { ...key, missing: flag(i), present: op('=', flag(i), integer(0)) } : key,
  );
  const conditions = [
    ...sort.leastValueConditions,
    ...keysetConditions(keys, id, keyset),
    ...(inRange.condition ? [inRange.condition] : []),
  ];
  const binds = flagged.map((i) => bind(sort.keys[i]!.missing!, flag(i)));
  return {
    ...select(request.type, [...projected, ...exactKeys(sort, keyset)], window),
    distinct: true,
    where: [
      ...listPatterns(mapping, request, [...inRange.optionals, ...sort.leastValueOnly, ...binds], !joined),
      ...(conditions.length > 0 ? [filter(conditions.reduce((all, next) => op('&&', all, next)))] : []),
    ],
    order: keysetOrder(keys, id, keyset),
  };
}

/**
 * An offset window of a related list sorted by id with its members' values of `attributes`
 * (`withAttributeValues`): the page and its fetch in one query. The members are joined to the
 * parent, not OPTIONAL: a parent that points at nothing, or does not exist, gives no row (the
 * caller counts to tell the two apart). Only by id: the ORDER BY outside the join then reads
 * what the page projects, one row per member. (Sorted by an attribute, the page would project
 * its keys, and a member whose least values tie in ORDER BY while they differ as terms would
 * have two page rows; and Virtuoso 7.2 put a member without the key first in such a join.)
 * `undefined` for any other list, or when no attribute is shown.
 *
 * @example buildRelatedPageQuery(mapping, { type: concepts, parent, sort: concepts.defaultSort, filters: [] }, { limit: 20, offset: 0 }, [notation, label])
 */
export function buildRelatedPageQuery(
  mapping: Mapping,
  request: ListRequest,
  window: Window,
  attributes: readonly Attribute[],
): SelectQuery | undefined {
  const byId = request.sort.every((key) => key.path.end === 'id');
  if (!request.parent || !byId || attributes.length === 0) return undefined;
  const sort = sortClauses(mapping, request.type, request.sort, {
    subject: SUBJECT,
    underParent: request.parent !== undefined,
  });
  const page = flatListQuery(mapping, request, sort, window, undefined, undefined, true);
  return withAttributeValues(page, attributes);
}

function groupedListQuery(
  mapping: Mapping,
  request: ListRequest,
  sort: SortClauses,
  window?: Window,
  keyset?: Keyset,
): SelectQuery {
  const projected = projection(request.type);
  // The keyset FILTER comes after the GROUP BY, where it compares aggregates only: the id as its
  // MIN too (see keysetExpression).
  const keys = sort.keys.map((key) => (key.missing ? key : { ...key, value: ID_SORT }));
  const filters = keysetConditions(keys, ID_SORT, keyset).map(filter);
  const grouped: SelectQuery = {
    ...select(request.type, [
      ...sort.aggregates,
      ...(keyset ? [...sort.missingFlags, { ...ID_KEY, expression: min(idText(request.type, SUBJECT)) }] : []),
    ]),
    where: listPatterns(mapping, request, [...sort.optionals, ...sort.binds, ...(keyset ? sort.flagBinds : [])]),
    group: projected.map((expression) => ({ expression })),
  };
  const outer = keyset ? [...sort.aggregates.map((a) => a.variable), ...exactKeys(sort, keyset)] : [];
  return {
    ...select(request.type, outer, window),
    where: [{ type: 'group', patterns: [grouped] }, ...filters],
    // Without a cursor FILTER, the plain ORDER BY is right on every store (see KeyExpression).
    order: keyset
      ? keysetOrder(keys, ID_SORT, keyset)
      : [
          ...sort.order,
          ...(sort.keys.some((key) => key.id) ? [] : [{ expression: idSortExpression(request.type, SUBJECT) }]),
        ],
  };
}

/**
 * A list sorted by one text key that may have several values (`per-member-key.ts`): the members
 * with the placeholder, UNION the members joined to their key, grouped by member.
 */
function perMemberListQuery(
  mapping: Mapping,
  request: ListRequest,
  i: number,
  window?: Window,
  keyset?: Keyset,
): SelectQuery {
  const { type } = request;
  const perMember = perMemberKey(mapping, request.sort[i]!, i, SUBJECT);
  const key = keyVariable(i);
  const placeholder = literal(perMember.placeholder);
  const members = listPatterns(mapping, request, []);
  const grouped: SelectQuery = {
    ...select(type, [
      { expression: aggregate(perMember.aggregation, perMember.value), variable: key },
      ...(keyset ? [{ ...ID_KEY, expression: min(idText(type, SUBJECT)) }] : []),
    ]),
    where: [
      {
        type: 'union',
        patterns: [
          { type: 'group', patterns: [...members, bind(placeholder, perMember.value)] },
          { type: 'group', patterns: [...members, perMember.pattern] },
        ],
      },
    ],
    group: projection(type).map((expression) => ({ expression })),
  };
  // STR(): Virtuoso compares a MIN/MAX of strings with a string constant wrongly (see keyset-clause.ts).
  const present = op('!=', str(key), placeholder);
  const missing = op('if', present, integer(0), integer(1));
  const keys: KeyExpression[] = request.sort.map((sortKey, j) =>
    j === i
      ? { value: op('substr', key, integer(2)), descending: sortKey.descending, missing, present }
      : { value: keyset ? ID_SORT : idSortExpression(type, SUBJECT), descending: sortKey.descending, id: true },
  );
  const id = keyset ? ID_SORT : idSortExpression(type, SUBJECT);
  // The class again, with a filter on the members' own ids: Virtuoso 7.2 answers this form's ?s
  // as a literal when a filter binds it to one IRI, unless a triple binds it outside the
  // sub-select. Then DISTINCT, since the class triple may be in several graphs of the union the
  // store serves. Without such a filter, the grouped members are distinct already (10 % of
  // Virtuoso's 390 ms for 70,000 trade activities by concerns.label).
  const ownIds = request.filters.some((f) => f.kind === 'ids' && f.path.hops.length === 0);
  return {
    ...select(type, keyset ? [key] : [], window),
    ...(ownIds && { distinct: true }),
    where: [
      { type: 'group', patterns: [grouped] },
      ...(ownIds ? [bgp(triple(SUBJECT, RDF_TYPE, iri(type.classIri)))] : []),
      ...keysetConditions(keys, id, keyset).map(filter),
    ],
    order: keysetOrder(keys, id, keyset),
  };
}

/**
 * The window of a per-member-key list (see {@link perMemberListQuery}) among its members that have
 * a key, which come first in both directions: the members joined to their key, with neither the
 * UNION nor the list's GROUP BY (Virtuoso: 256 against 382 ms for the first page of 70,000 trade
 * activities by concerns.label at 1M triples). A window it does not fill reaches the members
 * without a key, which only the list query lists. DISTINCT unless the store reads `oneGraph`: a
 * class triple in several graphs of a union matches once per graph (the key is projected, so each
 * row is one member); 225 ms without it. `undefined` for any other list.
 *
 * @example buildKeyedWindowQuery(mapping, { type: tradeActivities, sort: parseSort('concerns.label', mapping, tradeActivities), filters: [] }, { limit: 20, offset: 0 }, false)
 */
export function buildKeyedWindowQuery(
  mapping: Mapping,
  request: ListRequest,
  window: Window,
  oneGraph: boolean,
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
 * @example restrictedToMembers(buildListQuery(mapping, request, undefined, { fromEnd: false }), ['http://…/activity/1'])
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

/** A SELECT of the members (`?s`, `?s_id`) and `extra`, over `window` if any. */
export function select(type: ResourceType, extra: (VariableTerm | VariableExpression)[], window?: Window): SelectQuery {
  return {
    type: 'query',
    queryType: 'SELECT',
    prefixes: {},
    variables: [...projection(type), ...extra],
    where: [],
    ...(window && { limit: window.limit, ...(window.offset > 0 && { offset: window.offset }) }),
  };
}

/** The conditions that keep what lies beyond a keyset's cursors. */
function keysetConditions(keys: readonly KeyExpression[], id: Expression, keyset?: Keyset): Expression[] {
  return (['after', 'before'] as const).flatMap((side) =>
    keyset?.[side] ? [keysetExpression(keys, id, keyset[side], side)] : [],
  );
}

/** The exact text of number keys, for the cursors of a keyset page. */
function exactKeys(sort: SortClauses, keyset?: Keyset): VariableExpression[] {
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
 * @example buildCountQuery(mapping, { type: tradeActivities, sort: [], filters: [] }, false)
 */
export function buildCountQuery(mapping: Mapping, request: ListRequest, oneGraph: boolean): SelectQuery {
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
export function listPatterns(mapping: Mapping, request: ListRequest, extra: Pattern[], parentRow = true): Pattern[] {
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

function projection(type: ResourceType): VariableTerm[] {
  return type.id.kind === 'predicate' ? [SUBJECT, idVariable(SUBJECT)] : [SUBJECT];
}
