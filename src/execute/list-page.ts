import { notFound } from '../errors/json-api-error.js';
import type { Attribute, Mapping } from '../mapping/model.js';
import type { Keyset, ListRequest, Paging, Window } from '../plan/plan.js';
import { type Cursor, encodeCursor } from '../request/cursor.js';
import { CURSOR_PAGINATION_PROFILE } from '../request/media-types.js';
import { pageStart } from '../request/parse-page.js';
import type { PageParts } from '../shape/documents.js';
import { cursorLinks, offsetLinks, type PageBase, requestLink } from '../shape/page-links.js';
import type { Member } from '../shape/resource-objects.js';
import { buildCountQuery, buildKeyedWindowQuery, buildListQuery, buildRelatedPageQuery } from '../sparql/list-query.js';
import { toText } from '../sparql/to-text.js';
import { type Row, type Store, StoreError } from '../store/store.js';
import { histogramWindow } from './histogram-window.js';
import {
  cursorSlice,
  type MembersRead,
  membersRead,
  type OrderedList,
  offsetSlice,
  orderedList,
} from './ordered-list.js';
import { countValue, type FieldValues, groupValues, membersOf } from './rows.js';
import { listLane, runQuery } from './run-query.js';
import type { ListWindows } from './window-cache.js';

/** A page of a list: its members in order, and the links and meta the document gets. */
export interface ListPage {
  readonly members: Member[];
  readonly parts: PageParts;
  /** The members' values of the attributes asked for, when the list query brought them (no fetch then). */
  readonly values?: Map<string, FieldValues>;
}

/**
 * One page of a list (an offset page, or a cursor page by the cursor pagination profile), with
 * its links and meta. The count query, when the dataset counts, goes alongside the list query.
 * With `windows` (the dataset's window cache), the page is cut from the whole ordered list,
 * read once and kept, and the count is its length; the answer is the same, byte for byte. A page
 * read through the key's histogram brings its members' values of `attributes` with it (`values`).
 *
 * @example await listPage(mapping, plan.list, plan.paging, recorder, { path: '/concepts', query: 'page[size]=5' })
 */
export async function listPage(
  mapping: Mapping,
  request: ListRequest,
  paging: Paging,
  store: Store,
  base: PageBase,
  windows?: ListWindows,
  attributes: readonly Attribute[] = [],
): Promise<ListPage> {
  const list = windows && (await cachedList(mapping, request, store, windows));
  if (paging.page.kind === 'cursor') return cursorPage(mapping, request, paging, store, base, list, attributes);
  const { page } = paging;
  // Without a count, one row more than the page tells whether a next page exists.
  const window = { limit: page.size + (paging.count ? 0 : 1), offset: pageStart(page) };
  const { members, total, values } = list
    ? { members: offsetSlice(list, window), total: paging.count ? list.members.length : undefined }
    : await storeWindow(mapping, request, window, paging.count, store, attributes);
  const hasNext = total === undefined ? members.length > page.size : window.offset + page.size < total;
  const links = offsetLinks(base, page, { ...(total !== undefined && { total }), hasNext });
  return {
    members: members.slice(0, page.size),
    parts: { links, ...(total !== undefined && { meta: { count: total } }) },
    ...(values && { values }),
  };
}

/**
 * One page of a list by the cursor pagination profile: the store keeps what lies beyond the
 * cursors (a keyset FILTER) and returns one row more than the page, which tells whether more lie
 * beyond. A page that ends at `page[before]` is read from the end and turned round here. From a
 * cached list, the same members are cut from it, unless a cursor's member is not in it.
 */
