import type { Attribute, Mapping } from '../mapping/model.js';
import type { ListRequest, Paging, Window } from '../plan/plan.js';
import { type Cursor, encodeCursor } from '../request/cursor.js';
import { CURSOR_PAGINATION_PROFILE } from '../request/media-types.js';
import { pageStart } from '../request/parse-page.js';
import type { PageParts } from '../shape/documents.js';
import { cursorLinks, offsetLinks, type PageBase, requestLink } from '../shape/page-links.js';
import type { Member } from '../shape/resource-objects.js';
import type { AccessPath, ListRead, ListTraits, PathContext } from './paths/access-path.js';
import { planListRead } from './paths/plan-list-read.js';
import { readList } from './paths/read-list.js';
import type { FieldValues } from './rows.js';

/** A page of a list: its members in order, and the links and meta the document gets. */
export interface ListPage {
  readonly members: Member[];
  readonly parts: PageParts;
  /** The members' values of the attributes asked for, when the list query brought them (no fetch then). */
  readonly values?: Map<string, FieldValues>;
}

/** What a page of a list is: the list, its paging, where its links point, the attributes it shows. */
export interface PageAsked {
  readonly request: ListRequest;
  readonly paging: Paging;
  readonly base: PageBase;
  readonly attributes?: readonly Attribute[];
}

/**
 * One page of a list (an offset page, or a cursor page by the cursor pagination profile), with
 * its links and meta. The read is planned once (`paths/plan-list-read.ts`: which access path),
 * then run by that path's module (`paths/read-list.ts`); this shapes what it read into the page.
 * A path that reads the members' values of `attributes` with the page gives them (`values`).
 *
 * @example await listPage({ mapping, store, trace }, { request: plan.list, paging: plan.paging, base: { path: '/concepts', query: 'page[size]=5' } })
 */
export async function listPage(
  context: PathContext,
  { request, paging, base, attributes = [] }: PageAsked,
): Promise<ListPage> {
  const { mapping } = context;
  const read = pageRead(request, paging, attributes);
  if (paging.page.kind === 'cursor') return cursorPage(context, read, paging, base);
  const { page } = paging;
  const { window } = read;
  const { members, total, values } = await readList(planListRead(mapping, read, traitsOf(context)), context);
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
 * beyond. A page that ends at `page[before]` is read from the end and turned round here.
 */
async function cursorPage(context: PathContext, read: ListRead, paging: Paging, base: PageBase): Promise<ListPage> {
  const { request } = read;
  const { page, after, before } = paging;
  const skip = read.window.offset;
  const fromEnd = read.keyset!.fromEnd;
  const found = await readList(planListRead(context.mapping, read, traitsOf(context)), context);
  const members = found.members.slice(0, page.size);
  const values = found.keys!.slice(0, page.size);
  if (fromEnd) {
    members.reverse();
    values.reverse();
  }
  const cursorList = { type: request.type, sort: request.sort };
  const cursors = members.map((m, i) => encodeCursor(cursorList, { values: values[i]!, id: m.id, inclusive: false }));
  const reopened = (cursor?: Cursor) => cursor && encodeCursor(cursorList, { ...cursor, inclusive: true });
  const more = found.members.length > page.size;
  const jumpedFrom = skip > 0 ? requestLink(base, [['number', String(skip / page.size - 1)]]) : undefined;
  const links = cursorLinks(base, {
    first: cursors[0],
    last: cursors.at(-1),
    more,
    after: reopened(after),
    before: reopened(before),
    ...(jumpedFrom && { jumpedFrom }),
  });
  const { total } = found;
  const meta = { ...(total !== undefined && { total }), ...(after && before && more && { rangeTruncated: true }) };
  return {
    members,
    parts: {
      links,
      profile: CURSOR_PAGINATION_PROFILE,
      cursors,
      ...(Object.keys(meta).length > 0 && { meta: { page: meta } }),
    },
    ...(found.values && { values: found.values }),
  };
}

/**
 * What a page asks of its list: an offset page's window (one row more than the page when
 * uncounted: it tells whether a next page exists); a cursor page's one row more than the page,
 * after its skip, past its cursors (read from the end for a page that ends at `page[before]`).
 *
 * @example pageRead(plan.list, plan.paging, attributes).window // { limit: 20, offset: 40 }
 */
export function pageRead(request: ListRequest, paging: Paging, attributes: readonly Attribute[] = []): ListRead {
  const { page, after, before } = paging;
  const count = paging.count ? 'query' : 'none';
  if (page.kind !== 'cursor')
    return {
      request,
      window: { limit: page.size + (paging.count ? 0 : 1), offset: pageStart(page) },
      count,
      attributes,
    };
  const fromEnd = before !== undefined && after === undefined;
  const window = { limit: page.size + 1, offset: page.skip ?? 0 };
  return { request, window, keyset: { after, before, fromEnd }, count, attributes };
}

/**
 * What the planner reads of the store and of what the app remembers (the dry plan plans with the
 * same traits as the run).
 *
 * @example planListRead(mapping, read, traitsOf({ store, kept, hints, memo }))
 */
export const traitsOf = (context: Pick<PathContext, 'store' | 'kept' | 'hints' | 'memo'>): ListTraits => ({
  oneGraph: context.store.oneGraph,
  textOrder: context.store.textOrder,
  windowCache: context.kept !== undefined,
  hints: context.hints,
  memo: context.memo,
});

/**
 * The first members of a list window, without links: what a to-one relationship points at
 * (never from the window cache, uncounted). 404 when the list hangs off a parent that does not exist.
 */
export async function listWindow(context: PathContext, request: ListRequest, window: Window): Promise<Member[]> {
  const { kept: _, ...unkept } = context;
  return (await readList(planWindowRead(context.mapping, { request, window }, traitsOf(context)), unkept)).members;
}

/**
 * The plan of {@link listWindow}'s read: uncounted, never from the window cache.
 *
 * @example planWindowRead(mapping, { request: plan.list, window: { limit: 1, offset: 0 } }, traits).kind // 'list-query'
 */
export function planWindowRead(
  mapping: Mapping,
  { request, window }: { readonly request: ListRequest; readonly window: Window },
  traits: ListTraits,
): AccessPath {
  const read: ListRead = { request, window, count: 'none', attributes: [] };
  return planListRead(mapping, read, { ...traits, windowCache: false });
}
