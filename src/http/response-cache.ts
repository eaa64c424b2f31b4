import { LRUCache } from 'lru-cache';
import type { Representation } from './conditional.js';

export interface ResponseCacheOptions {
  /** Bound on the bytes all entries hold together (bodies, ETags and keys); 64 MiB by default. */
  readonly maxBytes?: number;
  /** The clock TTLs are measured with (`performance` by default); tests pass one they can move. */
  readonly clock?: { now(): number };
  /** Told of every lookup in a dataset whose cache is on, for the hit and miss counters. */
  readonly onLookup?: (dataset: string, hit: boolean) => void;
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
}

export const DEFAULT_CACHE_MAX_BYTES = 64 * 2 ** 20;

/**
 * The optional in-process cache of 200 responses for read-mostly deployments: an LRU bounded by
 * memory, with each dataset's own TTL (0 turns it off for that dataset, the default). Entries only
 * expire: the server never writes, so a data reload shows once the TTL has run out (or after a
 * restart). Each replica has its own cache; ETags stay equal across them because they hash the body.
 *
 * @example
 * const cache = new ResponseCache({ maxBytes: 2 ** 20 });
 * cache.set(key, represent(document), 30);
 * cache.get(key, 30); // the same representation for 30 s
 */
export class ResponseCache {
  private readonly entries: LRUCache<string, Representation>;

  constructor(private readonly options: ResponseCacheOptions = {}) {
    const maxBytes = options.maxBytes ?? DEFAULT_CACHE_MAX_BYTES;
    this.entries = new LRUCache<string, Representation>({
      maxSize: maxBytes,
      // A body larger than the whole bound is not stored rather than flushing everything else.
      maxEntrySize: maxBytes,
      sizeCalculation: (value, key) => value.body.length + value.etag.length + key.length,
      // Exact expiry, with no timer per lookup; reading the clock is cheap.
      ttlResolution: 0,
      ...(options.clock && { perf: options.clock }),
    });
  }

  /** The cached representation, or `undefined`; always `undefined` when `ttlSeconds` is 0. */
  get(key: CacheKey, ttlSeconds: number): Representation | undefined {
    if (ttlSeconds <= 0) return undefined;
    const hit = this.entries.get(serialise(key));
    this.options.onLookup?.(key.dataset, hit !== undefined);
    return hit;
  }

  /** Keeps a 200's representation for `ttlSeconds` (nothing when 0); returns it for chaining. */
  set(key: CacheKey, representation: Representation, ttlSeconds: number): Representation {
    if (ttlSeconds > 0)
      this.entries.set(serialise(key), representation, { ttl: Math.max(1, Math.round(ttlSeconds * 1000)) });
    return representation;
  }
}

// Each part but the last behind its length keeps the parts apart whatever characters they hold
// (as JSON.stringify of the four did, for less work on every lookup).
const serialise = ({ dataset, path, query, mediaType }: CacheKey): string =>
  `${dataset.length}:${dataset}${mediaType.length}:${mediaType}${path.length}:${path}${query}`;
