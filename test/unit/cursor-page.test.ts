import { describe, expect, it } from 'vitest';
import { JsonApiError } from '../../src/errors/json-api-error.js';
import { parsePage, type PageLimits } from '../../src/request/parse-page.js';
import { cursorLinks, type CursorPageEdges } from '../../src/shape/page-links.js';
import { thrown as thrownError } from '../support/thrown.js';

const LIMITS: PageLimits = { defaultSize: 20, maxSize: 100 };
const page = (query: Record<string, string>) => Object.entries(query).map(([member, value]) => ({ name: `page[${member}]`, members: [member], value }));
const thrown = (fn: () => unknown) => thrownError(JsonApiError, fn);

describe('parsePage: cursor pages', () => {
  it.each<{ query: Record<string, string>; profile: boolean; expected: unknown }>([
    { query: { after: 'A' }, profile: false, expected: { kind: 'cursor', size: 20, after: 'A' } },
    { query: { before: 'B', size: '5' }, profile: false, expected: { kind: 'cursor', size: 5, before: 'B' } },
    // A range defaults to the maximum page size (the profile says so).
    { query: { after: 'A', before: 'B' }, profile: false, expected: { kind: 'cursor', size: 100, after: 'A', before: 'B' } },
    { query: { after: 'A', before: 'B', size: '3' }, profile: false, expected: { kind: 'cursor', size: 3, after: 'A', before: 'B' } },
    // With the profile asked for in Accept, the first page is a cursor page too.
    { query: {}, profile: true, expected: { kind: 'cursor', size: 20 } },
    { query: { size: '7' }, profile: true, expected: { kind: 'cursor', size: 7 } },
    // With the profile, page[number] jumps: the cursor page starts after number × size resources.
    { query: { number: '0' }, profile: true, expected: { kind: 'cursor', size: 20 } },
    { query: { number: '2', size: '7' }, profile: true, expected: { kind: 'cursor', size: 7, skip: 14 } },
    { query: { after: '' }, profile: true, expected: { kind: 'cursor', size: 20, after: '' } },
    // Without it, no cursor means offset pagination.
    { query: { size: '7' }, profile: false, expected: { kind: 'offset', number: 0, size: 7 } },
  ])('$query (profile asked: $profile)', ({ query, profile, expected }) => {
    expect(parsePage(page(query), LIMITS, profile)).toEqual(expected);
  });

  it.each<{ query: Record<string, string>; profile: boolean; parameter: string; detail: RegExp }>([
    { query: { number: '1', after: 'A' }, profile: false, parameter: 'page[number]', detail: /cannot be combined with page\[after\]/ },
    { query: { number: '-1' }, profile: true, parameter: 'page[number]', detail: /non-negative integer/ },
    { query: { after: 'A', size: '101' }, profile: false, parameter: 'page[size]', detail: /100 is the maximum/ },
    { query: { size: '0' }, profile: true, parameter: 'page[size]', detail: /positive integer/ },
  ])('$query (profile asked: $profile) is a 400 naming $parameter', ({ query, profile, parameter, detail }) => {
    const error = thrown(() => parsePage(page(query), LIMITS, profile));
    expect(error.errors[0]).toMatchObject({ status: '400', source: { parameter } });
    expect(error.errors[0]!.detail).toMatch(detail);
  });
});

describe('cursorLinks: prev and next by the profile', () => {
  const base = { path: '/concepts', query: 'sort=label&page[after]=OLD&page[size]=2' };
  const first = '/concepts?sort=label&page%5Bsize%5D=2';
  const after = (cursor: string) => `/concepts?sort=label&page%5Bafter%5D=${cursor}&page%5Bsize%5D=2`;
  const before = (cursor: string) => `/concepts?sort=label&page%5Bbefore%5D=${cursor}&page%5Bsize%5D=2`;
  it.each<{ what: string; edges: CursorPageEdges; prev: string | null; next: string | null }>([
    { what: 'first page, more to come', edges: { first: 'F', last: 'L', more: true }, prev: null, next: after('L') },
    { what: 'first page, all of it', edges: { first: 'F', last: 'L', more: false }, prev: null, next: null },
    { what: 'an empty list', edges: { more: false }, prev: null, next: null },
    { what: 'after a cursor, more to come', edges: { first: 'F', last: 'L', more: true, after: 'A' }, prev: before('F'), next: after('L') },
    { what: 'after a cursor, the end', edges: { first: 'F', last: 'L', more: false, after: 'A' }, prev: before('F'), next: null },
    { what: 'after the last item: back to it', edges: { more: false, after: 'A' }, prev: before('A'), next: null },
    { what: 'before a cursor, more before', edges: { first: 'F', last: 'L', more: true, before: 'B' }, prev: before('F'), next: after('L') },
    { what: 'before a cursor, the start', edges: { first: 'F', last: 'L', more: false, before: 'B' }, prev: null, next: after('L') },
    { what: 'before the first item: on from it', edges: { more: false, before: 'B' }, prev: null, next: after('B') },
    { what: 'a range', edges: { first: 'F', last: 'L', more: true, after: 'A', before: 'B' }, prev: before('F'), next: after('L') },
    { what: 'an empty range', edges: { more: false, after: 'A', before: 'B' }, prev: before('A'), next: after('B') },
  ])('$what', ({ edges, prev, next }) => {
    expect(cursorLinks(base, edges)).toEqual({ first, prev, next });
  });
});
