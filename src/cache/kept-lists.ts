import type { SelectQuery } from 'sparqljs';
import type { KeptLists } from '../execute/paths/access-path.js';
import { noParent } from '../execute/paths/list-rows.js';
import { listShape } from '../execute/paths/list-shape.js';
import { listLane, runQuery } from '../execute/run-query.js';
import type { Trace } from '../execute/trace.js';
import { isSafeAbsoluteIri } from '../mapping/iri.js';
import type { Mapping } from '../mapping/model.js';
import type { ListRequest } from '../plan/plan.js';
import { LIST_QUERIES } from '../sparql/list-shapes.js';
import { membersReaching, restrictedToMembers } from '../sparql/member-queries.js';
import { perMemberKeyIndex } from '../sparql/per-member-key.js';
import { toText } from '../sparql/to-text.js';
import { type Store, StoreError } from '../store/store.js';
import { cursorSlice, type OrderedList, offsetSlice, orderedList } from './ordered-list.js';
import { patchList } from './patch-list.js';
import { type PatchScope, patchDecision, patchScope } from './patchable-list.js';
import { listReads } from './plan-reads.js';
import type { ListPatcher, ListWindows } from './window-cache.js';

/**
 * How a dataset's lists are read whole: `in-request`, by the request that finds none kept (it waits
 * for the reading, and the requests that come meanwhile join it: the first page of a list costs
 * the whole list); `background`, beside the requests, on `store()` (the dataset's store with a
 * deadline of its own, not the request's): a page whose list is not kept yet is read from the store
 * as without the cache, at once, and the pages after the reading are cut from the kept list.
 */
export type WholeListReads =
  | { readonly kind: 'in-request' }
  | { readonly kind: 'background'; readonly store: () => Store };

/**
 * The window cache as the executor reads it ({@link KeptLists}, declared by the executor): the
 * page of a read cut from the whole ordered list, read once and kept (`window-cache.ts`); its count
 * is the list's length, and the answer is the store's, byte for byte. `not-kept` when the list
 * is not kept (being read in the background, too big, cut short by the store, or changing faster
 * than it is read), `not-in-list` when a cursor's member is not in it: the plan's next node reads
 * the page then.
 *
 * @example keptLists(windows.forDataset('sample', Infinity)!).cut(read, query, context)
 */
