import { LRUCache } from 'lru-cache';
import { StoreError } from '../store/store.js';
import { Freshness, type Reading } from './freshness.js';
import { type OrderedList, orderedListBytes } from './ordered-list.js';

export interface WindowCacheOptions {
  /** Bound on the memory all lists hold together (estimated, see `orderedListBytes`); 256 MiB by default. */
  readonly maxBytes?: number;
  /** The clock TTLs are measured with (`performance` by default); tests pass one they can move. */
  readonly clock?: { now(): number };
  /** The ledger of changes (deltas) lists are checked against; a private one (nothing ever changes) by default. */
  readonly freshness?: Freshness;
}

/** A dataset's use of a window cache: `list` answers with the dataset's lists, kept for its TTL. */
export interface ListWindows {
  /**
   * The ordered list whose list query is `key` (its text: the whole request as the store sees
   * it): the cached one, or the one `compute` reads, shared by every request that asks while it
   * runs, and kept if it fits. `compute` resolves `undefined` when the store cannot give the whole
   * list (it cut the result short); then this does too, and the caller asks the store for its page.
   * A list bigger than the cache's bound still answers the request that read it, but is not kept:
   * `undefined` for later requests too, so that each does not read the whole list again.
   * `reads` gives the IRIs the list depends on (`cache/plan-reads.ts`), asked only when the list is
   * read from the store, not on a hit: a change to one of them
   * (`Freshness`) makes the kept list stale, and a reading that started before the change is
   * neither joined by later requests nor kept. A list that changes faster than it can be read
   * (its reading went stale) is not read whole again for a while (`CHURN_BACKOFF_MS`): meanwhile
   * `undefined`, and each request reads its page from the store. With a `patcher`, a list made
   * stale only by changes of its own members (kept, or a reading that went stale so) is kept
   * stale and patched by the next request that asks for it: one query for the changed members,
   * not the whole list (docs/live-data.md, "Lists patched in place").
   */
  readonly list: ListLookup;
  /**
   * {@link ListWindows.list} for a page that must not wait on a whole reading (a list read in the
   * background): the kept list (patched first when it can be, one query of its changed members),
   * or `undefined` at once while none is kept; then a reading of the whole list is started
   * unless one runs (or the list churns, or its last reading failed a moment ago), and the
   * caller reads its page from the store. `compute` reads with a deadline of its own, not the
   * request's.
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

/** What one lookup asks of the cache: the list (its key, reads, reader and patcher), and whether it waits on a whole reading. */
interface Asked {
  readonly dataset: string;
  readonly key: string;
  readonly reads: () => readonly string[];
  readonly ttl: number;
  readonly compute: () => Promise<OrderedList | undefined>;
  readonly patcher: ListPatcher | undefined;
  /** `wait`: wait on the list's whole reading (started or joined); `background`: never. */
  readonly whole: 'wait' | 'background';
}

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

/**
 * The subjects whose changes made a kept list stale: `changed`, as members' (`joinable`, those
 * that may have joined or left it); `targets`, as resources the sort path's hop leads to.
 */
interface ChangedMembers {
  readonly changed: ReadonlySet<string>;
  readonly joinable: ReadonlySet<string>;
  readonly targets: ReadonlySet<string>;
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

export const DEFAULT_WINDOW_CACHE_MAX_BYTES = 256 * 2 ** 20;

/** What a list too big to keep (or cut short by the store) leaves in the cache: only that fact. */
const UNCACHEABLE = Symbol('uncacheable');
/** A kept list (or the fact it can't be kept), with what it read and when its reading started. */
interface Entry {
  readonly list: OrderedList | typeof UNCACHEABLE;
  readonly reading: Reading;
  /** How to patch the list when it goes stale (see {@link ListPatcher}), if it can be. */
  readonly patcher?: ListPatcher | undefined;
}
type PatchableEntry = Entry & { readonly list: OrderedList; readonly patcher: ListPatcher };
interface Flight {
  readonly promise: Promise<OrderedList | undefined>;
  readonly reading: Reading;
  /** When the reading started, on the cache's clock. */
  readonly started: number;
  /** A patch of a kept list, not a whole reading. */
  readonly patch?: true;
}
/** More changed members than this and a list is read whole rather than patched (one query's VALUES). */
export const MAX_PATCHED_MEMBERS = 500;
const MARKER_BYTES = 64;

/**
 * How long a list whose reading went stale (a change to what it reads came while it was read) is
 * not read whole again: twice as long as that reading had run, and twice the last pause when it
 * churned again since, within these bounds. Under a stream of changes, reading a big list whole
 * again and again, each reading thrown away, would cost every page the whole list; its pages are
 * read from the store instead. A pause only picks how a page is read, never what it says.
 */
export const CHURN_BACKOFF_MS = { min: 1_000, max: 30_000 } as const;
/** Bound on the lists remembered as churning (least recently churned forgotten first). */
const CHURNING_MAX = 10_000;

/**
 * The ordered-window cache: whole ordered lists (members, sort key values for cursors) kept in
 * memory, so that every page of a list, however deep, by offset or by cursor, is a slice of it
 * and its count is its length. For stores whose data does not change while the server runs (the
 * embedded one: no expiry), or changes rarely enough for a TTL. One LRU bounded by memory, shared
 * by every dataset; a dataset with a TTL of 0 does not use it.
 *
 * @example
 * const windows = new WindowCache({ maxBytes: 64 * 2 ** 20 }).forDataset('sample', Number.POSITIVE_INFINITY);
 * const list = await windows?.list(queryText, () => readWholeList());
 */
export class WindowCache {
  private readonly maxBytes: number;
  private readonly entries: LRUCache<string, Entry>;
  /** Lists being read: every request for one of them waits for the same reading. */
  private readonly flights = new Map<string, Flight>();
  private readonly freshness: Freshness;
  private readonly clock: { now(): number };
  /** Lists whose last reading went stale: until when they are not read whole, and that pause's length. */
  private readonly churning = new LRUCache<string, { until: number; pause: number }>({ max: CHURNING_MAX });
  private readonly hits = new Map<string, number>();
  private readonly misses = new Map<string, number>();
  private readonly patches = new Map<string, number>();

