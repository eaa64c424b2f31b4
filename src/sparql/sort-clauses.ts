import type { Expression, Ordering, Pattern, VariableExpression, VariableTerm } from 'sparqljs';
import type { Mapping, ResourceType, SortKey } from '../mapping/model.js';
import { valueOrder } from '../request/filter-values.js';
import { bgp, bind, integer, iri, op, optional, str, triple, variable } from './ast.js';
import { comparableValue, exactDoubleText } from './comparable.js';
import { languageTier, strictLanguageFilter } from './language-tier.js';
import { idVariable, memberPatterns } from './members.js';

/** What a list of sort keys adds to a list query. */
export interface SortClauses {
  /** One OPTIONAL per attribute key, binding `?k<i>` to every value the path reaches. */
  readonly optionals: Pattern[];
  /** BINDs that derive language-tiered keys; they go last in the group (see below). */
  readonly binds: Pattern[];
  /** One aggregate per attribute key (`MIN(?k0) AS ?key0`); when empty, no GROUP BY is needed. */
  readonly aggregates: VariableExpression[];
  readonly order: Ordering[];
  /** Each sort key as the keyset comparison of cursor pagination sees it (`keyset-clause.ts`), in sort order. */
  readonly keys: KeyExpression[];
}

/**
 * One sort key in the list's order: `value` is what ORDER BY compares; `missing`, for attribute
 * keys, an aggregate that is 1 when the resource has no value (and then comes last), else 0.
 * Cursor pages order by it instead of `BOUND(?key<i>)`: once a FILTER after the GROUP BY mentions
 * `?key<i>`, Virtuoso takes an unbound `?key<i>` for a bound one in ORDER BY.
 */
export interface KeyExpression {
  readonly value: Expression;
  readonly descending: boolean;
  readonly missing?: VariableExpression;
  /** For a number key, its value as exact text (`comparable.ts` exactDoubleText), for cursors. */
  readonly exact?: VariableExpression;
}

/** The aggregate holding sort key `i`'s value in each row of a grouped list query. */
export const keyVariable = (i: number): VariableTerm => variable(`key${i}`);

/** The exact text of number sort key `i` in a keyset list query's rows. */
export const exactKeyVariable = (i: number): VariableTerm => variable(`key${i}_exact`);

/**
 * The expression a resource's id sorts by. `hex` ids sort like their IRIs (hex of UTF-8 bytes
 * keeps code point order) and so do template ids without a suffix; STR() because Virtuoso does
 * not order by an IRI's text otherwise.
 */
export function idSortExpression(type: ResourceType, subject: VariableTerm): Expression {
  const id = type.id;
  if (id.kind === 'predicate') return str(idVariable(subject));
  if (id.kind === 'template' && id.suffix !== '') {
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
 * Turns sort keys into SPARQL, with the README's sort semantics: resources missing a key come
 * last in both directions; a key that may have several values sorts by its minimum ascending and
 * its maximum descending, a single-valued one by the value the resource shows (its minimum, in the
 * preferred language); ties go to the id, ascending.
 */
export function sortClauses(
  mapping: Mapping,
  type: ResourceType,
  keys: readonly SortKey[],
  subject: VariableTerm,
): SortClauses {
  const clauses: SortClauses = { optionals: [], binds: [], aggregates: [], order: [], keys: [] };
  keys.forEach((key, i) => {
    const end = key.path.end;
    if (end === 'id') {
      const value = idSortExpression(type, subject);
      clauses.order.push({ expression: value, descending: key.descending });
      clauses.keys.push({ value, descending: key.descending });
      return;
    }
    const value = variable(`k${i}`);
    const patterns: Pattern[] = [];
    let from = subject;
    key.path.hops.forEach((hop, j) => {
      const to = variable(`k${i}_${j}`);
      patterns.push(bgp(hop.inverse ? triple(to, iri(hop.predicate), from) : triple(from, iri(hop.predicate), to)));
      patterns.push(...memberPatterns(mapping.types.get(hop.target)!, to));
      from = to;
    });
    patterns.push(bgp(triple(from, iri(end.predicate), value)));
    patterns.push(...strictLanguageFilter(value, end)); // a strict language: values in other languages are no key
    const useMax = key.descending && key.path.multiValued;
    clauses.optionals.push(optional(...patterns));
    const order = valueOrder(end);
    // What MIN/MAX pick from: the value the key compares by (comparable.ts), or for a language key
    // a tiered text; `present` is bound when the resource has a value.
    let aggregated: Expression = comparableValue(end, value);
    let present = value;
    if (end.language !== undefined) {
      // A language tier digit in front of the text makes MIN/MAX pick the preferred language
      // first; ORDER BY then skips the digit (see the README's sort semantics). The BIND comes
      // after the OPTIONALs, guarded by BOUND: Virtuoso evaluates a BIND inside an OPTIONAL even
      // when the OPTIONAL does not match, which made a missing key the smallest one.
      const tiered = variable(`t${i}`);
      const tier = languageTier(op('lang', value), end, useMax ? 'high' : 'low');
      clauses.binds.push(
        bind(op('if', op('bound', value), op('concat', tier, str(value)), variable(`none${i}`)), tiered),
      );
      aggregated = present = tiered;
    }
    const key_ = keyVariable(i);
    clauses.aggregates.push({
      expression: { type: 'aggregate', aggregation: useMax ? 'max' : 'min', expression: aggregated, distinct: false },
      variable: key_,
    });
    const compared = end.language !== undefined ? op('substr', key_, integer(2)) : key_;
    clauses.order.push({ expression: op('if', op('bound', key_), integer(0), integer(1)) });
    clauses.order.push({ expression: compared, descending: key.descending });
    const missing = op('if', op('bound', present), integer(0), integer(1));
    clauses.keys.push({
      value: compared,
      descending: key.descending,
      missing: {
        expression: { type: 'aggregate', aggregation: 'min', expression: missing, distinct: false },
        variable: variable(`missing${i}`),
      },
      ...(order === 'number' && { exact: { expression: exactDoubleText(key_), variable: exactKeyVariable(i) } }),
    });
  });
  return clauses;
}
