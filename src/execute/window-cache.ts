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
   * `reads` gives the IRIs the list depends on (`plan/plan-reads.ts`), asked only when the list is
   * read from the store, not on a hit: a change to one of them
   * (`Freshness`) makes the kept list stale, and a reading that started before the change is
   * neither joined by later requests nor kept. A list that changes faster than it can be read
   * (its reading went stale) is not read whole again for a while (`CHURN_BACKOFF_MS`): meanwhile
   * `undefined`, and each request reads its page from the store.
   */
  list(
    key: string,
    reads: () => readonly string[],
    compute: () => Promise<OrderedList | undefined>,
  ): Promise<OrderedList | undefined>;
}

/** What `/metrics` reports of a window cache. */
export interface WindowCacheStats {
  readonly entries: number;
  readonly bytes: number;
  /** By dataset: pages cut from a cached list, and pages whose list was not cached (read, or not cacheable). */
  readonly hits: ReadonlyMap<string, number>;
  readonly misses: ReadonlyMap<string, number>;
}

export const DEFAULT_WINDOW_CACHE_MAX_BYTES = 256 * 2 ** 20;

/** What a list too big to keep (or cut short by the store) leaves in the cache: only that fact. */
const UNCACHEABLE = Symbol('uncacheable');
/** A kept list (or the fact it can't be kept), with what it read and when its reading started. */
interface Entry {
  readonly list: OrderedList | typeof UNCACHEABLE;
  readonly reading: Reading;
}
interface Flight {
  readonly promise: Promise<OrderedList | undefined>;
  readonly reading: Reading;
  /** When the reading started, on the cache's clock. */
  readonly started: number;
}
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
    return { list: (key, reads, compute) => this.list(dataset, JSON.stringify([dataset, key]), reads, ttl, compute) };
  }

  /**
   * Drops the dataset's lists that a change made stale; returns how many. Entries are also checked
   * at each lookup, so this frees memory and counts, it is not what keeps answers right. Readings
   * in flight need nothing here: a request joins one only if it is still fresh, and one that went
   * stale is not kept (`read`).
   */
  dropStale(dataset: string): number {
    let dropped = 0;
    for (const key of this.freshness.staleKeys(dataset, this.entries.entries()))
      if (this.entries.delete(key)) dropped++;
    return dropped;
  }

  stats(): WindowCacheStats {
    return { entries: this.entries.size, bytes: this.entries.calculatedSize, hits: this.hits, misses: this.misses };
  }

  private async list(
    dataset: string,
    key: string,
    reads: () => readonly string[],
    ttl: number,
    compute: () => Promise<OrderedList | undefined>,
  ): Promise<OrderedList | undefined> {
    let entry = this.entries.get(key);
    if (entry && !this.freshness.fresh(entry.reading)) {
      this.entries.delete(key);
      entry = undefined;
    }
    count(entry !== undefined && entry.list !== UNCACHEABLE ? this.hits : this.misses, dataset);
    if (entry !== undefined) return entry.list === UNCACHEABLE ? undefined : entry.list;
    for (;;) {
      const flight = this.flights.get(key);
      // A reading that started before a change answers the requests that joined it, no later one;
      // nor is another started while it runs: the list changes faster than it is read.
      if (flight && !this.freshness.fresh(flight.reading)) {
        this.churned(key, flight.started);
        return undefined;
      }
      if (!flight) {
        if ((this.churning.get(key)?.until ?? 0) > this.clock.now()) return undefined;
        return this.read(key, { dataset, reads: reads(), stamp: this.freshness.now() }, ttl, compute);
      }
      try {
        return await flight.promise;
      } catch (error) {
        // Not a store error: the request that started the reading went away (its client, its
        // deadline), which says nothing about this one. Read again (or join whoever does).
        if (error instanceof StoreError) throw error;
      }
    }
  }

  private read(key: string, reading: Reading, ttl: number, compute: () => Promise<OrderedList | undefined>) {
    const started = this.clock.now();
    const promise = compute()
      .then((list) => {
        // Stale before it is kept (a change came while it was read): it answers, and is not kept.
        if (!this.freshness.fresh(reading)) {
          this.churned(key, started);
          return list;
        }
        this.churning.delete(key);
        const size = list && orderedListBytes(list) + key.length;
        if (list && size! <= this.maxBytes) this.entries.set(key, { list, reading }, { ttl, size: size! });
        else this.entries.set(key, { list: UNCACHEABLE, reading }, { ttl, size: MARKER_BYTES + key.length });
        return list;
      })
      .finally(() => {
        if (this.flights.get(key) === flight) this.flights.delete(key);
      });
    const flight = { promise, reading, started };
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
