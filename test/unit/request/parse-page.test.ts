import { describe, expect, it } from 'vitest';
import { JsonApiError } from '../../../src/errors/json-api-error.js';
import { type PageLimits, parsePage } from '../../../src/request/parse-page.js';
import { parseQuery } from '../../../src/request/parse-query.js';
import { thrown as thrownError } from '../../support/thrown.js';

const thrown = (fn: () => unknown) => thrownError(JsonApiError, fn);
const LIMITS: PageLimits = { defaultSize: 20, maxSize: 100 };
const page = (query: string, limits = LIMITS) => parsePage(parseQuery(query).page, limits);
/** page[...] members as parseQuery gives them, for the cases that pass `profile` too. */
const pageParams = (query: Record<string, string>) =>
  Object.entries(query).map(([member, value]) => ({ name: `page[${member}]`, members: [member], value }));

describe('parsePage: accepted', () => {
  it.each([
    { query: '', expected: { kind: 'offset', number: 0, size: 20 } },
    { query: 'page[number]=0', expected: { kind: 'offset', number: 0, size: 20 } },
    { query: 'page[number]=3', expected: { kind: 'offset', number: 3, size: 20 } },
    { query: 'page[size]=1', expected: { kind: 'offset', number: 0, size: 1 } },
    { query: 'page[size]=3&page[number]=715827882', expected: { kind: 'offset', number: 715827882, size: 3 } },
    { query: 'page[number]=007', expected: { kind: 'offset', number: 7, size: 20 } },
    { query: 'page[number]=00000000000000000002', expected: { kind: 'offset', number: 2, size: 20 } },
    { query: 'page[after]=abc', expected: { kind: 'cursor', size: 20, after: 'abc' } },
    { query: 'page[before]=abc&page[size]=5', expected: { kind: 'cursor', size: 5, before: 'abc' } },
    // A range defaults to the maximum page size, as the cursor pagination profile asks.
    { query: 'page[after]=a&page[before]=b', expected: { kind: 'cursor', size: 100, after: 'a', before: 'b' } },
  ])('$query', ({ query, expected }) => {
    expect(page(query)).toEqual(expected);
  });

  it('the default size comes from the dataset', () => {
    expect(page('', { defaultSize: 4, maxSize: 10 })).toEqual({ kind: 'offset', number: 0, size: 4 });
  });
});

describe('parsePage: refused', () => {
  it.each([
    { query: 'page[size]=0', parameter: 'page[size]', detail: /positive integer; got '0'/ },
    { query: 'page[size]=-1', parameter: 'page[size]', detail: /positive integer/ },
    { query: 'page[size]=', parameter: 'page[size]', detail: /positive integer; got ''/ },
    { query: 'page[size]=1.0', parameter: 'page[size]', detail: /positive integer/ },
    { query: 'page[size]=+5', parameter: 'page[size]', detail: /positive integer/ },
    { query: 'page[size]=%205', parameter: 'page[size]', detail: /positive integer/ },
    { query: 'page[size]=1e2', parameter: 'page[size]', detail: /positive integer/ },
    { query: 'page[size]=101', parameter: 'page[size]', detail: /101, but 100 is the maximum/ },
    // Integers too large to be exact as a double are still integers, past the limit.
    {
      query: 'page[size]=99999999999999999999',
      parameter: 'page[size]',
      detail: /page\[size\] is 99999999999999999999, but 100 is the maximum/,
    },
    {
      query: 'page[size]=9007199254740991',
      parameter: 'page[size]',
      detail: /page\[size\] is 9007199254740991, but 100 is the maximum/,
    },
    {
      query: 'page[number]=99999999999999',
      parameter: 'page[number]',
      detail: /page\[number\] 99999999999999 of 20 skips 1999999999999980 resources; at most 2147483647 can be skipped/,
    },
    {
      query: 'page[number]=9007199254740993&page[size]=3',
      parameter: 'page[number]',
      detail: /page\[number\] 9007199254740993 of 3 skips 27021597764222979 resources/,
    },
    {
      query: 'page[offset]=00000000000000000000000000012345678901234567890',
      parameter: 'page[offset]',
      detail: /page\[offset\] 12345678901234567890 skips more than 2147483647/,
    },
    { query: 'page[size]=9999999999', parameter: 'page[size]', detail: /9999999999, but 100 is the maximum/ },
    { query: 'page[number]=-1', parameter: 'page[number]', detail: /non-negative integer \(pages count from 0\)/ },
    // Stores keep OFFSET in 32 bits: a page past it is refused, not sent.
    {
      query: 'page[size]=100&page[number]=999999999',
      parameter: 'page[number]',
      detail: /at most 2147483647 can be skipped/,
    },
    { query: 'page[size]=3&page[number]=715827883', parameter: 'page[number]', detail: /skips 2147483649 resources/ },
    { query: 'page[number]=one', parameter: 'page[number]', detail: /non-negative integer/ },
    { query: 'page[number]=0x10', parameter: 'page[number]', detail: /non-negative integer/ },
    { query: 'page[number]=1&page[after]=x', parameter: 'page[number]', detail: /cannot be combined/ },
    { query: 'page[number]=1&page[before]=x', parameter: 'page[number]', detail: /cannot be combined/ },
  ])('$query → 400 naming $parameter', ({ query, parameter, detail }) => {
    const error = thrown(() => page(query));
    expect(error.status).toBe(400);
    expect(error.errors[0]).toMatchObject({ status: '400', source: { parameter } });
    expect(error.errors[0]!.detail).toMatch(detail);
  });

  it('a size over the maximum carries the maximum in meta.page.maxSize (cursor pagination profile)', () => {
    const error = thrown(() => page('page[size]=11', { defaultSize: 4, maxSize: 10 }));
    expect(error.errors[0]).toMatchObject({
      title: 'Page size requested is too large',
      meta: { page: { maxSize: 10 } },
    });
  });
});

