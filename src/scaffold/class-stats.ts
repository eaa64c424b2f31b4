import type { Term } from '@rdfjs/types';
import { isSafeAbsoluteIri } from '../mapping/iri.js';
import { INTEGER_TYPES, XSD } from '../rdf/vocabulary.js';
import type { Row } from '../store/store.js';
import type { IncomingStats, PredicateStats, Spread } from './model.js';

/** The rows of a class's statistics queries (`queries.ts`), as the store answered them. */
export interface StatsRows {
  readonly predicateRows: readonly Row[];
  readonly literalRows: readonly Row[];
  readonly objectRows: readonly Row[];
  readonly untypedRows: readonly Row[];
}

/**
 * Per predicate of a class's sample, its statistics, from the answers of `predicatesQuery`,
 * `literalsQuery`, `objectClassesQuery` and `untypedObjectsQuery` (pure; predicates in the order
 * of `predicatesQuery`). Values of no class are keyed `''` in `objectClasses`.
 *
 * @example predicateStats({ predicateRows, literalRows, objectRows, untypedRows })[0].objectClasses // { '': 3, 'http://x/C': 4 }
 */
export function predicateStats(rows: StatsRows): PredicateStats[] {
  const literalsOf = byPredicate(rows.literalRows);
  const objectsOf = byPredicate(rows.objectRows);
  const untypedOf = new Map(rows.untypedRows.flatMap((r) => (r.p ? [[r.p.value, count(r.values)] as const] : [])));
  return rows.predicateRows
    .filter((r) => r.p && isSafeAbsoluteIri(r.p.value))
    .map((r): PredicateStats => {
      const p = r.p!.value;
      const datatypes: Record<string, Spread> = {};
      const languages: Record<string, Spread> = {};
      for (const l of literalsOf.get(p) ?? []) {
        const tag = (l.language?.value ?? '').toLowerCase();
        const spread = { members: count(l.members), max: count(l.max) };
        if (tag !== '') languages[tag] = merge(languages[tag], spread);
        else if (l.datatype) datatypes[l.datatype.value] = merge(datatypes[l.datatype.value], spread);
      }
      const objectClasses: Record<string, number> = {};
      const untyped = untypedOf.get(p) ?? 0;
      if (untyped > 0) objectClasses[''] = untyped;
      for (const o of objectsOf.get(p) ?? [])
        if (o.class) objectClasses[o.class.value] = (objectClasses[o.class.value] ?? 0) + count(o.values);
      return {
        iri: p,
        members: count(r.members),
        max: count(r.max),
        literals: count(r.literals),
        iris: count(r.iris),
        blanks: count(r.blanks),
        datatypes: foldIntegers(datatypes),
        languages,
        objectClasses,
      };
    });
}

/**
 * Integers of every integer type counted as xsd:integer, and as decimals when the values also hold
 * decimals: each is one, and stores differ in which they keep (Virtuoso answers `DATATYPE`
 * xsd:integer for `"0"^^xsd:long`, and xsd:decimal for the sample's
 * `"90071992547409931"^^xsd:integer`), which would make the scaffold's comments differ by store.
 */
function foldIntegers(datatypes: Record<string, Spread>): Record<string, Spread> {
  const decimal = `${XSD}decimal`;
  const integer = datatypes[decimal] === undefined ? `${XSD}integer` : decimal;
  const folded: Record<string, Spread> = {};
  for (const [datatype, spread] of Object.entries(datatypes)) {
    const key = INTEGER_TYPES.has(datatype) ? integer : datatype;
    folded[key] = merge(folded[key], spread);
  }
  return folded;
}

/** The answer of `incomingQuery`, predicates and classes the server can name only. */
export function incomingStats(rows: readonly Row[]): IncomingStats[] {
  return rows
    .filter((r) => r.p && r.class && isSafeAbsoluteIri(r.p.value) && isSafeAbsoluteIri(r.class.value))
    .map((r) => ({ predicate: r.p!.value, fromClass: r.class!.value, members: count(r.members), max: count(r.max) }));
}

/** Rows grouped by their `?p`, in order: one pass, so that each predicate finds its rows at once. */
function byPredicate(rows: readonly Row[]): Map<string, Row[]> {
  const groups = new Map<string, Row[]>();
  for (const row of rows) {
    const p = row.p?.value;
    if (p === undefined) continue;
    const group = groups.get(p);
    if (group) group.push(row);
    else groups.set(p, [row]);
  }
  return groups;
}

function merge(a: Spread | undefined, b: Spread): Spread {
  return a === undefined ? b : { members: a.members + b.members, max: Math.max(a.max, b.max) };
}

/** A count the store answered; 0 when it is missing or not a number. */
export function count(term: Term | undefined): number {
  const n = Number(term?.value);
  return Number.isFinite(n) ? n : 0;
}
