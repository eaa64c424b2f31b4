/**
 * The window cache's lookups (contract: `list-windows.ts`): whether a kept list answers, is
 * patched, or is read whole, and a reading or patch shared by the lookups that ask meanwhile.
 */
import { LRUCache } from 'lru-cache';
import { StoreError } from '../store/store.js';
import { type ChangedMembers, changedMembers } from './changed-members.js';
import { Churning } from './churning.js';
import { Freshness, type Reading } from './freshness.js';
import type { ListWindows, WindowCacheOptions, WindowCacheStats } from './list-windows.js';
import { type OrderedList, orderedListBytes } from './ordered-list.js';
import {
  AGAIN,
  type Asked,
  answer,
  type Entry,
  type Flight,
  Flights,
  MARKER_BYTES,
  type PatchableEntry,
  READ,
  type Step,
  UNCACHEABLE,
  WindowCounts,
} from './window-entries.js';

export const DEFAULT_WINDOW_CACHE_MAX_BYTES = 256 * 2 ** 20;

/**
 * The ordered-window cache: whole ordered lists (members, sort key values for cursors) kept in
 * memory, so that every page of a list, however deep, by offset or by cursor, is a slice of it
 * and its count is its length. For stores whose data does not change while the server runs (the
 * embedded one: no expiry), or changes rarely enough for a TTL. One LRU bounded by memory, shared
 * by every dataset; a dataset with a TTL of 0 does not use it.
 *
 * @example
 * const windows = new WindowCache({ maxBytes: 64 * 2 ** 20 }).forDataset('sample', Number.POSITIVE_INFINITY);
 * const list = await windows?.listNow(queryText, () => reads, () => readWholeList());
 */
export class WindowCache {
  private readonly maxBytes: number;
  private readonly entries: LRUCache<string, Entry>;
  private readonly flights = new Flights();
  private readonly freshness: Freshness;
  private readonly clock: { now(): number };
  private readonly churning: Churning;
  private readonly counts = new WindowCounts();