describe('parsePage: cursor pages', () => {
  it.each<{ query: Record<string, string>; profile: boolean; expected: unknown }>([
    { query: { after: 'A' }, profile: false, expected: { kind: 'cursor', size: 20, after: 'A' } },
    { query: { before: 'B', size: '5' }, profile: false, expected: { kind: 'cursor', size: 5, before: 'B' } },
    // A range defaults to the maximum page size (the profile says so).
    {
      query: { after: 'A', before: 'B' },
      profile: false,
      expected: { kind: 'cursor', size: 100, after: 'A', before: 'B' },
    },
    {
      query: { after: 'A', before: 'B', size: '3' },
      profile: false,
      expected: { kind: 'cursor', size: 3, after: 'A', before: 'B' },
    },
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
    expect(parsePage(pageParams(query), LIMITS, { cursorProfile: profile })).toEqual(expected);
  });

  it.each<{ query: Record<string, string>; profile: boolean; parameter: string; detail: RegExp }>([
    {
      query: { number: '1', after: 'A' },
      profile: false,
      parameter: 'page[number]',
      detail: /cannot be combined with page\[after\]/,
    },
    { query: { number: '-1' }, profile: true, parameter: 'page[number]', detail: /non-negative integer/ },
    { query: { after: 'A', size: '101' }, profile: false, parameter: 'page[size]', detail: /100 is the maximum/ },
    { query: { size: '0' }, profile: true, parameter: 'page[size]', detail: /positive integer/ },
  ])('$query (profile asked: $profile) is a 400 naming $parameter', ({ query, profile, parameter, detail }) => {
    const error = thrown(() => parsePage(pageParams(query), LIMITS, { cursorProfile: profile }));
    expect(error.errors[0]).toMatchObject({ status: '400', source: { parameter } });
    expect(error.errors[0]!.detail).toMatch(detail);
  });
});

