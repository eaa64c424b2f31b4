import type { Expression, Ordering, Pattern, VariableExpression, VariableTerm } from 'sparqljs';
import type { Attribute, Mapping, ResourceType, SortKey } from '../mapping/model.js';
import { XSD_BOOLEAN } from '../rdf/vocabulary.js';
import { valueOrder } from '../request/filter-values.js';
import { aggregate, bind, filter, integer, literal, op, optional, variable } from './ast.js';
import { comparableValue, exactDoubleText, isNumberValue } from './comparable.js';
import { idSortExpression } from './id-sort.js';
import { tieredText } from './language-tier.js';
import { groupedSelect } from './per-member-key.js';
import { keyPath } from './sort-key-path.js';

/**
 * What a list of sort keys adds to a list query. Keys are *flat* when each can hold one value per
 * resource (a single-valued attribute through to-one hops, in no language): the query then orders
 * the rows themselves, with no GROUP BY. Otherwise (a `many` attribute, a to-many hop, a language
 * to choose) every attribute key is an aggregate over a GROUP BY of the members.
 */
export interface SortClauses {
  readonly flat: boolean;
  /**
   * One OPTIONAL per attribute key, binding every value the path reaches: `?key<i>` when flat, else
   * `?k<i>`; or, for a grouped key given the list's members, the member's own key `?m<i>`.
   */
  readonly optionals: Pattern[];
  /** BINDs that derive language-tiered keys; they go last in the group (see below). */
  readonly binds: Pattern[];
  /** Grouped only: one aggregate per attribute key (`MIN(?k0) AS ?key0`). */
  readonly aggregates: VariableExpression[];
  /** Grouped only: one aggregate per attribute key, 1 when the resource has no value, for cursor pages. */
  readonly missingFlags: VariableExpression[];
  /** Grouped only: the BINDs of each row's flag (`?f<i>`) that {@link missingFlags} aggregate; they go after {@link binds}. */
  readonly flagBinds: Pattern[];
  /**
   * Flat only: per attribute key, an OPTIONAL that finds the resource's values less than this
   * row's value, and the condition that it found none. Data that gives a single-valued attribute
   * several values then still lists each resource once, by its least value (the value it shows),
   * in both directions. SELECT DISTINCT alone does not: Virtuoso keeps another row than the first.
   * (Not FILTER NOT EXISTS: Virtuoso 7.2 drops the whole FILTER when the NOT EXISTS applies a
   * function to a variable of the outer pattern.)
   */
  readonly leastValueOnly: Pattern[];
  readonly leastValueConditions: Expression[];
  readonly order: Ordering[];
  /** Each sort key as the keyset comparison of cursor pagination sees it (`keyset-clause.ts`), in sort order. */
  readonly keys: KeyExpression[];
}

/**
 * One sort key in the list's order: `value` is what ORDER BY compares; `missing`, for attribute
 * keys, 1 when the resource has no value (it then comes last), else 0. Over a grouped query, cursor
 * pages order by an aggregate flag (`?missing<i>`) instead of `BOUND(?key<i>)`: once a FILTER after
 * the GROUP BY mentions `?key<i>`, Virtuoso takes an unbound `?key<i>` for a bound one in ORDER BY.
 */
export interface KeyExpression {
  readonly value: Expression;
  readonly descending: boolean;
  readonly missing?: Expression;
  /** For attribute keys: true when the resource has a value (`missing` is 0), for the keyset FILTER. */
  readonly present?: Expression;
  /** For a number key, its value as exact text (`comparable.ts` exactDoubleText), for cursors. */
  readonly exact?: VariableExpression;
  /** An `id` key: it orders every member apart, so the id's tie-break after it is left out. */
  readonly id?: true;
}

/** The aggregate holding sort key `i`'s value in each row of a grouped list query. */
export const keyVariable = (i: number): VariableTerm => variable(`key${i}`);

/** The exact text of number sort key `i` in a keyset list query's rows. */
export const exactKeyVariable = (i: number): VariableTerm => variable(`key${i}_exact`);

/** The list a sort is for: the variable of its members, and how they are bound. */
export interface SortedList {
  /** The variable bound to each member. */
  readonly subject: VariableTerm;
  /** The list hangs off a parent (a related list): see the least-value OPTIONAL of {@link flatKey}. */
  readonly underParent: boolean;
  /**
   * The patterns that bind the list's members on their own (a related list's parent, its link and
   * the members' class), if given: each key that may have several values (a to-many path, a
   * `many` attribute, a language to choose) is then computed per member over them, in a
   * sub-select of its own (see {@link groupedValue}).
   */
  readonly members?: readonly Pattern[];
}