  constructor(options: WindowCacheOptions = {}) {
    this.maxBytes = options.maxBytes ?? DEFAULT_WINDOW_CACHE_MAX_BYTES;
    this.freshness = options.freshness ?? new Freshness();
    this.clock = options.clock ?? performance;
    this.entries = new LRUCache<string, Entry>({
      maxSize: this.maxBytes,
      maxEntrySize: this.maxBytes,
      ttlResolution: 0,
      ...(options.clock && { perf: options.clock }),
    });
  }

  /**
   * The cache as one dataset uses it, keeping lists `ttlSeconds` (`Infinity`: until evicted);
   * `undefined` when `ttlSeconds` is 0: the dataset reads pages from the store.
   */
  forDataset(dataset: string, ttlSeconds: number): ListWindows | undefined {
    if (!(ttlSeconds > 0)) return undefined;
    // lru-cache: a TTL of 0 never expires.
    const ttl = Number.isFinite(ttlSeconds) ? Math.max(1, Math.round(ttlSeconds * 1000)) : 0;
    const asked =
      (whole: Asked['whole']): ListWindows['list'] =>
      (key, reads, compute, patcher) =>
        this.list({ dataset, key: JSON.stringify([dataset, key]), reads, ttl, compute, patcher, whole });
    return { list: asked('wait'), listNow: asked('background') };
  }

  /**
   * Drops the dataset's lists that a change made stale; returns how many. Entries are also checked
   * at each lookup, so this frees memory and counts, it is not what keeps answers right. Readings
   * in flight need nothing here: a request joins one only if it is still fresh, and one that went
   * stale is not kept (`read`).
   */
  dropStale(dataset: string): number {
    let dropped = 0;
    // A stale list that can be patched stays, for the next request that asks to patch it.
    const stale = [...this.entries.entries()].filter(
      ([, entry]) =>
        entry.reading.dataset === dataset &&
        !this.freshness.fresh(entry.reading) &&
        this.changedMembers(entry) === undefined,
    );
    for (const [key] of stale) if (this.entries.delete(key)) dropped++;
    return dropped;
  }

