import type { Mapping } from '../mapping/model.js';
import type { ListRequest } from '../plan/plan.js';
import type { Store } from '../store/store.js';
import { cachedList } from './kept-lists.js';
import type { ListWindows } from './list-windows.js';

/**
 * Reads every type's list, in its default order, into the window cache, one list after the
 * other, so that no collection's first page waits for its whole list (1.9 s for 70,000 trade
 * activities in the embedded store, against 30 ms once read). `serve` runs it before it listens;
 * a request that comes while a list is read (an app that serves meanwhile) joins that reading.
 * Other sorts, filters and related lists are read when first asked for. Rejects at the first
 * store error, which requests meet themselves.
 *
 * @returns how many lists the cache now holds (one it can't keep is read, not counted)
 * @example await warmLists(mapping, withSignal(store, signal), windows) // 9
 */
export async function warmLists(mapping: Mapping, store: Store, windows: ListWindows): Promise<number> {
  let kept = 0;
  for (const type of mapping.types.values()) {
    const request: ListRequest = { type, sort: type.defaultSort, filters: [] };
    if (await cachedList(windows, { mapping, request, store })) kept++;
  }
  return kept;
}