/**
 * Turns sort keys into SPARQL, with the sort semantics of docs/api.md: resources missing a key come
 * last in both directions; a key that may have several values sorts by its minimum ascending and
 * its maximum descending, a single-valued one by its value (the value the resource shows: in the
 * preferred language); ties go to the id, ascending. A single-valued key the data gives several
 * values sorts by its least one, the value the resource shows.
 *
 * @example sortClauses(mapping, tradeActivities, parseSort('-financial-year', …), { subject: variable('s'), underParent: false })
 */
export function sortClauses(
  mapping: Mapping,
  type: ResourceType,
  keys: readonly SortKey[],
  list: SortedList,
): SortClauses {
  const flat = flatKeys(keys);
  const clauses: SortClauses = {
    flat,
    optionals: [],
    binds: [],
    aggregates: [],
    missingFlags: [],
    flagBinds: [],
    leastValueOnly: [],
    leastValueConditions: [],
    order: [],
    keys: [],
  };
  const build: KeyBuild = { mapping, list, clauses };
  keys.forEach((key, i) => {
    if (key.path.end === 'id') {
      const value = idSortExpression(type, list.subject);
      clauses.order.push({ expression: value, descending: key.descending });
      clauses.keys.push({ value, descending: key.descending, id: true });
    } else if (flat) flatKey(build, key, i);
    else groupedKey(build, key, i);
  });
  return clauses;
}

/** What an attribute key's clauses are built from, and the clauses they are added to. */
interface KeyBuild {
  readonly mapping: Mapping;
  readonly list: SortedList;
  readonly clauses: SortClauses;
}

/** The patterns binding `value` to the values of attribute key `key` (`keyPath`), hops named by `prefix`. */
const keyValues = (build: KeyBuild, key: SortKey, value: VariableTerm, prefix: string) =>
  keyPath(build.mapping, key, { from: build.list.subject, value, prefix });

/** Whether `keys` are {@link SortClauses.flat} (each the id, or single-valued with no language), without building the clauses. */
export const flatKeys = (keys: readonly SortKey[]): boolean =>
  keys.every(({ path }) => path.end === 'id' || (!path.multiValued && path.end.language === undefined));

/** Sort key `i` of a flat list: ordered by the row's own `?key<i>`, the least of its values. */
function flatKey(build: KeyBuild, key: SortKey, i: number): void {
  const { clauses } = build;
  const end = key.path.end as Attribute;
  const { descending } = key;
  const value = keyVariable(i);
  const compared = comparableValue(end, value);
  // A value of a number attribute that reads as no number is no key, as for a grouped key's MIN.
  const isNumber = valueOrder(end) === 'number';
  const present = isNumber ? isNumberValue(end, value) : op('bound', value);
  const missing = op('if', present, integer(0), integer(1));
  clauses.optionals.push(optional(...keyValues(build, key, value, `k${i}_`)));
  const other = variable(`key${i}_other`);
  // Under a parent, COALESCE(…, false): with two keys in a parent's OPTIONAL, Virtuoso 7.2
  // dropped a member's first key from its row when the second key's comparison met an unbound
  // value (/groups/10/items?sort=born,weight put the members without a weight first). Not in
  // a collection: there Virtuoso's keyset FILTER then lost members of cursor walks.
  const ordered = lessThan(end, comparableValue(end, other), compared);
  const less = build.list.underParent ? op('coalesce', ordered, literal('false', XSD_BOOLEAN)) : ordered;
  clauses.leastValueOnly.push(optional(...keyValues(build, key, other, `k${i}_other_`), filter(less)));
  clauses.leastValueConditions.push(op('!', op('bound', other)));
  clauses.order.push({ expression: missing }, { expression: compared, descending });
  clauses.keys.push({ value: compared, descending, missing, present, ...exactKey(end, compared, i) });
}

/**
 * Sort key `i` of a grouped list: the aggregate `?key<i>` (MIN, or MAX for a descending key of
 * several values) of {@link groupedValue}, and the flag of a member without any.
 */
