import type { Pattern, SelectQuery } from 'sparqljs';
import type { IdLookup } from '../mapping/ids.js';
import type { ResourceType } from '../mapping/model.js';
import { bgp, iri, literal, optional, triple, values, variable } from './ast.js';
import { lookupPatterns } from './members.js';

/** Whose attributes to fetch: known member IRIs (from a list query), or one request id to look up. */
export type FetchSubjects = { readonly iris: readonly string[] } | { readonly lookup: IdLookup };

const S = variable('s');
const P = variable('p');
const F = variable('f');
const O = variable('o');

/**
 * Builds the one query that fetches every mapped attribute value of a set of resources: rows of
 * `?s ?f ?o` (field name, value). For a lookup it also checks membership, so a resource with no
 * attribute values still yields one row, and a missing one none.
 *
 * @example buildFetchQuery(concepts, { iris: ['http://linkedeconomy.org/resource/concept/0101'] })
 */
export function buildFetchQuery(type: ResourceType, subjects: FetchSubjects): SelectQuery {
  const fields = [...type.attributes.values()].map((a) => ({ p: iri(a.predicate), f: literal(a.name) }));
  const attributeValues: Pattern[] = fields.length > 0 ? [values(fields), bgp(triple(S, P, O))] : [];
  const where: Pattern[] = 'iris' in subjects
    ? [values(subjects.iris.map((value) => ({ s: iri(value) }))), ...attributeValues]
    : [...lookupPatterns(type, subjects.lookup, S), ...(attributeValues.length > 0 ? [optional(...attributeValues)] : [])];
  return { type: 'query', queryType: 'SELECT', prefixes: {}, variables: [S, F, O], where };
}
