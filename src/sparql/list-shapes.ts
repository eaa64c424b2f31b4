import type { SelectQuery } from 'sparqljs';
import type { Attribute, Mapping } from '../mapping/model.js';
import type { ListRequest, Window } from '../plan/plan.js';
import { sortSignature } from '../request/parse-sort.js';
import { aggregate, bgp, bind, filter, integer, iri, literal, op, RDF_TYPE, str, triple, variable } from './ast.js';
import { withAttributeValues } from './fetch-query.js';
import { idSortExpression, idText } from './id-sort.js';
import { type KeyRange, keysetOrder, rangeClauses } from './keyset-clause.js';
import {
  exactKeys,
  ID_KEY,
  ID_SORT,
  keysetConditions,
  type ListShape,
  type ListWindow,
  listPatterns,
  listSort,
  min,
  projection,
  SUBJECT,
  select,
  windowClauses,
} from './list-query.js';
import { perMemberKey, perMemberKeyIndex } from './per-member-key.js';
import { type KeyExpression, keyVariable, type SortClauses, sortClauses } from './sort-clauses.js';
import type { TemplateMemo } from './template-memo.js';

/*
 * The list queries, one builder per shape (`ListShape`): the planner chooses the shape
 * (`execute/paths/list-shape.ts`) and calls the shape's builder ({@link LIST_QUERIES}). Rows carry
 * `?s` and, for `predicate` ids, `?s_id`; cursor pages also the sort keys' values (`?key<i>`).
 * With a parent, a parent that exists but points at nothing yields one row with `?s` unbound, and
 * a parent that does not exist yields no row, so one query tells 404 from empty (on the first page).
 */

/** A builder of one shape's list query: the window of `request`'s ordered members past the keyset's cursors. */
export type ListQueryBuilder = (mapping: Mapping, request: ListRequest, asked?: ListWindow) => SelectQuery;

/**
 * The list query of each shape. `flat`: the sort keys order the rows themselves, each member's
 * least value only, and a cursor's keyset FILTER goes into the pattern, so a deep cursor page costs
 * what a first page costs. `grouped` and `per-member` group the members first.
 *
 * @example LIST_QUERIES.flat(mapping, request, { window: { limit: 20, offset: 0 } })
 */
export const LIST_QUERIES: Readonly<Record<ListShape, ListQueryBuilder>> = {
  flat: (mapping, request, asked = {}) =>
    flatListQuery(mapping, request, { ...asked, sort: listSort(mapping, request) }),
  grouped: (mapping, request, asked = {}) =>
    groupedListQuery(mapping, request, { ...asked, sort: listSort(mapping, request) }),
  'per-member': (mapping, request, asked = {}) => perMemberListQuery(mapping, request, asked),
};

const OFFSET_LISTS = { name: 'offset-list', max: 32 } as const;

/**
 * The list query of an offset `window` in `shape`: for a flat list without parent or filters the
 * query is built once per type and sort and kept by the `memo`, the window set on a copy of it
 * (the planner builds every fallback's query before anything runs, and a histogram page's
 * fallback is this one: building it per request cost 0.1 ms of a collection page's CPU). Any
 * other list, or without a memo, is built whole (the same query).
 *
 * @example offsetListQuery(mapping, request, { shape: 'flat', window: { limit: 20, offset: 40 }, memo })
 */
export function offsetListQuery(
  mapping: Mapping,
  request: ListRequest,
  { shape, window, memo }: { shape: ListShape; window: Window; memo?: TemplateMemo | undefined },
): SelectQuery {
  if (shape !== 'flat' || request.parent || request.filters.length > 0 || !memo)
    return LIST_QUERIES[shape](mapping, request, { window });
  const key = JSON.stringify(sortSignature(request.sort));
  const whole = memo.kept(OFFSET_LISTS, request.type, key, () => LIST_QUERIES.flat(mapping, request));
  return { ...whole, ...windowClauses(window) };
}

/** What a flat list query is written of: the window, the sort clauses, and a key range (a histogram's window). */
export interface FlatListAsked extends ListWindow {
  readonly sort: SortClauses;
  /** Keeps the rows whose first key lies in it: a window read by its key histogram (`key-histogram.ts`). */
  readonly range?: KeyRange | undefined;
  /** The members joined to the parent, not OPTIONAL (`buildRelatedPageQuery`). */
  readonly joined?: boolean;
}

/**
 * The `flat` list query (see {@link LIST_QUERIES}); with a `range`, the window of a key histogram.
 *
 * @example flatListQuery(mapping, request, { sort: listSort(mapping, request), window, range })
 */
export function flatListQuery(
  mapping: Mapping,
  request: ListRequest,
  { sort, window, keyset, range, joined = false }: FlatListAsked,
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
      ...listPatterns(mapping, request, [...inRange.optionals, ...sort.leastValueOnly, ...binds], {
        parentRow: !joined,
      }),
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
  const page = flatListQuery(mapping, request, { sort, window, joined: true });
  return withAttributeValues(page, attributes);
}

function groupedListQuery(
  mapping: Mapping,
  request: ListRequest,
  { sort, window, keyset }: ListWindow & { readonly sort: SortClauses },
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
function perMemberListQuery(mapping: Mapping, request: ListRequest, { window, keyset }: ListWindow): SelectQuery {
  const { type } = request;
  const i = perMemberKeyIndex(request);
  if (i === undefined) throw new Error('A per-member list needs a key of several values per member');
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
