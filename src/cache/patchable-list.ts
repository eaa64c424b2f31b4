import type { Mapping, Relationship } from '../mapping/model.js';
import type { ListRequest } from '../plan/plan.js';
import { filterReads } from './plan-reads.js';

/** Whether a kept whole list can be patched after changes of `stale`, and if not, why. */
export type PatchDecision = { readonly patchable: true } | { readonly patchable: false; readonly why: string };

/**
 * What changes of each IRI a list query reads can touch, for a list that may be patched:
 * - `member`: IRIs whose triples have the member as subject (its class, its id predicate, its own
 *   sort key attributes, the predicate of the sort path's forward hop): a changed subject is the
 *   member itself;
 * - `target`: IRIs whose triples have a resource at the end of that hop as subject (its class, its
 *   id predicate, the key attribute): the members reached from a changed subject are touched;
 * - `hop`: that relationship, when the list is sorted through one.
 */
export interface PatchScope {
  readonly member: ReadonlySet<string>;
  readonly target: ReadonlySet<string>;
  readonly hop?: Relationship;
  /** The IRIs its filters read: a change of one may make a resource join or leave the list. */
  readonly filtered: ReadonlySet<string>;
  /** {@link sortKeyPredicates}: changes that move a listed member and make none join or leave. */
  readonly keyOnly: ReadonlySet<string>;
}

/**
 * Which changes a kept list can be patched after (see {@link PatchScope}), or why none: a list of a
 * type's own collection (no parent: a parent's link is a triple of another resource), sorted by
 * id and the members' own single-valued attributes in no language, or by one key computed per
 * member (`perMember`, the index `perMemberKeyIndex` gives: a to-many path, a language) through
 * at most one forward relationship. Deeper paths, inverse hops and flat keys through a
 * relationship are read whole.
 *
 * @example patchScope({ type: tradeActivities, sort: parseSort('concerns.label', mapping, tradeActivities), filters: [] }, mapping, 0).target // Set { skos:Concept, skos:prefLabel }
 */
export function patchScope(request: ListRequest, mapping: Mapping, perMember?: number): PatchScope | string {
  if (request.parent) return 'a related list (its members hang off a parent)';
  const { type } = request;
  const member = new Set<string>([type.classIri]);
  if (type.id.kind === 'predicate') member.add(type.id.predicate);
  const target = new Set<string>();
  let hop: Relationship | undefined;
  for (const [i, { path }] of request.sort.entries()) {
    if (path.end === 'id') continue;
    if (i === perMember && path.hops.length <= 1) {
      const [first] = path.hops;
      if (first === undefined) member.add(path.end.predicate);
      else {
        const reached = mapping.types.get(first.target);
        if (first.inverse || reached === undefined) return 'a sort key through an inverse relationship';
        hop = first;
        member.add(first.predicate);
        target.add(reached.classIri);
        if (reached.id.kind === 'predicate') target.add(reached.id.predicate);
        target.add(path.end.predicate);
      }
      continue;
    }
    if (path.hops.length > 0) return 'a sort key through a relationship';
    if (path.multiValued || path.end.language !== undefined) return 'a sort key of several values or in a language';
    member.add(path.end.predicate);
  }
  return {
    member,
    target,
    ...(hop && { hop }),
    filtered: filterReads(mapping, request.filters),
    keyOnly: sortKeyPredicates(request),
  };
}

/**
 * The one rule behind the window cache's patches (`cache/window-cache.ts`): a kept list that
 * changes of the IRIs `stale` made stale may be patched (the members they touched read again and
 * moved) instead of read whole, only when every stale IRI is in the list's {@link patchScope}
 * (so each change touches its subject, or the members that reach its subject over the sort
 * path's one hop), and no filter reads it (a filter through a relationship reads other resources'
 * triples, of the same predicates perhaps). Anything else is read whole again, as before patches.
 * Pure; the window cache works the scope out once per list and asks at each stale lookup and delta.
 *
 * @example patchDecision(patchScope({ type: tradeActivities, sort: tradeActivities.defaultSort, filters: [] }, mapping), [ELOD + 'financialYear']) // { patchable: true }
 */
export function patchDecision(scope: PatchScope | string, stale: readonly string[]): PatchDecision {
  if (typeof scope === 'string') return { patchable: false, why: scope };
  for (const iri of stale) {
    if (!scope.member.has(iri) && !scope.target.has(iri))
      return { patchable: false, why: `${iri} is not the members' class, id or sort key, nor its hop's` };
    if (scope.filtered.has(iri)) return { patchable: false, why: `a filter reads ${iri}` };
  }
  return { patchable: true };
}

/**
 * The predicates of a list's sort keys on its members' own attributes that are not also what
 * makes a resource a member (its class, its id predicate): a change of one moves a listed member
 * and can make no resource join or leave the list, since a member without a key value is listed
 * all the same (last). What a patch need not read again of a resource the list does not hold.
 *
 * @example sortKeyPredicates({ type: tradeActivities, sort: tradeActivities.defaultSort, filters: [] }) // Set { elod:financialYear }
 */
export function sortKeyPredicates(request: ListRequest): ReadonlySet<string> {
  const { type } = request;
  const keys = new Set<string>();
  for (const { path } of request.sort)
    if (path.end !== 'id') keys.add(path.hops.length === 0 ? path.end.predicate : path.hops[0]!.predicate);
  keys.delete(type.classIri);
  if (type.id.kind === 'predicate') keys.delete(type.id.predicate);
  return keys;
}