describe('parsePage: page[offset] and page[limit]', () => {
  it.each([
    { query: 'page[offset]=0', expected: { kind: 'offset', form: 'offset', offset: 0, size: 20 } },
    { query: 'page[offset]=7', expected: { kind: 'offset', form: 'offset', offset: 7, size: 20 } },
    { query: 'page[limit]=5', expected: { kind: 'offset', form: 'offset', offset: 0, size: 5 } },
    // The offset need not be a multiple of the limit.
    { query: 'page[offset]=7&page[limit]=5', expected: { kind: 'offset', form: 'offset', offset: 7, size: 5 } },
    { query: 'page[limit]=5&page[offset]=7', expected: { kind: 'offset', form: 'offset', offset: 7, size: 5 } },
    { query: 'page[limit]=100', expected: { kind: 'offset', form: 'offset', offset: 0, size: 100 } },
    { query: 'page[offset]=007', expected: { kind: 'offset', form: 'offset', offset: 7, size: 20 } },
    // As far as stores skip: 2³¹ − 1, whatever the limit.
    {
      query: 'page[offset]=2147483647&page[limit]=100',
      expected: { kind: 'offset', form: 'offset', offset: 2147483647, size: 100 },
    },
  ])('$query', ({ query, expected }) => {
    expect(page(query)).toEqual(expected);
  });

  it('the default limit comes from the dataset', () => {
    expect(page('page[offset]=3', { defaultSize: 4, maxSize: 10 })).toEqual({
      kind: 'offset',
      form: 'offset',
      offset: 3,
      size: 4,
    });
  });

  it.each([
    { query: 'page[limit]=0', parameter: 'page[limit]', detail: /page\[limit\] must be a positive integer; got '0'/ },
    { query: 'page[limit]=', parameter: 'page[limit]', detail: /positive integer; got ''/ },
    { query: 'page[limit]=2.5', parameter: 'page[limit]', detail: /positive integer/ },
    { query: 'page[limit]=101', parameter: 'page[limit]', detail: /page\[limit\] is 101, but 100 is the maximum/ },
    { query: 'page[offset]=-1', parameter: 'page[offset]', detail: /non-negative integer \(the number of resources/ },
    { query: 'page[offset]=1e3', parameter: 'page[offset]', detail: /non-negative integer/ },
    {
      query: 'page[offset]=',
      parameter: 'page[offset]',
      detail: /non-negative integer \(the number of resources to skip\); got ''/,
    },
    { query: 'page[offset]=2147483648', parameter: 'page[offset]', detail: /more than 2147483647 resources/ },
    {
      query: 'page[offset]=99999999999',
      parameter: 'page[offset]',
      detail: /page\[offset\] 99999999999 skips more than 2147483647/,
    },
    // Two forms mixed: the parameter given second is named.
    {
      query: 'page[offset]=5&page[size]=5',
      parameter: 'page[size]',
      detail: /page\[size\] .* cannot be combined with page\[offset\]/,
    },
    { query: 'page[size]=5&page[offset]=5', parameter: 'page[offset]', detail: /use one pair/ },
    { query: 'page[limit]=5&page[number]=1', parameter: 'page[number]', detail: /page\[number\] .*page\[limit\]/ },
    {
      query: 'page[offset]=0&page[limit]=5&page[number]=1',
      parameter: 'page[number]',
      detail: /with page\[offset\] and page\[limit\]/,
    },
    // Offset pagination and cursors: like page[number].
    {
      query: 'page[offset]=5&page[after]=x',
      parameter: 'page[offset]',
      detail: /cannot be combined with page\[after\]/,
    },
    {
      query: 'page[before]=x&page[limit]=5',
      parameter: 'page[limit]',
      detail: /cursor pagination, which takes page\[size\]/,
    },
  ])('$query → 400 naming $parameter', ({ query, parameter, detail }) => {
    const error = thrown(() => page(query));
    expect(error.status).toBe(400);
    expect(error.errors[0]).toMatchObject({ status: '400', source: { parameter } });
    expect(error.errors[0]!.detail).toMatch(detail);
  });

  it("a limit over the maximum is the profile's max-size error, naming page[limit]", () => {
    const error = thrown(() => page('page[limit]=11', { defaultSize: 4, maxSize: 10 }));
    expect(error.errors[0]).toMatchObject({
      title: 'Page size requested is too large',
      source: { parameter: 'page[limit]' },
      meta: { page: { maxSize: 10 } },
    });
  });

  it('with the cursor pagination profile, page[offset] and page[limit] are refused', () => {
    for (const member of ['offset', 'limit']) {
      const error = thrown(() => parsePage(pageParams({ [member]: '5' }), LIMITS, { cursorProfile: true }));
      expect(error.errors[0]).toMatchObject({ status: '400', source: { parameter: `page[${member}]` } });
      expect(error.errors[0]!.detail).toMatch(/cursor pagination profile/);
    }
  });
});
