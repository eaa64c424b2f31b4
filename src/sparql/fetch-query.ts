import type { GroupPattern, Pattern, SelectQuery, VariableExpression, VariableTerm } from 'sparqljs';
import type { IdLookup } from '../mapping/ids.js';
import type { Attribute, ResourceType } from '../mapping/model.js';
import { bgp, bind, iri, literal, op, optional, triple, values, variable } from './ast.js';
import { exactDoubleText } from './comparable.js';
import { linkBranches, linkOptionals, linkProjection, splitFields } from './link-fields.js';
import { lookupPatterns } from './members.js';
import { QueryTemplate } from './query-template.js';
import { structuredOptional, structuredProjection } from './structured.js';
import type { TemplateMemo } from './template-memo.js';
import type { FilledQuery } from './to-text.js';

/** Whose attributes to fetch: known member IRIs (from a list query), or one request id to look up. */
export type FetchSubjects = { readonly iris: readonly string[] } | { readonly lookup: IdLookup };

const S = variable('s');
const F = variable('f');
const O = variable('o');
const P = variable('p');

/**
 * Builds the one query that fetches the attribute values of a set of resources: rows of
 * `?s ?f ?o` (field name, value). `attributes` (every attribute of the type unless given) are the
 * only predicates asked for, so a sparse fieldset fetches no more than it shows. For a lookup it
 * also checks membership, so a resource with no attribute values still yields one row, and a
 * missing one none.
 *
 * @example buildFetchQuery(concepts, { iris: ['http://linkedeconomy.org/resource/concept/0101'] })
 */
export function buildFetchQuery(
  type: ResourceType,
  subjects: FetchSubjects,
  attributes: readonly Attribute[] = [...type.attributes.values()],
): SelectQuery {
  const { links } = splitFields(attributes);
  const where: Pattern[] =
    'iris' in subjects
      ? [values(subjects.iris.map((value) => ({ s: iri(value) }))), ...attributePatterns(attributes, S, O)]
      : [...lookupPatterns(type, subjects.lookup, S), ...optionalAttributes(attributes, S, O)];
  const variables = [
    S,
    F,
    O,
    exactValue(O),
    ...structuredProjection(attributes, O, exactValue),
    ...linkProjection(links),
  ];
  return { type: 'query', queryType: 'SELECT', prefixes: {}, variables, where };
}

/**
 * Each type's fetch templates, by the shape of the fetch (`fetchQuery`). Sparse fieldsets and page
 * sizes make many shapes possible: the most recently used are kept.
 */
const FETCH_TEMPLATES = { name: 'fetch', max: 64 } as const;

/**
 * {@link buildFetchQuery}'s query from a template of the type and the fetch's shape (a lookup by
 * IRI or by id literal, or that many IRIs; the attributes), with the IRIs or the id slotted in:
 * its text is written once per shape (`query-template.ts`), not per request.
 *
 * @example toText(fetchQuery(concepts, { iris: ['http://linkedeconomy.org/resource/concept/0101'] }))
 */
export function fetchQuery(
  type: ResourceType,
  subjects: FetchSubjects,
  attributes: readonly Attribute[] = [...type.attributes.values()],
  /** Keeps the template (`template-memo.ts`); without it the template is made for this query alone. */
  memo?: TemplateMemo,
): FilledQuery {
  const names = JSON.stringify(attributes.map((a) => a.name)); // unambiguous: a member name may hold a space
  const lookup = 'lookup' in subjects ? subjects.lookup : undefined;
  const values = 'iris' in subjects ? subjects.iris : [lookupValue(subjects.lookup)];
  const key = `${lookup?.kind ?? values.length} ${names}`;
  const make = () => {
    const shaped = (slots: readonly string[]): FetchSubjects =>
      lookup === undefined
        ? { iris: slots }
        : { lookup: lookup.kind === 'iri' ? { kind: 'iri', iri: slots[0]! } : { kind: 'literal', value: slots[0]! } };
    return new QueryTemplate((slots) => buildFetchQuery(type, shaped(slots), attributes));
  };
  return (memo ? memo.kept(FETCH_TEMPLATES, type, key, make) : make()).fill(values);
}

/** The IRI or the id literal's text a lookup is for. */
const lookupValue = (lookup: IdLookup) => (lookup.kind === 'iri' ? lookup.iri : lookup.value);

/**
 * `{ subject <predicate> object BIND("name" AS ?f) } UNION …`: every value of the attributes, with
 * the attribute's name in `?f`; no pattern when there is no attribute to fetch. One branch per
 * predicate rather than `VALUES (?p ?f) … subject ?p object`: Oxigraph scans every triple for the
 * latter (20 ms for a page of 20 at 100k triples, against 0.3 ms), Virtuoso plans both alike.
 *
 * @example attributePatterns([label], variable('t'), variable('o'))
 */