  stats(): WindowCacheStats {
    return {
      entries: this.entries.size,
      bytes: this.entries.calculatedSize,
      hits: this.hits,
      misses: this.misses,
      patched: this.patches,
    };
  }

  private async list(asked: Asked): Promise<OrderedList | undefined> {
    const { dataset, key, reads, ttl, compute, patcher } = asked;
    for (;;) {
      const entry = this.entries.get(key);
      if (entry && this.freshness.fresh(entry.reading)) {
        count(entry.list !== UNCACHEABLE ? this.hits : this.misses, dataset);
        return entry.list === UNCACHEABLE ? undefined : entry.list;
      }
      const flight = this.flights.get(key);
      if (flight && !this.freshness.fresh(flight.reading)) {
        // A patch that went stale while it runs is kept when it ends: wait for it, then patch what
        // changed since (a patch costs a few members' rows; the page from the store, at 1M, up to
        // the whole sort). Its outcome, even an error, is the patch's requests' own.
        if (flight.patch) {
          await flight.promise.catch(() => undefined);
          continue;
        }
        // A reading that started before a change answers the requests that joined it, no later
        // one; nor is another started while it runs: the list changes faster than it is read.
        this.churned(key, flight.started);
        count(this.misses, dataset);
        return undefined;
      }
      if (flight && !flight.patch && asked.whole === 'background') {
        count(this.misses, dataset);
        return undefined;
      }
      if (flight) {
        try {
          const list = await flight.promise;
          // A patch that could not place its members drops the list: read it whole (or join whoever does).
          if (flight.patch && list === undefined) continue;
          count(flight.patch ? this.hits : this.misses, dataset);
          return list;
        } catch (error) {
          // Not a store error: the request that started the reading went away (its client, its
          // deadline), which says nothing about this one. Read again (or join whoever does).
          if (error instanceof StoreError) throw error;
          continue;
        }
      }
      if (entry) {
        const changed = this.changedMembers(entry);
        if (changed) {
          // Its errors are this request's own (no retry: it may be this request that went away).
          // The asking request's patcher when it gives one (the same list query: it traces its own
          // request), else the one kept with the list.
          const patched = await this.patch(key, entry as PatchableEntry, changed, ttl, patcher);
          if (patched === undefined) continue; // dropped: read whole
          count(this.hits, dataset);
          return patched;
        }
        this.entries.delete(key);
      }
      count(this.misses, dataset);
      if ((this.churning.get(key)?.until ?? 0) > this.clock.now()) return undefined;
      const started = this.clock.now();
      const reading = this.read(key, { dataset, reads: reads(), stamp: this.freshness.now() }, ttl, compute, patcher);
      if (asked.whole === 'wait') return reading;
      // Nobody waits on it: a failure pauses the next reading as a churn does (an error of its own, not a page's).
      reading.catch(() => this.churned(key, started));
      return undefined;
    }
  }

  private read(
    key: string,
    reading: Reading,
    ttl: number,
    compute: () => Promise<OrderedList | undefined>,
    patcher: ListPatcher | undefined,
  ) {
    const started = this.clock.now();
    const promise = compute()
      .then((list) => {
        // Stale before it is kept (a change came while it was read): it answers, and is not kept,
        // unless the change can be patched (a list of 70,000 read while a year changed): then it
        // is kept stale, and the next request patches it rather than read it whole again.
        if (!this.freshness.fresh(reading)) {
          const stale: Entry | undefined = list && { list, reading, patcher };
          if (stale && this.changedMembers(stale) && orderedListBytes(list!) + key.length <= this.maxBytes) {
            this.churning.delete(key);
            this.keep(key, list, reading, ttl, patcher);
          } else this.churned(key, started);
          return list;
        }
        this.churning.delete(key);
        this.keep(key, list, reading, ttl, patcher);
        return list;
      })
      .finally(() => {
        if (this.flights.get(key) === flight) this.flights.delete(key);
      });
    const flight: Flight = { promise, reading, started };
    this.flights.set(key, flight);
    return promise;
  }

