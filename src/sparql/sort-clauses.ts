import type { Expression, Ordering, Pattern, VariableExpression, VariableTerm } from 'sparqljs';
import { sortsByIdText } from '../mapping/ids.js';
import type { Attribute, Mapping, ResourceType, SortKey } from '../mapping/model.js';
import { XSD_BOOLEAN } from '../rdf/vocabulary.js';
import { valueOrder } from '../request/filter-values.js';
import { aggregate, bgp, bind, filter, integer, iri, literal, op, optional, str, triple, variable } from './ast.js';
import { comparableValue, exactDoubleText, isNumberValue } from './comparable.js';
import { strictLanguageFilter, tieredText } from './language-tier.js';
import { hopPatterns, idVariable } from './members.js';
import { groupedSelect } from './per-member-key.js';
import { textKey } from './text-key.js';

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

/**
 * The expression a resource's id sorts by (`mapping/ids.ts` sortsByIdText): the id's text, or the
 * IRI's (`hex` ids sort like their IRIs, hex of UTF-8 bytes keeping code point order, and so do
 * template ids without a suffix); STR() because Virtuoso does not order by an IRI's text otherwise.
 * A text key (`text-key.ts`), in code point order on every engine.
 */
export function idSortExpression(type: ResourceType, subject: VariableTerm): Expression {
  return textKey(idText(type, subject));
}

/** The text a resource's id sorts by ({@link idSortExpression}), as text: what a grouped query's MIN of it holds. */
export function idText(type: ResourceType, subject: VariableTerm): Expression {
  const id = type.id;
  if (id.kind === 'predicate') return str(idVariable(subject));
  if (id.kind === 'template' && sortsByIdText(id)) {
    const text = str(subject);
    return op(
      'substr',
      text,
      integer(id.prefix.length + 1),
      op('-', op('strlen', text), integer(id.prefix.length + id.suffix.length)),
    );
  }
  return str(subject);
}

/**
 * Turns sort keys into SPARQL, with the sort semantics of docs/api.md: resources missing a key come
 * last in both directions; a key that may have several values sorts by its minimum ascending and
 * its maximum descending, a single-valued one by its value (the value the resource shows: in the
 * preferred language); ties go to the id, ascending. A single-valued key the data gives several
 * values sorts by its least one, the value the resource shows.
 */
