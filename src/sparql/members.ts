import type { Expression, Pattern, Triple, VariableTerm } from 'sparqljs';
import type { IdLookup } from '../mapping/ids.js';
import type { IdStrategy, Mapping, Relationship, ResourceType } from '../mapping/model.js';
import { bgp, exists, filter, iri, literal, op, RDF_TYPE, str, triple, values, variable, xsdString } from './ast.js';

/** The variable holding the id literal of a `predicate`-strategy resource bound to `subject`. */
export const idVariable = (subject: VariableTerm): VariableTerm => variable(`${subject.value}_id`);

/**
 * Patterns that hold when `subject` is a member of `type`: it has the type's class and, per id
 * strategy, its id literal (bound to {@link idVariable}) or an IRI that has an id.
 */
export function memberPatterns(type: ResourceType, subject: VariableTerm): Pattern[] {
  const classAndId = bgp(triple(subject, RDF_TYPE, iri(type.classIri)), ...idTriples(type.id, subject));
  const id = type.id;
  if (id.kind === 'predicate') return [classAndId];
  const test =
    id.kind === 'template'
      ? op('regex', str(subject), literal(`^${escapeRegex(id.prefix)}[0-9a-f]+${escapeRegex(id.suffix)}$`))
      : id.base === ''
        ? op('isiri', subject)
        : underBase(id, subject);
  // Flat, not a group of its own: inside an EXISTS or an OPTIONAL, a sub-group is evaluated on its
  // own (every member of the type) before the join, which made a filter through a relationship
  // cost the whole type per resource on Oxigraph. The list query groups its own member patterns
  // (see list-query.ts), where sort BINDs would share the group.
  return [classAndId, filter(test)];
}

/**
 * `subject` is an IRI that starts with `base` and goes on past it (is not `base` itself: Virtuoso
 * reads that from the prefix, 3.0 ms of CPU for a filter through 70,000 trade activities' origin
 * countries, and spends 4.3 ms on the same test written with STRLEN); for `local` ids not
 * `base.` or `base..` either, whose local names are dot segments and have no id
 * (`mapping/local-id.ts`).
 */
function underBase(id: Extract<IdStrategy, { readonly base: string }>, subject: VariableTerm): Expression {
  const base = id.base;
  const others = id.kind === 'local' ? [base, `${base}.`, `${base}..`] : [base];
  return others.reduce<Expression>(
    (test, other) => op('&&', test, op('!=', str(subject), literal(other))),
    op('strstarts', str(subject), literal(base)),
  );
}

/**
 * The triple that links `from` to `to` along `relationship`: `from <p> to`, or `to <p> from` for
 * an inverse relationship.
 */
export function linkTriple(relationship: Relationship, from: VariableTerm, to: VariableTerm): Triple {
  const predicate = iri(relationship.predicate);
  return relationship.inverse ? triple(to, predicate, from) : triple(from, predicate, to);
}

/** Where a walk along relationships starts, what its targets are called, how they are tested. */
export interface HopWalk {
  /** The variable the first hop starts from. */
  readonly from: VariableTerm;
  /** The variable bound to the target of hop `j`. */
  readonly target: (j: number) => VariableTerm;
  /**
   * How each target's class and id triples go in: `'joined'` (the default) as triples of the
   * path; `'exists'` in a FILTER EXISTS after the hop that binds it (its IRI test stays a FILTER
   * of the path), for a path read once per member, where a store that orders the triples itself
   * must not start from the class (`sort-clauses.ts` keyPath says why).
   */
  readonly membership?: 'joined' | 'exists';
}

/**
 * The patterns along relationships `hops` (a sort or filter path) from `walk.from`, each target
 * bound to `walk.target(j)` and a member of its type. `end` is the last target (or `walk.from`
 * when there is no hop).
 *
 * @example hopPatterns(mapping, parsePath('origin.country.name').hops, { from: variable('s'), target: (j) => variable(`k0_${j}`) })
 */
export function hopPatterns(
  mapping: Mapping,
  hops: readonly Relationship[],
  walk: HopWalk,
): { patterns: Pattern[]; end: VariableTerm } {
  const patterns: Pattern[] = [];
  let from = walk.from;
  hops.forEach((hop, j) => {
    const to = walk.target(j);
    patterns.push(bgp(linkTriple(hop, from, to)));
    const [classAndId, ...tests] = memberPatterns(mapping.types.get(hop.target)!, to);
    patterns.push(walk.membership === 'exists' ? filter(exists(classAndId!)) : classAndId!, ...tests);
    from = to;
  });
  return { patterns, end: from };
}

/**
 * Patterns that bind `subject` to the resource a request id names, if it is a member of `type`.
 * A `predicate` id is looked up both as a plain and as an xsd:string literal: stores such as
 * Virtuoso keep the two apart, and the data may use either.
 */
export function lookupPatterns(type: ResourceType, lookup: IdLookup, subject: VariableTerm): Pattern[] {
  const classTriple = triple(subject, RDF_TYPE, iri(type.classIri));
  if (lookup.kind === 'iri') return [values([{ [subject.value]: iri(lookup.iri) }]), bgp(classTriple)];
  const id = idVariable(subject);
  return [
    values([{ [id.value]: literal(lookup.value) }, { [id.value]: xsdString(lookup.value) }]),
    bgp(...idTriples(type.id, subject), classTriple),
  ];
}

function idTriples(id: IdStrategy, subject: VariableTerm) {
  return id.kind === 'predicate' ? [triple(subject, iri(id.predicate), idVariable(subject))] : [];
}

/** XPath regular expressions (SPARQL's REGEX) share these metacharacters with JavaScript's. */
function escapeRegex(text: string): string {
  return text.replace(/[\\.*+?^${}()|[\]-]/g, '\\$&');
}
