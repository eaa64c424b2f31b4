import type { GroupPattern, Pattern, SelectQuery, UnionPattern } from 'sparqljs';
import type { Attribute, Relationship, ResourceType } from '../mapping/model.js';
import { bgp, integer, iri, values, variable } from './ast.js';
import { exactValue, optionalAttributes } from './fetch-query.js';
import { linkProjection, splitFields } from './link-fields.js';
import { idVariable, linkTriple, memberPatterns } from './members.js';
import { structuredProjection } from './structured.js';

/** One relationship to follow in an include query, from known source resources. */
export interface IncludeBranch {
  readonly relationship: Relationship;
  /** The relationship's target type: only its members count. */
  readonly target: ResourceType;
  /** IRIs of the resources to follow the relationship from. */
  readonly sources: readonly string[];
  /** The target attributes to fetch (the target type's fieldset); none asks for no value. */
  readonly attributes: readonly Attribute[];
}

/** Variables of each row: branch index, source, target (and its id literal), attribute name and value. */
export const INCLUDE_VARIABLES = {
  branch: variable('n'),
  source: variable('src'),
  target: variable('t'),
  field: variable('f'),
  value: variable('o'),
} as const;
const { branch: N, source: SRC, target: T, field: F, value: O } = INCLUDE_VARIABLES;

/**
 * Builds the one query of an include level: a UNION branch per relationship to follow, each
 * starting from its sources (VALUES), keeping targets that are members of the target type, and
 * OPTIONALly fetching the target's attribute values (`optionalAttributes`). Rows are `?n ?src ?t ?t_id ?f ?o`: `?n` is the
 * branch's index, `?t_id` the id literal of `predicate`-strategy targets, and a target with no
 * value yields one row with `?f ?o` unbound. So one query gives both the linkage (source → targets)
 * and the included resources' attributes, whatever the number of sources.
 *
 * @example buildIncludeQuery([{ relationship: concerns, target: concepts, sources: [activityIri], attributes: [notation, label] }])
 */
export function buildIncludeQuery(branches: readonly IncludeBranch[]): SelectQuery {
  const groups: GroupPattern[] = branches.map((b, n) => ({ type: 'group', patterns: branchPatterns(b, n) }));
  const where: Pattern[] =
    groups.length === 1 ? groups[0]!.patterns : [{ type: 'union', patterns: groups } satisfies UnionPattern];
  return {
    type: 'query',
    queryType: 'SELECT',
    prefixes: {},
    variables: [
      ...[N, SRC, T, idVariable(T), F, O, exactValue(O)],
      ...structuredProjection(
        branches.flatMap((b) => b.attributes),
        O,
        exactValue,
      ),
      ...linkProjection(...branches.map((b) => splitFields(b.attributes).links)),
    ],
    where,
  };
}

function branchPatterns({ relationship, target, sources, attributes }: IncludeBranch, n: number): Pattern[] {
  return [
    values(sources.map((source) => ({ n: integer(n), src: iri(source) }))),
    bgp(linkTriple(relationship, SRC, T)),
    ...memberPatterns(target, T),
    ...optionalAttributes(attributes, T, O),
  ];
}
