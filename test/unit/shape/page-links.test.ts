import { describe, expect, it } from 'vitest';
import { type CursorPageEdges, cursorLinks, offsetLinks, requestLink } from '../../../src/shape/page-links.js';

describe('requestLink', () => {
  it.each([
    { query: '', page: undefined, expected: '/c' },
    { query: 'sort=-label,id', page: undefined, expected: '/c?sort=-label,id' },
    // Brackets are percent-encoded whatever the client sent; names and values are re-encoded.
    { query: 'page[size]=2', page: undefined, expected: '/c?page%5Bsize%5D=2' },
    { query: 'page%5Bsize%5D=2', page: undefined, expected: '/c?page%5Bsize%5D=2' },
    { query: 'filter[label]=a b&x=%22', page: undefined, expected: '/c?filter%5Blabel%5D=a%20b&x=%22' },
    { query: 'filter=a+b', page: undefined, expected: '/c?filter=a%20b' },
    // Page parameters are replaced; page[size] is kept unless replaced; others keep their order.
    {
      query: 'sort=id&page[number]=3&page[size]=2',
      page: [['number', '4']] as const,
      expected: '/c?sort=id&page%5Bnumber%5D=4&page%5Bsize%5D=2',
    },
    { query: 'page[number]=3', page: [['number', '0']] as const, expected: '/c?page%5Bnumber%5D=0' },
    {
      query: 'page[after]=x&page[size]=2',
      page: [['before', 'y z']] as const,
      expected: '/c?page%5Bbefore%5D=y%20z&page%5Bsize%5D=2',
    },
    { query: 'page[size]=2', page: [['size', '3']] as const, expected: '/c?page%5Bsize%5D=3' },
    // page[limit] is kept like page[size]
    {
      query: 'page[offset]=3&page[limit]=2&sort=id',
      page: [['offset', '5']] as const,
      expected: '/c?sort=id&page%5Boffset%5D=5&page%5Blimit%5D=2',
    },
  ])('$query with $page → $expected', ({ query, page, expected }) => {
    expect(requestLink({ path: '/c', query }, page)).toBe(expected);
  });
});

describe('offsetLinks', () => {
  const base = { path: '/c', query: '' };
  const at = (n: number) => `/c?page%5Bnumber%5D=${n}`;
  it.each([
    { number: 0, size: 10, total: 0, hasNext: false, expected: { first: at(0), prev: null, next: null, last: at(0) } },
    { number: 0, size: 10, total: 10, hasNext: false, expected: { first: at(0), prev: null, next: null, last: at(0) } },
    { number: 0, size: 10, total: 11, hasNext: true, expected: { first: at(0), prev: null, next: at(1), last: at(1) } },
    {
      number: 2,
      size: 10,
      total: 30,
      hasNext: false,
      expected: { first: at(0), prev: at(1), next: null, last: at(2) },
    },
    {
      number: 9,
      size: 10,
      total: 30,
      hasNext: false,
      // past the end: prev leads back to the last page, not to page 8 (empty too)
      expected: { first: at(0), prev: at(2), next: null, last: at(2) },
    },
    {
      number: 5,
      size: 10,
      total: 0,
      hasNext: false,
      expected: { first: at(0), prev: at(0), next: null, last: at(0) },
    },
    {
      number: 9,
      size: 10,
      total: undefined,
      hasNext: false,
      // no total (count off): the page before is all that can be said
      expected: { first: at(0), prev: at(8), next: null },
    },
    { number: 1, size: 10, total: undefined, hasNext: true, expected: { first: at(0), prev: at(0), next: at(2) } },
  ])('page $number of size $size, total $total', ({ number, size, total, hasNext, expected }) => {
    expect(
      offsetLinks(base, { kind: 'offset', number, size }, { ...(total !== undefined && { total }), hasNext }),
    ).toEqual(expected);
  });
});

