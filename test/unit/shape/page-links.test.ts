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
      expected: { first: at(0), prev: at(8), next: null, last: at(2) },
    },
    { number: 1, size: 10, total: undefined, hasNext: true, expected: { first: at(0), prev: at(0), next: at(2) } },
  ])('page $number of size $size, total $total', ({ number, size, total, hasNext, expected }) => {
    expect(
      offsetLinks(base, { kind: 'offset', number, size }, { ...(total !== undefined && { total }), hasNext }),
    ).toEqual(expected);
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
