import { LRUCache } from 'lru-cache';
import type { HintMemo, ListHints } from '../execute/list-hints.js';
import type { Mapping } from '../mapping/model.js';
import { keptPerOwner } from './kept-per-owner.js';

/**
 * The histogram path's hints of one app (`execute/list-hints.ts`), never shared across apps:
 * - the histogram queries that found more than 500 values lately (by their text; dropped after
 *   10 minutes, or past 1,000 of them): not sent again for a while, the list is sorted whole;
 * - what each list's histogram query read last, when it added up to the count (per mapping, the
 *   most recently used 256 lists; dropped with the mapping, and by each read of the list whose
 *   histogram differs, which replaces it): where the next window is likely to lie.
 * Only hints: a replica without them sends a query more, and answers the same.
 *
 * @example const hints = histogramHints(); hints.manyValues(text) // false until foundManyValues(text)
 */
export function histogramHints(): ListHints {
  const many = new LRUCache<string, true>({ max: 1000, ttl: 10 * 60_000 });
  const histories = keptPerOwner<Mapping, { last?: object }>(256);
  return {
    manyValues: (text) => many.has(text),
    foundManyValues: (text) => {
      many.set(text, true);
    },
    lastHistogram: <T extends object>(mapping: Mapping, text: string) =>
      histories(mapping, text, () => ({})) as { last?: T },
    memo: <V extends object>(max: number): HintMemo<V> => {
      const kept = new LRUCache<string, V>({ max });
      return {
        kept: (key, make) => {
          let value = kept.get(key);
          if (value === undefined) kept.set(key, (value = make()));
          return value;
        },
      };
    },
  };
}