export function sortClauses(
  mapping: Mapping,
  type: ResourceType,
  keys: readonly SortKey[],
  subject: VariableTerm,
  /** The list hangs off a parent (a related list): see the least-value OPTIONAL below. */
  underParent = false,
  /**
   * The patterns that bind the list's members on their own (a related list's parent, its link and
   * the members' class), if given: each key that may have several values (a to-many path, a
   * `many` attribute, a language to choose) is then computed per member over them, in a
   * sub-select of its own (see below).
   */
  members?: readonly Pattern[],
): SortClauses {
  const flat = keys.every(({ path }) => path.end === 'id' || (!path.multiValued && path.end.language === undefined));
  const clauses = {
    flat,
    optionals: [] as Pattern[],
    binds: [] as Pattern[],
    aggregates: [] as VariableExpression[],
    missingFlags: [] as VariableExpression[],
    flagBinds: [] as Pattern[],
    leastValueOnly: [] as Pattern[],
    leastValueConditions: [] as Expression[],
    order: [] as Ordering[],
    keys: [] as KeyExpression[],
  };
  keys.forEach((key, i) => {
    const { end } = key.path;
    if (end === 'id') {
      const value = idSortExpression(type, subject);
      clauses.order.push({ expression: value, descending: key.descending });
      clauses.keys.push({ value, descending: key.descending, id: true });
      return;
    }
    const { descending } = key;
    if (flat) {
      const value = keyVariable(i);
      const compared = comparableValue(end, value);
      // A value of a number attribute that reads as no number is no key, as for a grouped key's MIN.
      const isNumber = valueOrder(end) === 'number';
      const present = isNumber ? isNumberValue(end, value) : op('bound', value);
      const missing = op('if', present, integer(0), integer(1));
      clauses.optionals.push(optional(...keyPath(mapping, key, subject, value, `k${i}_`)));
      const other = variable(`key${i}_other`);
      // Under a parent, COALESCE(…, false): with two keys in a parent's OPTIONAL, Virtuoso 7.2
      // dropped a member's first key from its row when the second key's comparison met an unbound
      // value (/groups/10/items?sort=born,weight put the members without a weight first). Not in
      // a collection: there Virtuoso's keyset FILTER then lost members of cursor walks.
      const ordered = lessThan(end, comparableValue(end, other), compared);
      const less = underParent ? op('coalesce', ordered, literal('false', XSD_BOOLEAN)) : ordered;
      clauses.leastValueOnly.push(optional(...keyPath(mapping, key, subject, other, `k${i}_other_`), filter(less)));
      clauses.leastValueConditions.push(op('!', op('bound', other)));
      clauses.order.push({ expression: missing }, { expression: compared, descending });
      clauses.keys.push({ value: compared, descending, missing, present, ...exactKey(end, compared, i) });
      return;
    }
    const value = variable(`k${i}`);
    const useMax = descending && key.path.multiValued;
    // What MIN/MAX pick from: the value the key compares by (comparable.ts), or for a language key
    // a tiered text; `present` is bound when the resource has a value.
    let aggregated: Expression = comparableValue(end, value);
    let present = value;
    if (members && (key.path.multiValued || end.language !== undefined)) {
      // Each member's key, in a sub-select over the list's members alone, joined to the members
      // by an OPTIONAL: one row per member and key, where the OPTIONALs of the values themselves
      // join every key's values, so that a member has as many rows as the product of its keys'
      // values (a quantity kind's labels times its units' symbols: Jena ARQ past 10 s). Only for
      // keys that multiply rows: Virtuoso 7.2 lost a single-valued decimal key computed so after
      // a many key (/items/313133/see-also?sort=see-also.tags,amount,label, real-shapes).
      const perMember = variable(`m${i}`);
      const compared = end.language !== undefined ? tieredText(value, end, useMax ? 'high' : 'low') : aggregated;
      const pattern = [...members, ...keyPath(mapping, key, subject, value, `k${i}_`)];
      clauses.optionals.push(
        optional(
          groupedSelect(
            subject,
            { expression: aggregate(useMax ? 'max' : 'min', compared), variable: perMember },
            pattern,
          ),
        ),
      );
      aggregated = present = perMember;
    } else clauses.optionals.push(optional(...keyPath(mapping, key, subject, value, `k${i}_`)));
    if (end.language !== undefined && !members) {
      // A language tier digit in front of the text makes MIN/MAX pick the preferred language
      // first; ORDER BY then skips the digit (see the sort semantics in docs/api.md). The BIND comes
      // after the OPTIONALs, guarded by BOUND: Virtuoso evaluates a BIND inside an OPTIONAL even
      // when the OPTIONAL does not match, which made a missing key the smallest one.
      const tiered = variable(`t${i}`);
      clauses.binds.push(
        bind(
          op('if', op('bound', value), tieredText(value, end, useMax ? 'high' : 'low'), variable(`none${i}`)),
          tiered,
        ),
      );
      aggregated = present = tiered;
    }
    const key_ = keyVariable(i);
    clauses.aggregates.push({ expression: aggregate(useMax ? 'max' : 'min', aggregated), variable: key_ });
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
  });
  return clauses;
}

/**
 * The patterns from `subject` along a sort key's path to `value`: each hop, with its target's
 * membership, then the attribute (in a strict language only, if so mapped). `prefix` names the
 * hops' variables.
 *
 * The hops of a to-one path test each target's class and id in a FILTER EXISTS, after the hop
 * binds it, rather than as triples of the path: Oxigraph orders an OPTIONAL's triples before it
 * knows that the OPTIONAL runs once per member with `subject` bound, and it started from the
 * class triple, its most constant one, so every member read every target of the type
 * (`/trade-activities?sort=amount.value`: 70,000 × 70,000, a 504 at 3,000 activities already).
 * In an EXISTS the target is bound when the test runs, one lookup per member on every store. The
 * IRI tests of other id strategies stay FILTERs of the path, outside the EXISTS: Virtuoso 7.2
 * drops a FILTER (NOT) EXISTS that applies a function to a variable of the outer pattern.
 */
function keyPath(
  mapping: Mapping,
  key: SortKey,
  subject: VariableTerm,
  value: VariableTerm,
  prefix: string,
): Pattern[] {
  const end = key.path.end as Attribute;
  const name = (j: number) => variable(`${prefix}${j}`);
  const toOne = key.path.hops.every((hop) => hop.cardinality === 'one');
  const { patterns, end: from } = hopPatterns(mapping, key.path.hops, {
    from: subject,
    target: name,
    membership: toOne ? 'exists' : 'joined',
  });
  patterns.push(bgp(triple(from, iri(end.predicate), value)));
  patterns.push(...strictLanguageFilter(value, end)); // a strict language: values in other languages are no key
  return patterns;
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