async function cursorPage(
  mapping: Mapping,
  request: ListRequest,
  paging: Paging,
  store: Store,
  base: PageBase,
  list: OrderedList | undefined,
  attributes: readonly Attribute[],
): Promise<ListPage> {
  const { page, after, before } = paging;
  const skip = page.kind === 'cursor' ? (page.skip ?? 0) : 0;
  const fromEnd = before !== undefined && after === undefined;
  const cut = list && cursorSlice(list, paging);
  const {
    members: found,
    keys,
    total,
    values: fetched,
  } = cut
    ? { ...cut, total: paging.count ? list!.members.length : undefined, values: undefined }
    : await storeKeyset(
        mapping,
        request,
        { limit: page.size + 1, offset: skip },
        { after, before, fromEnd },
        paging,
        store,
        attributes,
      );
  const members = found.slice(0, page.size);
  const values = keys.slice(0, page.size);
  if (fromEnd) {
    members.reverse();
    values.reverse();
  }
  const cursorList = { type: request.type, sort: request.sort };
  const cursors = members.map((m, i) => encodeCursor(cursorList, { values: values[i]!, id: m.id, inclusive: false }));
  const reopened = (cursor?: Cursor) => cursor && encodeCursor(cursorList, { ...cursor, inclusive: true });
  const more = found.length > page.size;
  const jumpedFrom = skip > 0 ? requestLink(base, [['number', String(skip / page.size - 1)]]) : undefined;
  const links = cursorLinks(base, {
    first: cursors[0],
    last: cursors.at(-1),
    more,
    after: reopened(after),
    before: reopened(before),
    ...(jumpedFrom && { jumpedFrom }),
  });
  const meta = { ...(total !== undefined && { total }), ...(after && before && more && { rangeTruncated: true }) };
  return {
    members,
    parts: {
      links,
      profile: CURSOR_PAGINATION_PROFILE,
      cursors,
      ...(Object.keys(meta).length > 0 && { meta: { page: meta } }),
    },
    ...(fetched && { values: fetched }),
  };
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
): Promise<OrderedList | undefined> {
  // An empty keyset: the plain order with the sort keys projected, as cursors need them.
  const query = buildListQuery(mapping, request, undefined, { fromEnd: false });
  const list = await windows.list(toText(query), () =>
    runQuery(store, query, listLane(request)).then(
      (rows) => orderedList(request, rows),
      (error: unknown) => {
        // The store cut the list short (Virtuoso's ResultSetMaxRows): only windows of it can be read.
        if (error instanceof StoreError && error.kind === 'truncated') return undefined;
        throw error;
      },
    ),
  );
  if (list?.missingParent) throw noParent(request);
  return list;
}

/** An offset window's members, the list's total when counted, and their values when read with them. */
interface WindowRead {
  readonly members: Member[];
  readonly total?: number;
  readonly values?: Map<string, FieldValues>;
}

/**
 * An offset window of a list's members from the store, and the list's total when `count` is set:
 * through the first sort key's histogram when the list allows it (`histogram-window.ts`), else
 * sorted whole, with the count from the histogram's query or beside the window's.
 */
async function storeWindow(
  mapping: Mapping,
  request: ListRequest,
  window: Window,
  count: boolean,
  store: Store,
  attributes: readonly Attribute[],
): Promise<WindowRead> {
  const histogram = count ? await histogramWindow(mapping, request, window, store, attributes) : undefined;
  if (histogram?.kind === 'rows')
    return {
      members: membersOf(request.type, histogram.rows, false),
      total: histogram.total,
      ...(histogram.withValues && { values: groupValues(histogram.rows) }),
    };
  const related = histogram ? undefined : await relatedWindow(mapping, request, window, count, store, attributes);
  if (related) return related;
  const read = await listRows(mapping, request, window, undefined, count, store, histogram?.total);
  return { members: membersOf(request.type, read.rows, request.parent !== undefined), total: read.total };
}

/**
 * The first page of a related list with its members' values of `attributes`, in one query
 * (`buildRelatedPageQuery`): a window it does not fill ends the list, so it gives the count too,
 * and a related list of a few members costs one query. An empty window is counted (404 when the
 * parent does not exist). `undefined`, to be read the plain way, for a later page, when the list
 * can't be read so, or when a member came back with two ids: the window may then have missed one.
 */
async function relatedWindow(
  mapping: Mapping,
  request: ListRequest,
  window: Window,
  count: boolean,
  store: Store,
  attributes: readonly Attribute[],
): Promise<WindowRead | undefined> {
  // A first page only: a member with two page rows before a later window would shift it unseen.
  const query = window.offset === 0 ? buildRelatedPageQuery(mapping, request, window, attributes) : undefined;
  if (!query) return undefined;
  const rows = await runQuery(store, query, listLane(request));
  const members = membersOf(request.type, rows, false);
  // A member with two ids (two `?s_id`) has two page rows: the window may then miss one.
  if (new Set(rows.map((row) => JSON.stringify([row.s, row.s_id]))).size !== members.length) return undefined;
  const values = groupValues(rows);
  // Uncounted, a page with members needs no count; an empty one still needs it, for the 404.
  if (!count && members.length > 0) return { members, values };
  const total = await relatedTotal(mapping, request, window, store, members.length, members.length);
  return { members, values, ...(count && { total }) };
}

/**
 * A related list's total from a window of it (`pageRows` rows, of `members` members): a window
 * that is not full ends the list; else the count query tells, and 404 when the parent does not
 * exist. No row at all proves nothing: no parent, or a query form that drops the row of a parent
 * pointing at nothing.
 */
async function relatedTotal(
  mapping: Mapping,
  request: ListRequest,
  window: Window,
  store: Store,
  pageRows: number,
  members: number,
): Promise<number> {
  if (pageRows > 0 && pageRows < window.limit && (window.offset === 0 || members > 0)) return window.offset + members;
  const total = await countOf(mapping, request, store);
  if (total === undefined) throw noParent(request);
  return total;
}

