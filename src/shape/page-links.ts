import type { OffsetPage } from '../request/parse-page.js';

/** Pagination links: `null` where a page does not exist; `last` is left out when the total is unknown. */
export interface PageLinks {
  first?: string | null;
  prev: string | null;
  next: string | null;
  last?: string | null;
}

/** Where the page links of one request point: the request's path, and its raw query string. */
export interface PageBase {
  /** `linkBase` + the request's canonical path (`/trade-activities`). */
  readonly path: string;
  /** The request's raw query string, without `?`. */
  readonly query: string;
}

/**
 * The links of an offset page, in the form the request used. Each carries the request's other
 * query parameters, with its `page[…]` ones replaced (`page[size]` or `page[limit]` is kept when
 * the request gave it). By number: `last` is the page holding the list's last resource. By
 * offset: the links step by the limit from the request's offset (which need not be a multiple of
 * it), `prev` stops at 0, and `last` is the offset of the last full window (the list's last
 * `limit` resources). A page past the end (empty) links `prev` to the last page, when the total
 * is known: the page just before it is empty too.
 *
 * @example offsetLinks({ path: '/concepts', query: 'sort=label' }, { kind: 'offset', number: 1, size: 20 }, { total: 45, hasNext: true })
 * // { first: '/concepts?sort=label&page%5Bnumber%5D=0', prev: '…=0', next: '…=2', last: '…=2' }
 * @example offsetLinks({ path: '/c', query: 'page[offset]=5&page[limit]=10' }, { kind: 'offset', form: 'offset', offset: 5, size: 10 }, { total: 45, hasNext: true })
 * // { first: '/c?page%5Boffset%5D=0&page%5Blimit%5D=10', prev: '…=0…', next: '…=15…', last: '…=35…' }
 */
export function offsetLinks(base: PageBase, page: OffsetPage, result: { total?: number; hasNext: boolean }): PageLinks {
  const { size } = page;
  const { total } = result;
  if ('form' in page) {
    const at = (offset: number) => requestLink(base, [['offset', String(offset)]]);
    const last = total === undefined ? undefined : Math.max(0, total - size);
    // Past the end (an empty page), the page before is empty too: prev leads back to the last one.
    const prev = total !== undefined && page.offset >= total ? last! : page.offset - size;
    const links: PageLinks = {
      first: at(0),
      prev: page.offset > 0 ? at(Math.max(0, prev)) : null,
      next: result.hasNext ? at(page.offset + size) : null,
    };
    if (last !== undefined) links.last = at(last);
    return links;
  }
  const at = (number: number) => requestLink(base, [['number', String(number)]]);
  const last = total === undefined ? undefined : Math.max(0, Math.ceil(total / size) - 1);
  const links: PageLinks = {
    first: at(0),
    // Past the last page, the page before is empty too: prev leads back to the last one.
    prev: page.number > 0 ? at(last !== undefined && page.number > last ? last : page.number - 1) : null,
    next: result.hasNext ? at(page.number + 1) : null,
  };
  if (last !== undefined) links.last = at(last);
  return links;
}

/**
 * What the links of a cursor page are made of: the cursors of its first and last items (none on
 * an empty page); whether the query saw more items past the page's far end (after the last item,
 * or before the first when the page was read from the end); and the request's own cursors, made
 * inclusive, for the links of an empty page.
 */
export interface CursorPageEdges {
  readonly first?: string;
  readonly last?: string;
  readonly more: boolean;
  /** Given when the request had `page[after]`: a cursor for "up to and including that item". */
  readonly after?: string;
  /** Given when the request had `page[before]`: a cursor for "from that item on". */
  readonly before?: string;
  /** Given when the page was reached by `page[number]` (a jump): the page before it, by number, for when this one is empty. */
  readonly jumpedFrom?: string;
}

/**
 * The links of a cursor page, by the cursor pagination profile: `prev` and `next` are `null`
 * when the page is known to be the first or the last (always known for `prev` without
 * `page[after]` and for `next` without `page[before]`); otherwise they point at the neighbouring
 * page, which may turn out empty. `first` carries no cursor; there is no `last`.
 *
 * @example cursorLinks({ path: '/concepts', query: 'page[size]=2' }, { first: 'eyJr…', last: 'eyJs…', more: true })
 * // { first: '/concepts?page%5Bsize%5D=2', prev: null, next: '/concepts?page%5Bafter%5D=eyJs…&page%5Bsize%5D=2' }
 */
export function cursorLinks(base: PageBase, edges: CursorPageEdges): PageLinks {
  const link = (member: 'after' | 'before', cursor: string) => requestLink(base, [[member, cursor]]);
  const fromEnd = edges.before !== undefined && edges.after === undefined;
  const prev =
    edges.after !== undefined
      ? link('before', edges.first ?? edges.after)
      : fromEnd && edges.more
        ? link('before', edges.first!)
        : edges.jumpedFrom !== undefined
          ? edges.first !== undefined
            ? link('before', edges.first)
            : edges.jumpedFrom
          : null;
  const next =
    edges.before !== undefined
      ? link('after', edges.last ?? edges.before)
      : edges.more
        ? link('after', edges.last!)
        : null;
  return { first: requestLink(base, []), prev, next };
}

/**
 * The request's URL, with its `page[…]` parameters replaced when `page` is given (`page[size]` and
 * `page[limit]` are kept unless replaced). Every parameter is percent-encoded anew, brackets included (`[` and `]`
 * may not appear in a URI's query), so that links are valid URI references whatever the client sent.
 *
 * @example requestLink({ path: '/concepts', query: 'sort=label&page[number]=3' }, [['number', '4']]) // '/concepts?sort=label&page%5Bnumber%5D=4'
 */
export function requestLink(base: PageBase, page?: readonly (readonly [member: string, value: string])[]): string {
  let params = [...new URLSearchParams(base.query)];
  if (page) {
    const replaced = new Set(page.map(([member]) => `page[${member}]`));
    const sizes = params.filter(([name]) => (name === 'page[size]' || name === 'page[limit]') && !replaced.has(name));
    params = [
      ...params.filter(([name]) => !name.startsWith('page[')),
      ...page.map(([member, value]) => [`page[${member}]`, value] as [string, string]),
      ...sizes,
    ];
  }
  const query = params.map(([name, value]) => `${encode(name)}=${encode(value)}`).join('&');
  return query === '' ? base.path : `${base.path}?${query}`;
}

/** encodeURIComponent, but leaving the characters a query may hold as they are (`,` `:` `@` `/`), for readable links. */
function encode(text: string): string {
  return encodeURIComponent(text).replace(/%2C|%3A|%40|%2F/g, decodeURIComponent);
}