  constructor(options: WindowCacheOptions = {}) {
    this.maxBytes = options.maxBytes ?? DEFAULT_WINDOW_CACHE_MAX_BYTES;
    this.freshness = options.freshness ?? new Freshness();
    this.clock = options.clock ?? performance;
    this.churning = new Churning(this.clock);
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
   * in flight need nothing here: a lookup joins one only if it is still fresh, and one that went
   * stale is not kept (`read`).
   */
  dropStale(dataset: string): number {
    let dropped = 0;
    // A stale list that can be patched stays, for the next lookup that asks to patch it.
    const stale = [...this.entries.entries()].filter(
      ([, entry]) =>
        entry.reading.dataset === dataset && !this.freshness.fresh(entry.reading) && !this.changedMembers(entry),
    );
    for (const [key] of stale) if (this.entries.delete(key)) dropped++;
    return dropped;
  }

  /** Resolves once no list is being read whole or patched (what a test awaits after a page started a reading). */
  settled(): Promise<void> {
    return this.flights.settled();
  }

  stats(): WindowCacheStats {
    return {
      entries: this.entries.size,
      bytes: this.entries.calculatedSize,
      hits: this.counts.hits,
      misses: this.counts.misses,
      patched: this.counts.patched,
    };
  }

  private async list(asked: Asked): Promise<OrderedList | undefined> {
    const { dataset, key } = asked;
    for (;;) {
      const entry = this.entries.get(key);
      if (entry && this.freshness.fresh(entry.reading)) {
        this.counts.count(entry.list !== UNCACHEABLE ? 'hits' : 'misses', dataset);
        return entry.list === UNCACHEABLE ? undefined : entry.list;
      }
      const flight = this.flights.get(key);
      const step = flight ? await this.joined(asked, flight) : entry ? await this.patched(asked, entry) : READ;
      if (step.kind === 'answer') return step.list;
      if (step.kind === 'again') continue;
      this.counts.count('misses', dataset);
      if (this.churning.paused(key)) return undefined;
      const started = this.clock.now();
      const reading = this.read(asked, { dataset, reads: asked.reads(), stamp: this.freshness.now() });
      if (asked.whole === 'wait') return reading;
      // Nobody waits on it: a failure pauses the next reading as a churn does (an error of its own, not a page's).
      reading.catch(() => this.churning.churned(key, started));
      return undefined;
    }
  }

  /** A lookup that finds its list being read or patched: it joins, or (a page, a stale reading) does not. */
  private async joined(asked: Asked, flight: Flight): Promise<Step> {
    const { dataset, key } = asked;
    if (!this.freshness.fresh(flight.reading)) {
      // A patch that went stale while it runs is kept when it ends: wait for it, then patch what
      // changed since (a patch costs a few members' rows; the page from the store, at 1M, up to
      // the whole sort). Its outcome, even an error, is the patch's lookups' own.
      if (flight.patch) return flight.promise.catch(() => undefined).then(() => AGAIN);
      // A reading that started before a change answers the lookups that joined it, no later
      // one; nor is another started while it runs: the list changes faster than it is read.
      this.churning.churned(key, flight.started);
      this.counts.count('misses', dataset);
      return answer(undefined);
    }
    if (!flight.patch && asked.whole === 'background') {
      this.counts.count('misses', dataset);
      return answer(undefined);
    }
    try {
      const list = await flight.promise;
      // A patch that could not place its members drops the list: read it whole (or join whoever does).
      if (flight.patch && list === undefined) return AGAIN;
      this.counts.count(flight.patch ? 'hits' : 'misses', dataset);
      return answer(list);
    } catch (error) {
      // Not a store error: the lookup that started the reading went away (its client, its
      // deadline), which says nothing about this one. Read again (or join whoever does).
      if (error instanceof StoreError) throw error;
      return AGAIN;
    }
  }

  /**
   * A lookup that finds its list stale: patched when only its members changed (its errors are
   * this lookup's own, no retry: it may be this lookup that went away), else dropped. The asking
   * lookup's patcher when it gives one (the same list query: it traces its own request), else the
   * one kept with the list.
   */
  private async patched(asked: Asked, entry: Entry): Promise<Step> {
    const changed = this.changedMembers(entry);
    if (!changed) {
      this.entries.delete(asked.key);
      return READ;
    }
    const patched = await this.patch(asked, entry as PatchableEntry, changed);
    if (patched === undefined) return AGAIN; // dropped: read whole
    this.counts.count('hits', asked.dataset);
    return answer(patched);
  }

  private read({ key, ttl, compute, patcher }: Asked, reading: Reading): Promise<OrderedList | undefined> {
    const started = this.clock.now();
    const promise = compute().then((list) => {
      // Stale before it is kept (a change came while it was read): it answers, and is not kept,
      // unless the change can be patched (a list of 70,000 read while a year changed): then it
      // is kept stale, and the next lookup patches it rather than read it whole again.
      const keeps =
        this.freshness.fresh(reading) ||
        (list &&
          this.changedMembers({ list, reading, patcher }) &&
          orderedListBytes(list) + key.length <= this.maxBytes);
      if (keeps) {
        this.churning.settled(key);
        this.keep(key, { list: list ?? UNCACHEABLE, reading, patcher }, ttl);
      } else this.churning.churned(key, started);
      return list;
    });
    return this.flights.fly(key, promise, { reading, started });
  }

  /** Keeps a list (or, too big or cut short, the fact it can't be kept) with its reading. */
  private keep(key: string, { list, reading, patcher }: Entry, ttl: number): void {
    const size = list !== UNCACHEABLE ? orderedListBytes(list) + key.length : Number.POSITIVE_INFINITY;
    if (size <= this.maxBytes) this.entries.set(key, { list, reading, patcher }, { ttl, size });
    else this.entries.set(key, { list: UNCACHEABLE, reading }, { ttl, size: MARKER_BYTES + key.length });
  }

  private changedMembers({ list, reading, patcher }: Entry): ChangedMembers | undefined {
    return list === UNCACHEABLE ? undefined : changedMembers(this.freshness, { list, reading, patcher });
  }

  /**
   * Patches a stale kept list: its changed members read again (one query) and moved, under a new
   * reading stamped before that query, so that a change meanwhile makes the patched list stale
   * again. Lookups that ask meanwhile join it as a flight, or, once it went stale, wait for it
   * and patch again. A patch that went stale is kept all the same, however often in a row: the
   * next lookup patches what changed since, which costs less than any page read from the store
   * (the list is never dropped and paused for it, which under a steady stream of changes would
   * send every page to the store for seconds). A patch that cannot place its members
   * (`undefined`) or fails drops the list.
   */
  private patch(asked: Asked, entry: PatchableEntry, changed: ChangedMembers): Promise<OrderedList | undefined> {
    const { key, ttl, patcher = entry.patcher } = asked;
    const reading: Reading = { ...entry.reading, stamp: this.freshness.now() };
    // What is left of the list's time to live: a patch brings some members up to date, not all.
    const remaining = this.entries.getRemainingTTL(key);
    const kept = Number.isFinite(remaining) && remaining > 0 ? Math.max(1, Math.round(remaining)) : ttl;
    const promise = patcher.patch(entry.list, changed.changed, changed.joinable, changed.targets).then(
      (patched) => {
        const current = this.entries.get(key) === entry;
        if (patched === undefined) {
          if (current) this.entries.delete(key);
          return undefined;
        }
        this.counts.count('patched', entry.reading.dataset);
        if (current) this.keep(key, { list: patched, reading, patcher: entry.patcher }, kept);
        return patched;
      },
      (error: unknown) => {
        // A store error drops the list (the next lookup reads it whole); a request that went
        // away leaves it for the next lookup to patch.
        if (error instanceof StoreError && this.entries.get(key) === entry) this.entries.delete(key);
        throw error;
      },
    );
    return this.flights.fly(key, promise, { reading, started: this.clock.now(), patch: true });
  }
}