function groupedKey(build: KeyBuild, key: SortKey, i: number): void {
  const { clauses } = build;
  const end = key.path.end as Attribute;
  const { descending } = key;
  const aggregation = descending && key.path.multiValued ? 'max' : 'min';
  const { aggregated, present } = groupedValue(build, key, i, aggregation);
  const key_ = keyVariable(i);
  clauses.aggregates.push({ expression: aggregate(aggregation, aggregated), variable: key_ });
  const missing = variable(`missing${i}`);
  // The flag is bound per row, then aggregated: Virtuoso 7.2 takes a key of a member hung off a
  // parent's OPTIONAL for bound inside an aggregate (MIN(IF(BOUND(?k0), 0, 1)) and COUNT(?k0)
  // gave 0 and 1 for a unit without ?k0), which put the members without it first on a cursor
  // page of a related list and lost them from a walk.
  const flag = variable(`f${i}`);
  clauses.flagBinds.push(bind(unboundFlag(present), flag));
  clauses.missingFlags.push({ expression: aggregate('min', flag), variable: missing });
  const compared = end.language !== undefined ? op('substr', key_, integer(2)) : key_;
  clauses.order.push({ expression: unboundFlag(key_) }, { expression: compared, descending });
  clauses.keys.push({
    value: compared,
    descending,
    missing,
    present: op('=', missing, integer(0)),
    ...exactKey(end, key_, i),
  });
}

/**
 * What the aggregate of grouped key `i` picks from (`aggregated`): the value the key compares by
 * (comparable.ts), or for a language key a tiered text, or the member's own key computed apart;
 * `present` is bound when the member has a value. Adds the OPTIONAL (and BIND) that bind them.
 */
function groupedValue(
  build: KeyBuild,
  key: SortKey,
  i: number,
  aggregation: 'min' | 'max',
): { aggregated: Expression; present: VariableTerm } {
  const { clauses, list } = build;
  const end = key.path.end as Attribute;
  const value = variable(`k${i}`);
  const tier = aggregation === 'max' ? 'high' : 'low';
  if (list.members && (key.path.multiValued || end.language !== undefined)) {
    // Each member's key, in a sub-select over the list's members alone, joined to the members
    // by an OPTIONAL: one row per member and key, where the OPTIONALs of the values themselves
    // join every key's values, so that a member has as many rows as the product of its keys'
    // values (a quantity kind's labels times its units' symbols: Jena ARQ past 10 s). Only for
    // keys that multiply rows: Virtuoso 7.2 lost a single-valued decimal key computed so after
    // a many key (/items/313133/see-also?sort=see-also.tags,amount,label, real-shapes).
    const perMember = variable(`m${i}`);
    const compared = end.language !== undefined ? tieredText(value, end, tier) : comparableValue(end, value);
    const pattern = [...list.members, ...keyValues(build, key, value, `k${i}_`)];
    const memberKey = { expression: aggregate(aggregation, compared), variable: perMember };
    clauses.optionals.push(optional(groupedSelect(list.subject, memberKey, pattern)));
    return { aggregated: perMember, present: perMember };
  }
  clauses.optionals.push(optional(...keyValues(build, key, value, `k${i}_`)));
  if (end.language === undefined) return { aggregated: comparableValue(end, value), present: value };
  // A language tier digit in front of the text makes MIN/MAX pick the preferred language
  // first; ORDER BY then skips the digit (see the sort semantics in docs/api.md). The BIND comes
  // after the OPTIONALs, guarded by BOUND: Virtuoso evaluates a BIND inside an OPTIONAL even
  // when the OPTIONAL does not match, which made a missing key the smallest one.
  const tiered = variable(`t${i}`);
  clauses.binds.push(bind(op('if', op('bound', value), tieredText(value, end, tier), variable(`none${i}`)), tiered));
  return { aggregated: tiered, present: tiered };
}

/** `a < b` in a key's order. Booleans by truth value: Oxigraph's `<` on booleans is an error. */
function lessThan(attribute: Attribute, a: Expression, b: Expression): Expression {
  return attribute.datatype === XSD_BOOLEAN ? op('&&', op('!', a), b) : op('<', a, b);
}

const unboundFlag = (value: VariableTerm) => op('if', op('bound', value), integer(0), integer(1));

/** The exact text of a number key's value (`?key<i>_exact`), read back for cursors. */
function exactKey(attribute: Attribute, compared: Expression, i: number): { exact?: VariableExpression } {
  return valueOrder(attribute) === 'number'
    ? { exact: { expression: exactDoubleText(compared), variable: exactKeyVariable(i) } }
    : {};
}
