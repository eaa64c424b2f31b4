/**
 * Which members' changes made a kept list stale, when they are all it takes to bring it up to
 * date: then the window cache patches the list (`ListPatcher`) rather than read it whole.
 */
import type { Freshness, Reading } from './freshness.js';
import type { ListPatcher } from './list-windows.js';
import type { OrderedList } from './ordered-list.js';

/**
 * The subjects whose changes made a kept list stale: `changed`, as members' (`joinable`, those
 * that may have joined or left it); `targets`, as resources the sort path's hop leads to.
 */
export interface ChangedMembers {
  readonly changed: ReadonlySet<string>;
  readonly joinable: ReadonlySet<string>;
  readonly targets: ReadonlySet<string>;
}

/** A kept list as the patch sees it: the list, its reading, how to patch it (if it can be). */
export interface StaleList {
  readonly list: OrderedList;
  readonly reading: Reading;
  readonly patcher?: ListPatcher | undefined;
}

/** More changed members than this and a list is read whole rather than patched (one query's VALUES). */
export const MAX_PATCHED_MEMBERS = 500;

/**
 * The members whose changes made a kept list stale, when they are all it takes to bring it up
 * to date (`cache/patchable-list.ts`, and the ledger knows each changed subject): then the list
 * is patched, not read whole. `undefined` when it must be read whole.
 *
 * @example changedMembers(freshness, { list, reading, patcher })?.changed // Set { 'http://…/activity/7' }
 */
export function changedMembers(
  freshness: Freshness,
  { list, reading, patcher }: StaleList,
): ChangedMembers | undefined {
  if (list.blankKeys || !patcher) return undefined;
  const stale = freshness.staleReads(reading);
  if (stale === undefined || !patcher.confined(stale)) return undefined;
  const changed = new Set<string>();
  const joinable = new Set<string>();
  const targets = new Set<string>();
  for (const iri of stale) {
    const subjects = freshness.changedSubjects(reading.dataset, iri, reading.stamp);
    if (subjects === undefined) return undefined;
    const role = patcher.roleOf?.(iri) ?? { member: true, target: false, keyOnly: false };
    for (const subject of subjects) {
      if (role.target) targets.add(subject);
      if (!role.member) continue;
      changed.add(subject);
      if (!role.keyOnly) joinable.add(subject);
    }
    if (changed.size + targets.size > MAX_PATCHED_MEMBERS) return undefined;
  }
  return { changed, joinable, targets };
}
