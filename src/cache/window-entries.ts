/**
 * What the window cache (`window-cache.ts`) holds and passes around: a kept list's entry, a
 * reading or patch in flight, what a lookup asks, and what each step of a lookup found.
 */
import type { Reading } from './freshness.js';
import type { ListPatcher } from './list-windows.js';
import type { OrderedList } from './ordered-list.js';

/** What a list too big to keep (or cut short by the store) leaves in the cache: only that fact. */
export const UNCACHEABLE = Symbol('uncacheable');
/** A kept list (or the fact it can't be kept), with what it read and when its reading started. */
export interface Entry {
  readonly list: OrderedList | typeof UNCACHEABLE;
  readonly reading: Reading;
  /** How to patch the list when it goes stale (see {@link ListPatcher}), if it can be. */
  readonly patcher?: ListPatcher | undefined;
}
export type PatchableEntry = Entry & { readonly list: OrderedList; readonly patcher: ListPatcher };
export interface Flight {
  readonly promise: Promise<OrderedList | undefined>;
  readonly reading: Reading;
  /** When the reading started, on the cache's clock. */
  readonly started: number;
  /** A patch of a kept list, not a whole reading. */
  readonly patch?: true;
}
export const MARKER_BYTES = 64;

/** What one lookup asks of the cache: the list (its key, reads, reader and patcher), and whether it waits on a whole reading. */
export interface Asked {
  readonly dataset: string;
  readonly key: string;
  readonly reads: () => readonly string[];
  readonly ttl: number;
  readonly compute: () => Promise<OrderedList | undefined>;
  readonly patcher: ListPatcher | undefined;
  /** `wait`: wait on the list's whole reading, started or joined (start-up reads); `background`: never (pages). */
  readonly whole: 'wait' | 'background';
}
/**
 * What one step of a lookup found: the answer; that it must look again (what it joined or patched
 * is gone); or that nothing is kept nor being read, so the list is to be read whole.
 */
export type Step =
  | { readonly kind: 'answer'; readonly list: OrderedList | undefined }
  | { readonly kind: 'again' }
  | { readonly kind: 'read' };
export const AGAIN: Step = { kind: 'again' };
export const READ: Step = { kind: 'read' };
export const answer = (list: OrderedList | undefined): Step => ({ kind: 'answer', list });

/** The readings and patches in flight, by key: every lookup that waits for one waits for the same. */
export class Flights {
  private readonly flying = new Map<string, Flight>();

  get(key: string): Flight | undefined {
    return this.flying.get(key);
  }

  /** The key's flight until `promise` settles (then gone, unless another took its place); resolves as it does. */
  fly(key: string, promise: Promise<OrderedList | undefined>, about: Omit<Flight, 'promise'>) {
    const flight: Flight = {
      ...about,
      promise: promise.finally(() => {
        if (this.flying.get(key) === flight) this.flying.delete(key);
      }),
    };
    this.flying.set(key, flight);
    return flight.promise;
  }

  /** Resolves once nothing is in flight (what settles meanwhile included), whatever each flight's outcome. */
  async settled(): Promise<void> {
    while (this.flying.size > 0) await Promise.allSettled([...this.flying.values()].map((flight) => flight.promise));
  }
}

/** What `/metrics` counts of a window cache, by dataset (`WindowCacheStats`). */
export class WindowCounts {
  readonly hits = new Map<string, number>();
  readonly misses = new Map<string, number>();
  readonly patched = new Map<string, number>();

  count(what: 'hits' | 'misses' | 'patched', dataset: string): void {
    this[what].set(dataset, (this[what].get(dataset) ?? 0) + 1);
  }
}