describe('offsetLinks: page[offset] and page[limit]', () => {
  const at = (offset: number, limit?: number) =>
    `/c?sort=id&page%5Boffset%5D=${offset}${limit === undefined ? '' : `&page%5Blimit%5D=${limit}`}`;
  it.each([
    // aligned offsets
    {
      query: 'page[limit]=10',
      offset: 0,
      total: 0,
      hasNext: false,
      expected: { first: at(0, 10), prev: null, next: null, last: at(0, 10) },
    },
    {
      query: 'page[limit]=10',
      offset: 0,
      total: 25,
      hasNext: true,
      expected: { first: at(0, 10), prev: null, next: at(10, 10), last: at(15, 10) },
    },
    {
      query: 'page[limit]=10',
      offset: 10,
      total: 25,
      hasNext: true,
      expected: { first: at(0, 10), prev: at(0, 10), next: at(20, 10), last: at(15, 10) },
    },
    {
      query: 'page[limit]=10',
      offset: 20,
      total: 25,
      hasNext: false,
      expected: { first: at(0, 10), prev: at(10, 10), next: null, last: at(15, 10) },
    },
    // an offset that is no multiple of the limit: steps by the limit from it, prev stops at 0
    {
      query: 'page[limit]=10',
      offset: 7,
      total: 25,
      hasNext: true,
      expected: { first: at(0, 10), prev: at(0, 10), next: at(17, 10), last: at(15, 10) },
    },
    {
      query: 'page[limit]=10',
      offset: 13,
      total: 25,
      hasNext: true,
      expected: { first: at(0, 10), prev: at(3, 10), next: at(23, 10), last: at(15, 10) },
    },
    // the list fits in one window: last is 0
    {
      query: 'page[limit]=10',
      offset: 0,
      total: 10,
      hasNext: false,
      expected: { first: at(0, 10), prev: null, next: null, last: at(0, 10) },
    },
    // beyond the end: no next, prev back to the last window (not one limit back, empty too)
    {
      query: 'page[limit]=10',
      offset: 90,
      total: 25,
      hasNext: false,
      expected: { first: at(0, 10), prev: at(15, 10), next: null, last: at(15, 10) },
    },
    // the last, partly filled window is not past the end: prev one limit back
    {
      query: 'page[limit]=10',
      offset: 20,
      total: 25,
      hasNext: false,
      expected: { first: at(0, 10), prev: at(10, 10), next: null, last: at(15, 10) },
    },
    // no limit given: the links give none either (the default size applies)
    {
      query: '',
      offset: 20,
      total: 45,
      hasNext: true,
      expected: { first: at(0), prev: at(0), next: at(40), last: at(25) },
    },
    // no count: no last
    {
      query: 'page[limit]=10',
      offset: 5,
      total: undefined,
      hasNext: true,
      expected: { first: at(0, 10), prev: at(0, 10), next: at(15, 10) },
    },
  ])('offset $offset, $query, total $total', ({ query, offset, total, hasNext, expected }) => {
    const size = /limit\]=(\d+)/.exec(query)?.[1];
    const page = { kind: 'offset', form: 'offset', offset, size: size === undefined ? 20 : Number(size) } as const;
    const base = { path: '/c', query: `sort=id&page[offset]=${offset}${query === '' ? '' : `&${query}`}` };
    expect(offsetLinks(base, page, { ...(total !== undefined && { total }), hasNext })).toEqual(expected);
  });
});

describe('cursorLinks: prev and next by the profile', () => {
  const base = { path: '/concepts', query: 'sort=label&page[after]=OLD&page[size]=2' };
  const first = '/concepts?sort=label&page%5Bsize%5D=2';
  const afterLink = (cursor: string) => `/concepts?sort=label&page%5Bafter%5D=${cursor}&page%5Bsize%5D=2`;
  const beforeLink = (cursor: string) => `/concepts?sort=label&page%5Bbefore%5D=${cursor}&page%5Bsize%5D=2`;
  it.each<{ what: string; edges: CursorPageEdges; prev: string | null; next: string | null }>([
    {
      what: 'first page, more to come',
      edges: { first: 'F', last: 'L', more: true },
      prev: null,
      next: afterLink('L'),
    },
    { what: 'first page, all of it', edges: { first: 'F', last: 'L', more: false }, prev: null, next: null },
    { what: 'an empty list', edges: { more: false }, prev: null, next: null },
    {
      what: 'after a cursor, more to come',
      edges: { first: 'F', last: 'L', more: true, after: 'A' },
      prev: beforeLink('F'),
      next: afterLink('L'),
    },
    {
      what: 'after a cursor, the end',
      edges: { first: 'F', last: 'L', more: false, after: 'A' },
      prev: beforeLink('F'),
      next: null,
    },
    { what: 'after the last item: back to it', edges: { more: false, after: 'A' }, prev: beforeLink('A'), next: null },
    {
      what: 'before a cursor, more before',
      edges: { first: 'F', last: 'L', more: true, before: 'B' },
      prev: beforeLink('F'),
      next: afterLink('L'),
    },
    {
      what: 'before a cursor, the start',
      edges: { first: 'F', last: 'L', more: false, before: 'B' },
      prev: null,
      next: afterLink('L'),
    },
    {
      what: 'before the first item: on from it',
      edges: { more: false, before: 'B' },
      prev: null,
      next: afterLink('B'),
    },
    {
      what: 'a range',
      edges: { first: 'F', last: 'L', more: true, after: 'A', before: 'B' },
      prev: beforeLink('F'),
      next: afterLink('L'),
    },
    {
      what: 'an empty range',
      edges: { more: false, after: 'A', before: 'B' },
      prev: beforeLink('A'),
      next: afterLink('B'),
    },
  ])('$what', ({ edges, prev, next }) => {
    expect(cursorLinks(base, edges)).toEqual({ first, prev, next });
  });
});
