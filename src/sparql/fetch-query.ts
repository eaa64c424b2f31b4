import type { Pattern, SelectQuery, VariableExpression, VariableTerm } from 'sparqljs';
import type { IdLookup } from '../mapping/ids.js';
import type { Attribute, ResourceType } from '../mapping/model.js';
import { bgp, iri, literal, optional, triple, values, variable } from './ast.js';
import { exactDoubleText } from './comparable.js';
import { lookupPatterns } from './members.js';

/** Whose attributes to fetch: known member IRIs (from a list query), or one request id to look up. */
export type FetchSubjects = { readonly iris: readonly string[] } | { readonly lookup: IdLookup };

const S = variable('s');
const P = variable('p');
const F = variable('f');
const O = variable('o');

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
  const attributeValues = attributePatterns(attributes, S, O);
  const where: Pattern[] =
    'iris' in subjects
      ? [values(subjects.iris.map((value) => ({ s: iri(value) }))), ...attributeValues]
      : [
          ...lookupPatterns(type, subjects.lookup, S),
          ...(attributeValues.length > 0 ? [optional(...attributeValues)] : []),
        ];
  return { type: 'query', queryType: 'SELECT', prefixes: {}, variables: [S, F, O, exactValue(O)], where };
}

/**
 * `VALUES (?p ?f) { (<predicate> "name") … } subject ?p object`: every value of the attributes,
 * with the attribute's name in `?f`; no pattern when there is no attribute to fetch.
 *
 * @example attributePatterns([label], variable('t'), variable('o'))
 */
export function attributePatterns(
  attributes: readonly Attribute[],
  subject: VariableTerm,
  object: VariableTerm,
): Pattern[] {
  const fields = attributes.map((a) => ({ p: iri(a.predicate), f: literal(a.name) }));
  return fields.length > 0 ? [values(fields), bgp(triple(subject, P, object))] : [];
}

/** The variable holding the exact text of a double value `?o` (see `comparable.ts`), as `?o_exact`. */
export const exactVariable = (value: VariableTerm): VariableTerm => variable(`${value.value}_exact`);

/** `(… AS ?o_exact)`: the exact text of `value` when it is a number, read for doubles by `execute/rows.ts`. */
export function exactValue(value: VariableTerm): VariableExpression {
  return { expression: exactDoubleText(value), variable: exactVariable(value) };
}