/**
 * What a cursor page reads from the store: members with their key values, and the total. A page
 * after a cursor of a counted list sorted by a key of few values is read through the key's
 * histogram, as an offset page (`histogram-window.ts`: the cursor's position is counted), with its
 * members' values; any other by the keyset list query.
 */
async function storeKeyset(
  mapping: Mapping,
  request: ListRequest,
  window: Window,
  keyset: Keyset,
  paging: Paging,
  store: Store,
  attributes: readonly Attribute[],
): Promise<MembersRead & { total?: number; values?: Map<string, FieldValues> }> {
  const { after, before, fromEnd } = keyset;
  const histogram =
    paging.count && after && !before && !fromEnd
      ? await histogramWindow(mapping, request, window, store, attributes, after)
      : undefined;
  if (histogram?.kind === 'rows')
    return {
      ...membersRead(request, histogram.rows),
      total: histogram.total,
      ...(histogram.withValues && { values: groupValues(histogram.rows) }),
    };
  // A member with two rows (least key values that tie in ORDER BY while they differ as terms,
  // such as "b" and "b"@en) takes the place of another: read more rows until the window's
  // members are all there, or the list ends (counted once).
  let counted = histogram?.total;
  for (let limit = window.limit; ; limit *= 2) {
    const { rows, total } = await listRows(
      mapping,
      request,
      { ...window, limit },
      keyset,
      paging.count,
      store,
      counted,
    );
    const read = membersRead(request, rows);
    if (rows.length < limit || read.members.length >= window.limit) return { ...read, total };
    counted = total;
  }
}

/**
 * A window of a list's rows and, when `count` is set, the list's total, the two queries side by
 * side; 404 when the list hangs off a parent that does not exist. A parent that exists yields at
 * least one row (with `?s` unbound when it points at nothing), so no row at all proves it missing,
 * unless the window starts past that row or a keyset may have cut it: then the count tells.
 * A related list (mostly a few members) reads its window first: one that is not full ends the
 * list, so the window gives the count and no count query is sent.
 */
async function listRows(
  mapping: Mapping,
  request: ListRequest,
  window: Window,
  keyset: Keyset | undefined,
  count: boolean,
  store: Store,
  counted?: number,
): Promise<{ rows: Row[]; total?: number }> {
  if (request.parent && count && counted === undefined && keyset === undefined) {
    const rows = await runQuery(store, buildListQuery(mapping, request, window), listLane(request));
    const members = new Set(rows.flatMap((row) => (row.s ? [row.s.value] : []))).size;
    return { rows, total: await relatedTotal(mapping, request, window, store, rows.length, members) };
  }
  const [rows, total] = await Promise.all([
    windowRows(mapping, request, window, keyset, store),
    count ? (counted ?? countOf(mapping, request, store)) : undefined,
  ]);
  if (request.parent && rows.length === 0) {
    const proven = window.offset === 0 && keyset === undefined;
    const parentExists = count
      ? total !== undefined
      : !proven && (await countOf(mapping, request, store)) !== undefined;
    if (!parentExists) throw noParent(request);
  }
  return total === undefined ? { rows } : { rows, total };
}

/**
 * A window's rows by the list query; for a list sorted by a key of several values, first by the
 * window among the members that have a key (`buildKeyedWindowQuery`), which spares the list query
 * when it fills the window.
 */
async function windowRows(
  mapping: Mapping,
  request: ListRequest,
  window: Window,
  keyset: Keyset | undefined,
  store: Store,
): Promise<Row[]> {
  const keyed = keyset === undefined ? buildKeyedWindowQuery(mapping, request, window, store.oneGraph) : undefined;
  if (keyed) {
    const rows = await runQuery(store, keyed, listLane(request));
    if (rows.length === window.limit) return rows;
  }
  return runQuery(store, buildListQuery(mapping, request, window, keyset), listLane(request));
}

/** The list's total, or `undefined` when it hangs off a parent that does not exist. */
async function countOf(mapping: Mapping, request: ListRequest, store: Store): Promise<number | undefined> {
  const [row] = await runQuery(store, buildCountQuery(mapping, request, store.oneGraph), listLane(request));
  if (request.parent && countValue(row, 'parents') === 0) return undefined;
  return countValue(row, 'count');
}

const noParent = (request: ListRequest) => notFound(`There is no ${request.parent!.type.name} with this id.`);

/**
 * The first members of a list window, without links: what a to-one relationship points at.
 * 404 when the list hangs off a parent that does not exist.
 */
export async function listWindow(
  mapping: Mapping,
  request: ListRequest,
  window: Window,
  store: Store,
): Promise<Member[]> {
  const { rows } = await listRows(mapping, request, window, undefined, false, store);
  return membersOf(request.type, rows, request.parent !== undefined);
}
