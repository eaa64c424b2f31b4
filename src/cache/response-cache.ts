import { LRUCache } from 'lru-cache';
import type { Variants } from '../http/compression.js';
import { Freshness, type Reading } from './freshness.js';

export interface ResponseCacheOptions {
  /** Bound on the bytes all entries hold together (bodies, ETags and keys); 64 MiB by default. */
  readonly maxBytes?: number;
  /** The clock TTLs are measured with (`performance` by default); tests pass one they can move. */
  readonly clock?: { now(): number };
  /** Told of every lookup in a dataset whose cache is on, for the hit and miss counters. */
  readonly onLookup?: (dataset: string, outcome: 'hit' | 'miss') => void;
  /** The ledger of changes (deltas) entries are checked against; a private one (nothing ever changes) by default. */
  readonly freshness?: Freshness;
}

/** A kept 200: its bodies, and what it read when (to tell whether a change made it stale). */
interface Entry {
  readonly variants: Variants;
  readonly reading: Reading;
}

/** What makes two requests the same response: everything the body depends on, and nothing else. */
export interface CacheKey {
  readonly dataset: string;
  /** The type-rooted path (`/concepts/0101`), so `/api/<default>/…` and `/…` share entries. */
  readonly path: string;
  /** The raw query string: it is echoed in `links.self`, so two spellings are two bodies. */
  readonly query: string;
  /** The negotiated media type (with its profile, if the server ever applies one). */
  readonly mediaType: string;
  /** The link base, when a request's forwarding headers set it (http/public-base.ts). */
  readonly base?: string;
}

export const DEFAULT_CACHE_MAX_BYTES = 64 * 2 ** 20;

/**
 * The optional in-process cache of 200 responses for read-mostly deployments: an LRU bounded by
 * memory, with each dataset's own TTL (0 turns it off for that dataset, the default; `Infinity`
 * never expires). An entry also goes when a change to what it read arrives (a delta, a reload:
 * `Freshness`), checked at each lookup, so that an answer read before the change is never served
 * after it. Each replica has its own cache; ETags stay equal across them because they hash the body.
 *
 * @example
 * const cache = new ResponseCache({ maxBytes: 2 ** 20 });
 * cache.set(key, new Variants(represent(document)), 30);
 * cache.get(key, 30); // the same body (and its compressed forms) for 30 s
 */
export class ResponseCache {
  private readonly entries: LRUCache<string, Entry>;
  private readonly freshness: Freshness;

  constructor(private readonly options: ResponseCacheOptions = {}) {
    const maxBytes = options.maxBytes ?? DEFAULT_CACHE_MAX_BYTES;
    this.freshness = options.freshness ?? new Freshness();
    this.entries = new LRUCache<string, Entry>({
      maxSize: maxBytes,
      // A body larger than the whole bound is not stored rather than flushing everything else.
      maxEntrySize: maxBytes,
      // The body and the compressed forms made so far ({@link ResponseCache.grown} recounts).
      sizeCalculation: (value, key) => value.variants.bytes + key.length,
      // Exact expiry, with no timer per lookup; reading the clock is cheap.
      ttlResolution: 0,
      ...(options.clock && { perf: options.clock }),
    });
  }

  /** The cached body and its compressed forms, or `undefined`; always `undefined` when `ttlSeconds` is 0. */
  get(key: CacheKey, ttlSeconds: number): Variants | undefined {
    if (ttlSeconds <= 0) return undefined;
    const serialised = serialise(key);
    let hit = this.entries.get(serialised);
    if (hit && !this.freshness.fresh(hit.reading)) {
      this.entries.delete(serialised);
      hit = undefined;
    }
    this.options.onLookup?.(key.dataset, hit !== undefined ? 'hit' : 'miss');
    return hit?.variants;
  }

  /**
   * Keeps a 200's body (with the compressed forms it has) for `ttlSeconds` (nothing when 0), unless
   * what it read changed since its `reading` started (stamped before the store was asked:
   * {@link ResponseCache.now}); returns it for chaining.
   */
  set(key: CacheKey, variants: Variants, ttlSeconds: number, reading: Reading): Variants {
    if (ttlSeconds > 0 && this.freshness.fresh(reading)) {
      // lru-cache: a TTL of 0 never expires.
      const ttl = Number.isFinite(ttlSeconds) ? Math.max(1, Math.round(ttlSeconds * 1000)) : 0;
      this.entries.set(serialise(key), { variants, reading }, { ttl });
    }
    return variants;
  }

  /** The stamp of a reading that starts now: take it before the store is asked, give it to {@link ResponseCache.set}. */
  now(): number {
    return this.freshness.now();
  }

  /** Drops the dataset's entries that a change made stale; returns how many. */
  dropStale(dataset: string): number {
    let dropped = 0;
    for (const key of this.freshness.staleKeys(dataset, this.entries.entries()))
      if (this.entries.delete(key)) dropped++;
    return dropped;
  }

  /**
   * Recounts an entry's bytes once a compressed form was added to it (a hit from a client that
   * takes another coding), keeping its expiry; nothing when the entry has gone meanwhile.
   */
  grown(key: CacheKey): void {
    const serialised = serialise(key);
    const entry = this.entries.peek(serialised);
    if (entry) this.entries.set(serialised, entry, { noUpdateTTL: true });
  }
}

// Each part but the last behind its length keeps the parts apart whatever characters they hold
// (as JSON.stringify of the four did, for less work on every lookup).
const serialise = ({ dataset, path, query, mediaType, base }: CacheKey): string =>
  `${base === undefined ? '' : `b${base.length}:${base}`}${dataset.length}:${dataset}${mediaType.length}:${mediaType}${path.length}:${path}${query}`;
