import type { Term } from '@rdfjs/types';
import type { GroupPattern, Pattern, VariableTerm } from 'sparqljs';
import type { Attribute, LinkField } from '../mapping/model.js';
import { bgp, bind, literal, optional, variable } from './ast.js';
import { idVariable, linkTriple, memberPatterns } from './members.js';

/*
 * Resource linkage read with the attribute values (`mapping/linkage.ts`): each link field `i` of a
 * query binds `?lt<i>` to a target of the link, and `?lf<i>` to its relationship's name where that
 * target is a member of the target type (with `?lt<i>_id`, its id literal, for the `predicate`
 * strategy): the targets its related URL shows. Their own variables rather than `?f ?o`: in the OPTIONAL form each link is an
 * OPTIONAL of its own, not a branch of one OPTIONAL UNION (Virtuoso 7.2 answers that wrongly
 * after a VALUES of several resources, see `fetch-query.ts` optionalAttributes).
 */

/** The variables of link field `i`: its relationship's name, and its target. */
export const linkVariables = (i: number) => ({ name: variable(`lf${i}`), target: variable(`lt${i}`) });

const LINK_NAME = /^lf(\d+)$/;

/**
 * A result row's link fields: each bound `?lf<i>` (the relationship's name) with its target, as
 * the id literal for the `predicate` id strategy, else the IRI (`execute/rows.ts` keeps them as
 * the values of the relationship's name; `shape/resource-objects.ts` shows their linkage).
 */
export function* linkValues(row: Readonly<Record<string, Term>>): Generator<[Term, Term]> {
  for (const name in row) {
    // Every row of every fetch and list passes here: the prefix test spares the others the regex.
    if (!name.startsWith('lf')) continue;
    const i = LINK_NAME.exec(name)?.[1];
    if (i === undefined) continue;
    const { target } = linkVariables(Number(i));
    const found = row[idVariable(target).value] ?? row[target.value];
    if (found) yield [row[name]!, found];
  }
}

/** The plain attributes of a fetch's fields, and its link fields. */
export function splitFields(fields: readonly Attribute[]): { attributes: Attribute[]; links: LinkField[] } {
  const attributes: Attribute[] = [];
  const links: LinkField[] = [];
  for (const field of fields) {
    if (field.link) links.push(field as LinkField);
    else attributes.push(field);
  }
  return { attributes, links };
}

/**
 * What a query reading link fields projects: per link index its name and target and, where one of
 * `lists` has a `predicate`-id target there, its id; an include query gives a list per branch.
 */
export function linkProjection(...lists: (readonly LinkField[])[]): VariableTerm[] {
  const longest = Math.max(0, ...lists.map((links) => links.length));
  return Array.from({ length: longest }, (_, i) => {
    const { name, target } = linkVariables(i);
    const byId = lists.some((links) => links[i]?.link.target.id.kind === 'predicate');
    return byId ? [name, target, idVariable(target)] : [name, target];
  }).flat();
}

/** `{ subject <p> ?lt<i> OPTIONAL { (member of the target) BIND("name" AS ?lf<i>) } }`: one UNION branch per link. */
export function linkBranches(links: readonly LinkField[], subject: VariableTerm): GroupPattern[] {
  return links.map((link, i) => ({ type: 'group', patterns: linkPatterns(link, i, subject) }));
}

/** `OPTIONAL { subject <p> ?lt<i> OPTIONAL { (member of the target) BIND("name" AS ?lf<i>) } }`: one OPTIONAL per link. */
export function linkOptionals(links: readonly LinkField[], subject: VariableTerm): Pattern[] {
  return links.map((link, i) => optional(...linkPatterns(link, i, subject)));
}

function linkPatterns(
  { name, link: { relationship, target } }: LinkField,
  i: number,
  subject: VariableTerm,
): Pattern[] {
  const variables = linkVariables(i);
  // The membership test in an OPTIONAL of its own, after the link: evaluated for each target the
  // subject links to. Beside the link, Oxigraph began with the target type's members (every
  // amount, for a trade activity's one): 880 ms for 20 resources at 100k triples, 4 ms so. A
  // target that is not a member leaves `?lf<i>` unbound, and {@link linkValues} skips it.
  return [
    bgp(linkTriple(relationship, subject, variables.target)),
    optional(...memberPatterns(target, variables.target), bind(literal(name), variables.name)),
  ];
}
