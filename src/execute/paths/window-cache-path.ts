import type { SelectQuery } from 'sparqljs';
import { isSafeAbsoluteIri } from '../../mapping/iri.js';
import type { Mapping } from '../../mapping/model.js';
import { type PatchScope, patchDecision, patchScope } from '../../plan/patchable-list.js';
import type { ListRequest } from '../../plan/plan.js';
import { listReads } from '../../plan/plan-reads.js';
import { buildListQuery, membersReaching, restrictedToMembers } from '../../sparql/list-query.js';
import { perMemberKeyIndex } from '../../sparql/per-member-key.js';
import { toText } from '../../sparql/to-text.js';
import { type Store, StoreError } from '../../store/store.js';
import { cursorSlice, type OrderedList, offsetSlice, orderedList } from '../ordered-list.js';
import { patchList } from '../patch-list.js';
import { listLane, runQuery } from '../run-query.js';
import type { Trace } from '../trace.js';
import type { ListPatcher, ListWindows } from '../window-cache.js';
import type { AccessPath, PathContext, PathRead, RunPath } from './access-path.js';
import { noParent } from './list-rows.js';

/**
 * The `window-cache` path: the page cut from the whole ordered list, read once and kept
 * (`window-cache.ts`); its count is the list's length, and the answer is the store's, byte for
 * byte. The path's fallback reads the page from the store when the list can't be kept (too big,
 * cut short by the store, or changing faster than it is read), or when a cursor's member is not in it.
 *
 * @example await readWindowCache(path, context, readList)
 */
export async function readWindowCache(
  path: Extract<AccessPath, { kind: 'window-cache' }>,
  context: PathContext,
  run: RunPath,
): Promise<PathRead> {
  const { read } = path;
  const { request, window, keyset } = read;
  const list =
    context.windows &&
    (await cachedList(context.mapping, request, context.store, context.windows, path.query, context.trace));
  const total = list && read.count !== 'none' ? { total: list.members.length } : {};
  if (list && !keyset) return { members: offsetSlice(list, window), ...total };
  const cut =
    list &&
    keyset &&
    cursorSlice(list, {
      page: { kind: 'cursor', size: window.limit - 1, ...(window.offset > 0 && { skip: window.offset }) },
      count: read.count !== 'none',
      ...keyset,
    });
  if (cut) return { ...cut, ...total };
  const { fallback } = path;
  context.trace.step(
    fallback.kind,
    `${list ? 'a cursor is not in the cached list' : 'the list cannot be kept (too big, cut short, or changing faster than it is read)'}: ${fallback.why}`,
    true,
  );
  return run(fallback, context);
}

/**
 * The whole ordered list from the window cache (read from the store on a miss, with the key
 * values cursors need), or `undefined` when it can't be kept; 404 when the list hangs off a parent
 * that does not exist.
 *
 * @example await cachedList(mapping, { type, sort: type.defaultSort, filters: [] }, store, windows)
 */
export async function cachedList(
  mapping: Mapping,
  request: ListRequest,
  store: Store,
  windows: ListWindows,
  // An empty keyset: the plain order with the sort keys projected, as cursors need them.
  query: SelectQuery = buildListQuery(mapping, request, undefined, { fromEnd: false }),
  /** Where a patch of the list says so (`patch` in Server-Timing and explain). */
  trace?: Trace,
): Promise<OrderedList | undefined> {
  const list = await windows.list(
    toText(query, store.textOrder),
    () => listReads(mapping, request),
    () =>
      runQuery(store, query, listLane(request), 'whole-list').then(
        (rows) => orderedList(request, rows),
        (error: unknown) => {
          // The store cut the list short (Virtuoso's ResultSetMaxRows): only windows of it can be read.
          if (error instanceof StoreError && error.kind === 'truncated') return undefined;
          throw error;
        },
      ),
    listPatcher(mapping, request, store, query, trace),
  );
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
