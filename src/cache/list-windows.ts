/**
 * The window cache's contract (`window-cache.ts`): how a dataset asks it for a whole ordered list
 * ({@link ListWindows}), how a kept list is patched after changes ({@link ListPatcher}), and what
 * it reports. The executor's side of it is `kept-lists.ts`.
 */
import type { Freshness } from './freshness.js';
import type { OrderedList } from './ordered-list.js';

export interface WindowCacheOptions {
  /** Bound on the memory all lists hold together (estimated, see `orderedListBytes`); 256 MiB by default. */
  readonly maxBytes?: number;
  /** The clock TTLs are measured with (`performance` by default); tests pass one they can move. */
  readonly clock?: { now(): number };
  /** The ledger of changes (deltas) lists are checked against; a private one (nothing ever changes) by default. */
  readonly freshness?: Freshness;
}

/**
 * A dataset's use of a window cache, kept for its TTL. A page asks with `listNow` and never waits
 * on a whole list's reading; `list` waits on it, for the reads made before the server listens
 * (`warm-lists.ts`).
 */
export interface ListWindows {
  /**
   * The ordered list whose list query is `key` (its text: the whole request as the store sees
   * it): the cached one, or the one `compute` reads, shared by every lookup that asks while it
   * runs, and kept if it fits. `compute` resolves `undefined` when the store cannot give the whole
   * list (it cut the result short); then this does too. A list bigger than the cache's bound
   * still answers the lookup that read it, but is not kept: `undefined` later too, so that the
   * whole list is not read again and again.
   * `reads` gives the IRIs the list depends on (`cache/plan-reads.ts`), asked only when the list is
   * read from the store, not on a hit: a change to one of them
   * (`Freshness`) makes the kept list stale, and a reading that started before the change is
   * neither joined by later lookups nor kept. A list that changes faster than it can be read
   * (its reading went stale) is not read whole again for a while (`CHURN_BACKOFF_MS`): meanwhile
   * `undefined`. With a `patcher`, a list made
   * stale only by changes of its own members (kept, or a reading that went stale so) is kept
   * stale and patched by the next lookup that asks for it: one query for the changed members,
   * not the whole list (docs/live-data.md, "Lists patched in place").
   */
  readonly list: ListLookup;
  /**
   * {@link ListWindows.list} for a page, which never waits on a whole reading: the kept list
   * (patched first when it can be, one query of its changed members), or `undefined` at once while
   * none is kept; then a reading of the whole list is started in the background unless one runs
   * (or the list churns, or its last reading failed a moment ago), and the caller reads its page
   * from the store. `compute` reads with a deadline of its own, not the request's.
   */
  readonly listNow: ListLookup;
}

/** A lookup of one list: its key (the list query's text), the IRIs it reads, how to read it whole, how to patch it. */
export type ListLookup = (
  key: string,
  reads: () => readonly string[],
  compute: () => Promise<OrderedList | undefined>,
  patcher?: ListPatcher,
) => Promise<OrderedList | undefined>;

/**
 * How a kept list is brought up to date after changes confined to known members, rather than read
 * whole: `confined` says whether changes of the stale IRIs can have touched no member but the
 * subjects of the changed triples (`cache/patchable-list.ts`); `patch` reads those again and moves
 * them (`patch-list.ts`), `undefined` when it cannot be sure where they go.
 */
export interface ListPatcher {
  confined(stale: readonly string[]): boolean;
  /**
   * Whose triples a change of this stale IRI is, in the list: its `member`s' (the subject is a
   * member), and/or those of the resources the sort path's hop leads to (`target`: the members
   * reaching the subject changed, a concept whose label a key reads); `keyOnly`, whether it can
   * only move a member, never make a resource join or leave the list (a sort key's predicate: a
   * member without a key is listed all the same). Every stale IRI is a member's when not given.
   */
  roleOf?(iri: string): { readonly member: boolean; readonly target: boolean; readonly keyOnly: boolean };
  /**
   * `changed`: the changed subjects that are members' (`joinable`, those that may have joined or
   * left the list: all of `changed` unless given; the others matter only if listed); `targets`:
   * the changed resources the hop leads to.
   */
  patch(
    list: OrderedList,
    changed: ReadonlySet<string>,
    joinable?: ReadonlySet<string>,
    targets?: ReadonlySet<string>,
  ): Promise<OrderedList | undefined>;
}

/** What `/metrics` reports of a window cache. */
export interface WindowCacheStats {
  readonly entries: number;
  readonly bytes: number;
  /** By dataset: pages cut from a cached list, and pages whose list was not cached (read, or not cacheable). */
  readonly hits: ReadonlyMap<string, number>;
  readonly misses: ReadonlyMap<string, number>;
  /** By dataset: stale lists patched (their changed members read again and moved) rather than read whole. */
  readonly patched: ReadonlyMap<string, number>;
}
