import type { Expression, Pattern, SelectQuery, VariableExpression, VariableTerm } from 'sparqljs';
import type { Attribute, Mapping, SortKey } from '../mapping/model.js';
import type { ListRequest } from '../plan/plan.js';
import { valueOrder } from '../request/filter-values.js';
import { aggregate, bgp, iri, triple, variable } from './ast.js';
import { strictLanguageFilter, tieredText } from './language-tier.js';
import { linkTriple, memberPatterns } from './members.js';

/**
 * A text sort key that may have several values (a to-many path, a language to choose), computed
 * per member in sub-selects that each store plans well: first per resource at the end of the path
 * (each concept's least label), then one level per hop back to the members (each activity's
 * least concept key; see {@link perMemberKey}). The list query joins it to the members in one
 * UNION branch, with a branch that gives every member the {@link PerMemberKey.placeholder}, and
 * groups by member: the aggregate then holds the member's key, or the placeholder when it has
 * none. Not an OPTIONAL: Virtuoso runs an OPTIONAL sub-select once per member (1.1 s over 70,000
 * activities at 1M triples, against 0.4 s for this form), and Oxigraph's plan for an OPTIONAL
 * path inside a GROUP BY grows with the square of the members (more than 60 s at 1M). Oxigraph
 * alone would read the whole list faster with the sub-select in an OPTIONAL and no GROUP BY (1.8 s
 * of CPU against 2.5 for this form, 70,000 activities by -concerns.label), but Virtuoso slower
 * (3.4 s against 2.4), so the form stays.
 *
 * Values are text with a tier character in front (the language tier, `language-tier.ts`, or "0"
 * for a key in no language), so MIN (MAX descending) picks the preferred language first; the
 * placeholder sorts after every value (MIN) or before it (MAX), and ORDER BY skips the character.
 */
export interface PerMemberKey {
  /** `{ SELECT ?s (MIN(?c) AS ?t<i>) WHERE { …path… } GROUP BY ?s }`, binding `value` per member. */
  readonly pattern: Pattern;
  readonly value: VariableTerm;
  readonly aggregation: 'min' | 'max';
  /** What a member without a value gets: "~" after every tier character for MIN, "" for MAX. */
  readonly placeholder: string;
}

/**
 * Which sort key of a list its list query computes per member (see {@link PerMemberKey}), if any:
 * the only attribute key of a list that hangs off no parent, when it compares as text and its path
 * may give several values (or a language to choose). Other such lists group their members.
 *
 * @example perMemberKeyIndex({ sort: parseSort('concerns.label,id', mapping, activities) }) // 0
 */
export function perMemberKeyIndex(request: Pick<ListRequest, 'sort' | 'parent'>): number | undefined {
  if (request.parent !== undefined) return undefined;
  const attributes = request.sort.flatMap(({ path }, i) => (path.end === 'id' ? [] : [{ path, i }]));
  if (attributes.length !== 1) return undefined;
  const [{ path, i }] = attributes as [(typeof attributes)[number]];
  const end = path.end as Attribute;
  return (path.multiValued || end.language !== undefined) && valueOrder(end) === 'text' ? i : undefined;
}

/**
 * The text a tiered key's value compares by (ORDER BY skips the tier character), or null for a
 * placeholder: a member without a value. Grouped language keys are tiered too (`sort-clauses.ts`).
 *
 * @example tieredKeyText('0Metre') // 'Metre'
 */
export function tieredKeyText(value: string): string | null {
  return value === '' || value === '~' ? null : value.slice(1);
}

/**
 * The per-member sub-select of sort key `i` for members bound to `subject` (see {@link PerMemberKey}).
 *
 * Nested one level per hop, from the end of the path back to the members: each resource at the
 * end gets its least (greatest) tiered value, each resource a hop before it the least of the keys
 * of the resources its hop leads to (its own membership checked in its group), and so on to the
 * members. The least of the least values is the least value along every path, so the key is the
 * same as over the whole path at once; but each level groups the few resources of its type, not
 * every member's paths: through two to-many hops (`concerns.broader-concepts.notation`, 2,000
 * concepts under 70,000 activities at 1M triples) Virtuoso spent 510 ms of CPU on a page of the
 * flat form, 290 on this one, what one hop costs.
 *
 * @example perMemberKey(mapping, parseSort('concerns.label', mapping, activities)[0], 0, variable('s'))
 */
export function perMemberKey(mapping: Mapping, key: SortKey, i: number, subject: VariableTerm): PerMemberKey {
  const end = key.path.end as Attribute;
  const { hops } = key.path;
  const useMax = key.descending && key.path.multiValued;
  const aggregation = useMax ? 'max' : 'min';
  const placeholder = useMax ? '' : '~';
  const value = variable(`t${i}`);
  const target = (j: number) => variable(`k${i}_${j}`);
  // The key of the resource hop j leads to: `?c<i>` at the end of the path.
  const keyOf = (j: number) => (j === -1 ? value : variable(j === hops.length - 1 ? `c${i}` : `c${i}_${j}`));
  const member = (j: number) => {
    const type = hops[j]?.target;
    return type === undefined ? [] : memberPatterns(mapping.types.get(type)!, target(j));
  };
  // The resources at the end of the path (the members themselves without a hop), each one's key.
  const last = hops.length - 1;
  const at = last === -1 ? subject : target(last);
  const endValue = variable(`k${i}`);
  // `(MIN(expression) AS ?key)` (or MAX) of the resource hop j leads to.
  const keyAs = (j: number, expression: Expression): VariableExpression => ({
    expression: aggregate(aggregation, expression),
    variable: keyOf(j),
  });
  let pattern = groupedSelect(at, keyAs(last, tieredText(endValue, end, useMax ? 'high' : 'low')), [
    ...member(last),
    bgp(triple(at, iri(end.predicate), endValue)),
    ...strictLanguageFilter(endValue, end),
  ]);
  // Back along the hops: each resource's key over the hop that leaves it.
  for (let j = last; j >= 0; j--) {
    const from = j === 0 ? subject : target(j - 1);
    pattern = groupedSelect(from, keyAs(j - 1, keyOf(j)), [
      ...member(j - 1),
      bgp(linkTriple(hops[j]!, from, target(j))),
      pattern,
    ]);
  }
  return { pattern, value, aggregation, placeholder };
}

/**
 * `{ SELECT ?by (AGG(expression) AS ?key) WHERE { patterns } GROUP BY ?by }`, `key` being the
 * aggregate and its variable.
 *
 * @example groupedSelect(variable('s'), { expression: aggregate('min', variable('k0')), variable: variable('m0') }, patterns)
 */
export function groupedSelect(by: VariableTerm, key: VariableExpression, patterns: readonly Pattern[]): Pattern {
  const query: SelectQuery = {
    type: 'query',
    queryType: 'SELECT',
    prefixes: {},
    variables: [by, key],
    where: [...patterns],
    group: [{ expression: by }],
  };
  return { type: 'group', patterns: [query] };
}
