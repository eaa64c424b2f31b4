/**
 * The window cache as the executor reads it (`KeptLists`): a page cut from its whole list when
 * the list is kept, and otherwise `not-kept` at once while the list is read whole in the
 * background; and the whole list read before the server listens (`warm-lists.ts`).
 */
import type { SelectQuery } from 'sparqljs';
import type { KeptLists } from '../execute/paths/access-path.js';
import { noParent } from '../execute/paths/list-rows.js';
import { listShape } from '../execute/paths/list-shape.js';
import { listLane, runQuery } from '../execute/run-query.js';
import type { Trace } from '../execute/trace.js';
import type { Mapping } from '../mapping/model.js';
import type { ListRequest } from '../plan/plan.js';
import { LIST_QUERIES } from '../sparql/list-shapes.js';
import { toText } from '../sparql/to-text.js';
import { type Store, StoreError } from '../store/store.js';
import { listPatcher } from './list-patcher.js';
import type { ListWindows } from './list-windows.js';
import { cursorSlice, type OrderedList, offsetSlice, orderedList } from './ordered-list.js';
import { listReads } from './plan-reads.js';

/**
 * The window cache as the executor reads it ({@link KeptLists}, declared by the executor): the
 * page of a read cut from the whole ordered list, read once and kept (`window-cache.ts`); its count
 * is the list's length, and the answer is the store's, byte for byte. A page never waits on a
 * whole list's reading: `not-kept` when the list is not kept (being read in the background, on
 * `wholeStore()`, the dataset's store with a deadline of its own, not the request's; too big; cut
 * short by the store; its read failed; or changing faster than it is read), `not-in-list` when a
 * cursor's member is not in it: the plan's next node reads the page from the store then.
 *
 * @example keptLists(windows.forDataset('sample', Infinity)!, () => store).cut(read, query, context)
 */
export function keptLists(windows: ListWindows, wholeStore: () => Store): KeptLists {
  return {
    cut: async (read, query, context) => {
      const { request, window, keyset } = read;
      const list = await cachedList(windows, { ...context, request, query, wholeStore });
      if (!list) return { kind: 'not-kept', why: NOT_KEPT };
      const total = read.count !== 'none' ? { total: list.members.length } : {};
      if (!keyset) return { kind: 'cut', read: { members: offsetSlice(list, window), ...total } };
      const cut = cursorSlice(list, {
        page: { kind: 'cursor', size: window.limit - 1, ...(window.offset > 0 && { skip: window.offset }) },
        count: read.count !== 'none',
        ...keyset,
      });
      return cut ? { kind: 'cut', read: { ...cut, ...total } } : { kind: 'not-in-list' };
    },
  };
}

/** Why a page's list is not kept. */
const NOT_KEPT =
  'being read in the background, too big, cut short by the store, its read failed, or changing faster than it is read';

/** Which list {@link cachedList} asks for, through which store, and where the whole list is read. */
export interface ListAsked {
  readonly mapping: Mapping;
  readonly request: ListRequest;
  /** The request's store: its patches' queries go to it (and the whole list's, without `wholeStore`). */
  readonly store: Store;
  /** The whole list's query: an empty keyset, the plain order with the sort keys projected, as cursors need them. */
  readonly query?: SelectQuery;
  /** Where a patch of the list says so (`patch` in Server-Timing and explain). */
  readonly trace?: Trace;
  /**
   * A page's lookup: the store the whole list is read from in the background, and the page does
   * not wait on it. Without it the lookup waits for the whole list, read on `store` (start-up).
   */
  readonly wholeStore?: () => Store;
}

/**
 * The whole ordered list from the window cache (read from the store on a miss, with the key
 * values cursors need), or `undefined` when it is not kept (read in the background meanwhile, or
 * it can't be); 404 when the list hangs off a parent that does not exist.
 *
 * @example await cachedList(windows, { mapping, request: { type, sort: type.defaultSort, filters: [] }, store })
 */
export async function cachedList(windows: ListWindows, asked: ListAsked): Promise<OrderedList | undefined> {
  const { mapping, request, store, trace, wholeStore } = asked;
  const query = asked.query ?? LIST_QUERIES[listShape(request)](mapping, request, { keyset: { fromEnd: false } });
  const read = (from: Store) =>
    runQuery(from, query, listLane(request), 'whole-list').then(
      (rows) => orderedList(request, rows),
      (error: unknown) => {
        // The store cut the list short (Virtuoso's ResultSetMaxRows): only windows of it can be read.
        if (error instanceof StoreError && error.kind === 'truncated') return undefined;
        throw error;
      },
    );
  const reads = () => listReads(mapping, request);
  const patcher = listPatcher({ mapping, request, store, query, trace });
  const key = toText(query, store.textOrder);
  const list = wholeStore
    ? await windows.listNow(key, reads, () => read(wholeStore()), patcher)
    : await windows.list(key, reads, () => read(store), patcher);
  if (list?.missingParent) throw noParent(request);
  return list;
}
