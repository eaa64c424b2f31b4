import type { Mapping } from '../mapping/model.js';
import type { ListRequest } from './plan.js';
import { filterReads } from './plan-reads.js';

/** Whether a kept whole list can be patched after changes of `stale`, and if not, why. */
export type PatchDecision = { readonly patchable: true } | { readonly patchable: false; readonly why: string };

/**
 * The one rule behind the window cache's patches (`execute/window-cache.ts`): a kept list that
 * changes of the IRIs `stale` made stale may be patched (its changed members read again and moved)
 * instead of read whole, only when those changes can have touched no member but the subjects of
 * the changed triples. That holds when the list query reads each stale IRI only of `?s`, the
 * member itself:
 * - a list of a type's own collection (no parent: a parent's link is a triple of another resource);
 * - sorted by the members' own single-valued attributes in no language, or by id (a key through a
 *   relationship reads the target's triples; a key of several values or in a language groups);
 * - each stale IRI is the members' class, their id predicate, or a sort key's predicate: a triple
 *   `(s, p, o)` of it changes what the list reads of `s` alone;
 * - no filter reads a stale IRI (a filter through a relationship reads other resources' triples,
 *   of the same predicates perhaps).
 * Anything else is read whole again, as before patches. Pure: the cache asks it at each stale
 * lookup and at each delta.
 *
 * @example patchableList(mapping, { type: tradeActivities, sort: tradeActivities.defaultSort, filters: [] }, [ELOD + 'financialYear']) // { patchable: true }
 */
export function patchableList(mapping: Mapping, request: ListRequest, stale: readonly string[]): PatchDecision {
  if (request.parent) return { patchable: false, why: 'a related list (its members hang off a parent)' };
  const { type } = request;
  const own = new Set<string>([type.classIri]);
  if (type.id.kind === 'predicate') own.add(type.id.predicate);
  for (const { path } of request.sort) {
    if (path.end === 'id') continue;
    if (path.hops.length > 0) return { patchable: false, why: 'a sort key through a relationship' };
    if (path.multiValued || path.end.language !== undefined)
      return { patchable: false, why: 'a sort key of several values or in a language' };
    own.add(path.end.predicate);
  }
  const filtered = filterReads(mapping, request.filters);
  for (const iri of stale) {
    if (!own.has(iri)) return { patchable: false, why: `${iri} is not the members' class, id or sort key` };
    if (filtered.has(iri)) return { patchable: false, why: `a filter reads ${iri}` };
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
  for (const { path } of request.sort) if (path.end !== 'id' && path.hops.length === 0) keys.add(path.end.predicate);
  keys.delete(type.classIri);
  if (type.id.kind === 'predicate') keys.delete(type.id.predicate);
  return keys;
}