function attributePatterns(fields: readonly Attribute[], subject: VariableTerm, object: VariableTerm): Pattern[] {
  const { attributes, links } = splitFields(fields);
  const branches = attributes.map(
    (a): GroupPattern => ({
      type: 'group',
      patterns: [
        bgp(triple(subject, iri(a.predicate), object)),
        bind(literal(a.name), F),
        ...structuredOptional([a], F, object),
      ],
    }),
  );
  branches.push(...linkBranches(links, subject));
  if (branches.length <= 1) return branches.flatMap((branch) => branch.patterns);
  return [{ type: 'union', patterns: branches }];
}

/**
 * `OPTIONAL { VALUES (?p ?f) { (<predicate> "name") … } subject ?p object }`: every value of the
 * attributes with the attribute's name in `?f`, or one row with `?f ?o` unbound for a resource
 * without any; no pattern when there is no attribute to fetch. Not the UNION of
 * {@link attributePatterns} inside the OPTIONAL: Virtuoso 7.2 answers
 * `OPTIONAL { {…} UNION {…} UNION {…} }` after a VALUES with one resource's value of the last
 * branch for every resource, even those without one. Not a UNION with an empty branch instead of
 * the OPTIONAL either: Oxigraph then reads every triple of each predicate (55 ms for one
 * resource at 1M triples, against 0.1 ms). A structured attribute's fields are OPTIONALs inside
 * it (`structured.ts`), so its node's rows add to the values' rows rather than multiply them.
 *
 * @example optionalAttributes([name, created], variable('t'), variable('o'))
 */
export function optionalAttributes(
  fields: readonly Attribute[],
  subject: VariableTerm,
  object: VariableTerm,
): Pattern[] {
  const { attributes, links } = splitFields(fields);
  const linked = linkOptionals(links, subject);
  if (attributes.length === 0) return linked;
  const pairs = values(attributes.map((a) => ({ p: iri(a.predicate), f: literal(a.name) })));
  return [optional(pairs, bgp(triple(subject, P, object)), ...structuredOptional(attributes, F, object)), ...linked];
}

/**
 * A page query with its members' attribute values joined: the page (which projects `?s` and
 * orders by what it projects) as a sub-select, then {@link optionalAttributes}, ordered again by
 * the page's ORDER BY, since the join keeps no order of its own. A member with several values has
 * a row per value, all with its key values; one without any, one row with `?f ?o` unbound. The
 * page and its fetch in one query: one HTTP exchange and one query the store compiles less.
 *
 * @example withAttributeValues(rangePage, [...tradeActivities.attributes.values()])
 */
export function withAttributeValues(page: SelectQuery, attributes: readonly Attribute[]): SelectQuery {
  return {
    type: 'query',
    queryType: 'SELECT',
    prefixes: {},
    variables: [
      ...(page.variables as (VariableTerm | VariableExpression)[]).map(projected),
      F,
      O,
      guardedExactValue(O),
      ...structuredProjection(attributes, O, guardedExactValue),
      ...linkProjection(splitFields(attributes).links),
    ],
    where: [{ type: 'group', patterns: [page] }, ...optionalAttributes(attributes, S, O)],
    ...(page.order && { order: page.order }),
  };
}

/** What a sub-select projects, as the select around it names it: an expression by its variable. */
const projected = (v: VariableTerm | VariableExpression): VariableTerm => ('expression' in v ? v.variable : v);

/** The variable holding the exact text of a double value `?o` (see `comparable.ts`), as `?o_exact`. */
export const exactVariable = (value: VariableTerm): VariableTerm => variable(`${value.value}_exact`);

/**
 * `(… AS ?o_exact)`: the exact text of `value` when it is a number, read for doubles by
 * `execute/rows.ts`. For a query without an ORDER BY; {@link guardedExactValue} for one with.
 */
export function exactValue(value: VariableTerm): VariableExpression {
  return { expression: exactDoubleText(value), variable: exactVariable(value) };
}

/**
 * {@link exactValue} guarded with ISNUMERIC, for a query with an ORDER BY: Virtuoso 7.2 then works
 * it out before sorting, where a string that reads as a number ("0101") fails the whole query
 * (SR087: non numeric argument to '-') instead of leaving it unbound.
 */
export function guardedExactValue(value: VariableTerm): VariableExpression {
  return {
    expression: op('if', op('isnumeric', value), exactDoubleText(value), variable(`${value.value}_none`)),
    variable: exactVariable(value),
  };
}
