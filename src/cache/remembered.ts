/**
 * What an app remembers for each dataset, as the executor reads it (`Remembered`: kept lists,
 * hints, query memo), and reading the kept lists ahead at start-up. The app (`app.ts`) builds
 * one of each and injects it; the computing stages only know the interfaces.
 */
import type { Dataset, DatasetOptions } from '../dataset.js';
import { optionsOf, WHOLE_LIST_DEADLINE_FACTOR } from '../dataset.js';
import type { Remembered } from '../execute/paths/access-path.js';
import { withSignal } from '../execute/run-query.js';
import type { JsonApiOptions } from '../http/json-api-handler.js';
import type { Store } from '../store/store.js';
import { histogramHints } from './histogram-hints.js';
import { keptLists } from './kept-lists.js';
import { templateMemo } from './template-memo.js';
import { warmLists } from './warm-lists.js';
import type { WindowCache } from './window-cache.js';

/**
 * What the app remembers for each dataset, as the executor reads it (`Remembered`): the dataset's
 * kept lists when it keeps them (its window cache TTL), and the app's hints and query memo
 * (none when not `hinted`). Each dataset's is made once, on its first request.
 *
 * @example const remembered = rememberedBy(new WindowCache({ freshness }), { hinted: true, shutdown: undefined })
 */
export function rememberedBy(
  windows: WindowCache,
  { hinted, shutdown }: { hinted: boolean; shutdown: AbortSignal | undefined },
): JsonApiOptions['remembered'] {
  const hints = hinted ? histogramHints() : undefined;
  const memo = hinted ? templateMemo() : undefined;
  const byDataset = new Map<Dataset, Remembered>();
  return (dataset, options) => {
    let remembered = byDataset.get(dataset);
    if (!remembered) {
      const lists = windows.forDataset(dataset.name, options.windowCacheTtlSeconds);
      byDataset.set(
        dataset,
        (remembered = { kept: lists && keptLists(lists, wholeStore(dataset, options, shutdown)), hints, memo }),
      );
    }
    return remembered;
  };
}

/** The store a dataset's lists are read whole from in the background: its own, with a deadline of their own (stopped with the server). */
function wholeStore(dataset: Dataset, options: DatasetOptions, shutdown: AbortSignal | undefined): () => Store {
  const deadline = () => AbortSignal.timeout(options.timeoutMs * WHOLE_LIST_DEADLINE_FACTOR);
  return () => withSignal(dataset.store, shutdown ? AbortSignal.any([deadline(), shutdown]) : deadline());
}

/** What reading one dataset's lists into the window cache did. */
export interface WarmedDataset {
  readonly dataset: string;
  readonly lists: number;
  readonly ms: number;
}

/**
 * Reads each type's default list into the window cache (`cache/warm-lists.ts`), for every
 * dataset that keeps its lists without expiry (by default the embedded store's, whose data never
 * changes while the server runs), one dataset after the other. An endpoint's lists expire, if
 * kept at all: reading them ahead would be work thrown away. Stops with `signal`.
 *
 * @example const warmed = await warmWindowCache(datasets, windows, stopping.signal)
 */
export async function warmWindowCache(
  datasets: readonly Dataset[],
  windows: WindowCache,
  signal: AbortSignal,
): Promise<WarmedDataset[]> {
  const warmed: WarmedDataset[] = [];
  for (const dataset of datasets) {
    const ttl = optionsOf(dataset).windowCacheTtlSeconds;
    const lists = windows.forDataset(dataset.name, ttl);
    if (!lists || Number.isFinite(ttl)) continue;
    const start = performance.now();
    const kept = await warmLists(dataset.mapping, withSignal(dataset.store, signal), lists);
    warmed.push({ dataset: dataset.name, lists: kept, ms: Math.round(performance.now() - start) });
  }
  return warmed;
}