  /** Keeps a list (or, too big or cut short, the fact it can't be kept) with its reading. */
  private keep(
    key: string,
    list: OrderedList | undefined,
    reading: Reading,
    ttl: number,
    patcher: ListPatcher | undefined,
  ): void {
    const size = list && orderedListBytes(list) + key.length;
    if (list && size! <= this.maxBytes) this.entries.set(key, { list, reading, patcher }, { ttl, size: size! });
    else this.entries.set(key, { list: UNCACHEABLE, reading }, { ttl, size: MARKER_BYTES + key.length });
  }

  /**
   * The members whose changes made a kept list stale, when they are all it takes to bring it up
   * to date (`cache/patchable-list.ts`, and the ledger knows each changed subject): then the list
   * is patched, not read whole. `undefined` when it must be read whole.
   */
  private changedMembers(entry: Entry): ChangedMembers | undefined {
    if (entry.list === UNCACHEABLE || entry.list.blankKeys || !entry.patcher) return undefined;
    const { reading, patcher } = entry;
    const stale = this.freshness.staleReads(reading);
    if (stale === undefined || !patcher.confined(stale)) return undefined;
    const changed = new Set<string>();
    const joinable = new Set<string>();
    const targets = new Set<string>();
    for (const iri of stale) {
      const subjects = this.freshness.changedSubjects(reading.dataset, iri, reading.stamp);
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

  /**
   * Patches a stale kept list: its changed members read again (one query) and moved, under a new
   * reading stamped before that query, so that a change meanwhile makes the patched list stale
   * again. Requests that ask meanwhile join it as a flight, or, once it went stale, wait for it
   * and patch again. A patch that went stale is kept all the same, however often in a row: the
   * next request patches what changed since, which costs less than any page read from the store
   * (the list is never dropped and paused for it, which under a steady stream of changes would
   * send every page to the store for seconds). A patch that cannot place its members
   * (`undefined`) or fails drops the list.
   */
  private patch(
    key: string,
    entry: PatchableEntry,
    { changed, joinable, targets }: ChangedMembers,
    ttl: number,
    patcher: ListPatcher = entry.patcher,
  ): Promise<OrderedList | undefined> {
    const reading: Reading = { ...entry.reading, stamp: this.freshness.now() };
    const started = this.clock.now();
    // What is left of the list's time to live: a patch brings some members up to date, not all.
    const remaining = this.entries.getRemainingTTL(key);
    const kept = Number.isFinite(remaining) && remaining > 0 ? Math.max(1, Math.round(remaining)) : ttl;
    const promise = patcher
      .patch(entry.list, changed, joinable, targets)
      .then(
        (patched) => {
          const current = this.entries.get(key) === entry;
          if (patched === undefined) {
            if (current) this.entries.delete(key);
            return undefined;
          }
          count(this.patches, entry.reading.dataset);
          if (current) this.keep(key, patched, reading, kept, entry.patcher);
          return patched;
        },
        (error: unknown) => {
          // A store error drops the list (the next request reads it whole); a request that went
          // away leaves it for the next request to patch.
          if (error instanceof StoreError && this.entries.get(key) === entry) this.entries.delete(key);
          throw error;
        },
      )
      .finally(() => {
        if (this.flights.get(key) === flight) this.flights.delete(key);
      });
    const flight: Flight = { promise, reading, started, patch: true };
    this.flights.set(key, flight);
    return promise;
  }

  /** Pauses whole readings of a list whose reading that started at `started` went stale (once per reading). */
  private churned(key: string, started: number): void {
    const now = this.clock.now();
    const last = this.churning.get(key);
    if (last !== undefined && last.until > now) return;
    const pause = Math.min(
      CHURN_BACKOFF_MS.max,
      Math.max(CHURN_BACKOFF_MS.min, 2 * (now - started), 2 * (last?.pause ?? 0)),
    );
    this.churning.set(key, { until: now + pause, pause });
  }
}

function count(counts: Map<string, number>, dataset: string): void {
  counts.set(dataset, (counts.get(dataset) ?? 0) + 1);
}