export function keptLists(windows: ListWindows, whole: WholeListReads = { kind: 'in-request' }): KeptLists {
  return {
    cut: async (read, query, context) => {
      const { request, window, keyset } = read;
      const list = await cachedList(windows, { ...context, request, query, whole });
      if (!list) return { kind: 'not-kept', why: NOT_KEPT[whole.kind] };
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

/** Why a page's list is not kept, by how lists are read whole. */
const NOT_KEPT = {
  'in-request': 'too big, cut short by the store, or changing faster than it is read',
  background:
    'being read in the background, too big, cut short by the store, its read failed, or changing faster than it is read',
} as const;

/** Which list {@link cachedList} asks for, through which store, and how it is read whole. */
export interface ListAsked {
  readonly mapping: Mapping;
  readonly request: ListRequest;
  /** The request's store: the whole list's (in request) and its patches' queries go to it. */
  readonly store: Store;
  /** The whole list's query: an empty keyset, the plain order with the sort keys projected, as cursors need them. */
  readonly query?: SelectQuery;
  /** Where a patch of the list says so (`patch` in Server-Timing and explain). */
  readonly trace?: Trace;
  readonly whole?: WholeListReads;
}

/**
 * The whole ordered list from the window cache (read from the store on a miss, with the key
 * values cursors need), or `undefined` when it is not kept (read in the background meanwhile, or
 * it can't be); 404 when the list hangs off a parent that does not exist.
 *
 * @example await cachedList(windows, { mapping, request: { type, sort: type.defaultSort, filters: [] }, store })
 */
export async function cachedList(windows: ListWindows, asked: ListAsked): Promise<OrderedList | undefined> {
  const { mapping, request, store, trace, whole = { kind: 'in-request' } } = asked;
  const query =
    asked.query ?? LIST_QUERIES[listShape(mapping, request)](mapping, request, { keyset: { fromEnd: false } });
  const read = (from: Store) => () =>
    runQuery(from, query, listLane(request), 'whole-list').then(
      (rows) => orderedList(request, rows),
      (error: unknown) => {
        // The store cut the list short (Virtuoso's ResultSetMaxRows): only windows of it can be read.
        if (error instanceof StoreError && error.kind === 'truncated') return undefined;
        throw error;
      },
    );
  const reads = () => listReads(mapping, request);
  const patcher = listPatcher(mapping, request, store, query, trace);
  const key = toText(query, store.textOrder);
  const list =
    whole.kind === 'background'
      ? await windows.listNow(key, reads, () => read(whole.store())(), patcher)
      : await windows.list(key, reads, read(store), patcher);
  if (list?.missingParent) throw noParent(request);
  return list;
}

/**
 * How the window cache patches this list (`window-cache.ts` ListPatcher): its changed members
 * read by the list's own query kept to them, one query, and moved (`patch-list.ts`). A subject
 * the server would not write in a query (not an IRI it accepts) makes the list be read whole.
 */
function listPatcher(
  mapping: Mapping,
  request: ListRequest,
  store: Store,
  query: SelectQuery,
  trace?: Trace,
): ListPatcher {
  // Worked out when first asked, once: a cache hit never asks (the patcher is made per request).
  let worked: PatchScope | string | undefined;
  const scope = () => (worked ??= patchScope(request, mapping, perMemberKeyIndex(request)));
  return {
    confined: (stale) => patchDecision(scope(), stale).patchable,
    roleOf: (iri) => {
      const known = scope();
      return typeof known === 'string'
        ? { member: false, target: false, keyOnly: false }
        : { member: known.member.has(iri), target: known.target.has(iri), keyOnly: known.keyOnly.has(iri) };
    },
    patch: async (list, changed, joinable = changed, targets = new Set()) => {
      const known = scope();
      const hop = typeof known === 'string' ? undefined : known.hop;
      if (targets.size > 0 && hop === undefined) return undefined;
      const reached = [...targets];
      if (!reached.every(isSafeAbsoluteIri)) return undefined;
      // The members a changed target is reached from (a concept's new label moves the activities
      // that concern it): a query of their own, then read again with the others.
      const reaching =
        hop && reached.length > 0
          ? await runQuery(store, membersReaching(hop, reached), listLane(request), 'patch-reach')
          : [];
      const moved = new Set(reaching.flatMap((row) => (row.s?.termType === 'NamedNode' ? [row.s.value] : [])));
      // A resource changed only in a sort key (or reached through the hop, which changes keys alone)
      // moves if it is listed, and stays out if it is not: only the listed ones are read again (a list
      // filtered to one country of 30 reads none of most changes, and sends no query).
      const reread = new Set(joinable);
      for (const iri of changed) moved.add(iri);
      if ([...moved].some((iri) => !reread.has(iri)))
        for (const { iri } of list.members) if (moved.has(iri)) reread.add(iri);
      const members = [...reread];
      if (!members.every(isSafeAbsoluteIri)) return undefined;
      const rows =
        members.length === 0
          ? []
          : await runQuery(store, restrictedToMembers(query, members), listLane(request), 'patch-list');
      const patched = patchList(request, list, reread, rows);
      if (patched)
        trace?.step(
          'patch',
          `the kept list went stale by changes of its members' triples or their hop's: ${members.length} members read again${reached.length ? ` (${reaching.length} reached from ${reached.length} changed targets)` : ''}${members.length ? ', one query' : ': none listed, no query'}, and moved`,
        );
      return patched;
    },
  };
}
