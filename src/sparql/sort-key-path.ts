/**
 * The patterns from a list's member along a sort key's path to the key's value (`sort-clauses.ts`
 * binds them in OPTIONALs): each hop with its target's membership, then the attribute.
 */
import type { Pattern, VariableTerm } from 'sparqljs';
import type { Attribute, Mapping, SortKey } from '../mapping/model.js';
import { bgp, iri, triple, variable } from './ast.js';
import { strictLanguageFilter } from './language-tier.js';
import { hopPatterns } from './members.js';

/** Where a key's path starts, the variable its value goes to, and the prefix of its hops' variables. */
export interface KeyPathVariables {
  readonly from: VariableTerm;
  readonly value: VariableTerm;
  readonly prefix: string;
}

/**
 * The patterns from `variables.from` along a sort key's path to `variables.value`: each hop, with
 * its target's membership, then the attribute (in a strict language only, if so mapped). The
 * hops' targets are `?<prefix>0`, `?<prefix>1`, ….
 *
 * The hops of a to-one path test each target's class and id in a FILTER EXISTS, after the hop
 * binds it, rather than as triples of the path: Oxigraph orders an OPTIONAL's triples before it
 * knows that the OPTIONAL runs once per member with the member bound, and it started from the
 * class triple, its most constant one, so every member read every target of the type
 * (`/trade-activities?sort=amount.value`: 70,000 × 70,000, a 504 at 3,000 activities already).
 * In an EXISTS the target is bound when the test runs, one lookup per member on every store. The
 * IRI tests of other id strategies stay FILTERs of the path, outside the EXISTS: Virtuoso 7.2
 * drops a FILTER (NOT) EXISTS that applies a function to a variable of the outer pattern.
 *
 * @example keyPath(mapping, sortKey, { from: variable('s'), value: variable('key0'), prefix: 'k0_' })
 */
export function keyPath(mapping: Mapping, key: SortKey, variables: KeyPathVariables): Pattern[] {
  const end = key.path.end as Attribute;
  const toOne = key.path.hops.every((hop) => hop.cardinality === 'one');
  const { patterns, end: last } = hopPatterns(mapping, key.path.hops, {
    from: variables.from,
    target: (j) => variable(`${variables.prefix}${j}`),
    membership: toOne ? 'exists' : 'joined',
  });
  patterns.push(bgp(triple(last, iri(end.predicate), variables.value)));
  patterns.push(...strictLanguageFilter(variables.value, end)); // a strict language: values in other languages are no key
  return patterns;
}
