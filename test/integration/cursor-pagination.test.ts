import { expect, it } from 'vitest';
import { loadMapping } from '../../src/mapping/load-mapping.js';
import { type ApiClient, type ApiResponse, CURSOR_PAGE, queryCount } from '../support/api-client.js';
import { describeEachStore, SAMPLE_MAPPING } from '../support/each-store.js';
import { SAMPLE_DATA } from '../support/global-setup.js';
import { nonEmpty } from '../support/non-empty.js';
import { Oracle } from '../support/oracle.js';
import { MULTI_FIELD_CASES, singleFieldCases } from '../support/sort-cases.js';

const mapping = await loadMapping(SAMPLE_MAPPING);
const oracle = Oracle.fromFile(SAMPLE_DATA, mapping);
const activities = nonEmpty(oracle.members('trade-activities'), 'trade-activities');
const concerns = (iri: string) => oracle.related('trade-activities', iri, 'concerns');
/** The activity with the most concerns, so that its related collection spans pages. */
const busy = [...activities].sort((a, b) => concerns(b.iri).length - concerns(a.iri).length)[0]!;
const idle = activities.find((a) => concerns(a.iri).length === 0)!;

/** Written out here rather than imported, so that a typo in the server's constant fails. */
const PROFILE = 'https://jsonapi.org/profiles/ethanresnick/cursor-pagination';
const CURSOR_ACCEPT = { Accept: `application/vnd.api+json; profile="${PROFILE}"` };

const ids = (response: ApiResponse): string[] => response.body.data.map((r: { id: string }) => r.id);
const withQuery = (path: string, ...parts: string[]) => `${path}?${parts.filter((p) => p !== '').join('&')}`;

interface Page {
  url: string;
  ids: string[];
  body: any;
  queries: number;
}

/** Follows `next` (or `prev`) links to the end; every page is a cursor page of at most `size` items, each with a cursor. */
async function walk(api: ApiClient, start: string, direction: 'next' | 'prev', size: number): Promise<Page[]> {
  const pages: Page[] = [];
  for (let url: string | null = start; url !== null; ) {
    const response = await api.get(url, CURSOR_ACCEPT);
    expect(response.status, url).toBe(200);
    expect(response.headers.get('content-type'), url).toBe(CURSOR_PAGE);
    expect(response.body.data.length, url).toBeLessThanOrEqual(size);
    for (const item of response.body.data) expect(item.meta.page.cursor, url).toMatch(/^[A-Za-z0-9_-]+$/);
    pages.push({ url, ids: ids(response), body: response.body, queries: queryCount(response) });
    url = response.body.links[direction];
    expect(pages.length, 'walk ends').toBeLessThan(60);
  }
  return pages;
}

/** Walks a list forward from its first page, then back from its last, and checks both against `order`. */
async function walkBothWays(api: ApiClient, path: string, query: string, order: string[], size: number) {
  const forward = await walk(api, withQuery(path, query, `page[size]=${size}`), 'next', size);
  expect(
    forward.flatMap((p) => p.ids),
    'forward',
  ).toEqual(order);
  // Every page but the last is full, and the last one is not empty unless the list is.
  expect(forward).toHaveLength(Math.max(1, Math.ceil(order.length / size)));
  expect(forward[0]!.body.links.prev).toBeNull();
  for (const page of forward)
    expect(page.body.links.first).toBe(withQuery(path, query, `page%5Bsize%5D=${size}`).replace(/\?$/, ''));
  const backward = await walk(api, forward.at(-1)!.body.links.self, 'prev', size);
  expect(
    backward.reverse().flatMap((p) => p.ids),
    'backward',
  ).toEqual(order);
  return forward;
}

const SORT_CASES = nonEmpty([...singleFieldCases(mapping), ...MULTI_FIELD_CASES], 'the sort cases');

describeEachStore('cursor pagination (profile ethanresnick/cursor-pagination)', (h) => {
  it.each(SORT_CASES)('walks /$type?sort=$sort forward and back in the data order', async ({ type, sort }) => {
    const order = oracle.order(type, nonEmpty(oracle.members(type), type), sort);
    const forward = await walkBothWays(h().api, `/${type}`, `sort=${sort}`, order, 2);
    for (const page of forward) {
      expect(page.body.meta).toEqual({ page: { total: order.length } });
      expect(page.queries).toBeLessThanOrEqual(3); // list, count, fetch
    }
  });

  it.each(['label', '-label', 'notation', '-broader-concepts.label', 'id', '-id'])(
    'walks every to-many related collection and its linkage: concerns?sort=%s',
    async (sort) => {
      for (const parent of activities) {
        const order = oracle.order('concepts', concerns(parent.iri), sort);
        await walkBothWays(h().api, `/trade-activities/${parent.id}/concerns`, `sort=${sort}`, order, 1);
        const linkage = await walkBothWays(
          h().api,
          `/trade-activities/${parent.id}/links/concerns`,
          `sort=${sort}`,
          order,
          2,
        );
        expect(linkage[0]!.body.links.related).toBe(`/trade-activities/${parent.id}/concerns`);
      }
    },
  );

  // Two keys, the first missing on some concepts (top concepts have no broader one), the second in a
  // language: Virtuoso took the first key of a member hung off the parent for bound, and the cursor
  // walk put the members without it first (ascending) or lost them (descending).
  it.each(['broader-concepts.notation,label', '-broader-concepts.notation,label', '-broader-concepts.label,-notation'])(
    'walks every related collection sorted by two keys, one missing on some members: concerns?sort=%s',
    async (sort) => {
      const first = sort.split(',')[0]!;
      const missing = (c: { iri: string; id: string }) => oracle.sortValue('concepts', c, first) === undefined;
      expect(
        activities.some((a) => concerns(a.iri).some(missing)),
        'a parent with a concept without notation',
      ).toBe(true);
      for (const parent of activities) {
        const order = oracle.order('concepts', concerns(parent.iri), sort);
        await walkBothWays(h().api, `/trade-activities/${parent.id}/concerns`, `sort=${sort}`, order, 2);
      }
    },
  );

  it('an inverse to-many with the default order (id) pages too', async () => {
    const parent = oracle.members('concepts').find((c) => c.id === '0a')!;
    const order = oracle.order('concepts', oracle.related('concepts', parent.iri, 'narrower-concepts'), 'id');
    expect(order.length).toBeGreaterThan(2);
    await walkBothWays(h().api, `/concepts/${parent.id}/narrower-concepts`, '', order, 2);
  });

  it('page[after] and page[before] take item cursors: the page starts right after, or ends right before, the item', async () => {
    const sort = '-financial-year';
    const order = oracle.order('trade-activities', activities, sort);
    const all = await h().api.get(`/trade-activities?sort=${sort}&page[size]=50`, CURSOR_ACCEPT);
    expect(ids(all)).toEqual(order);
    const cursorOf = (i: number) => all.body.data[i].meta.page.cursor as string;
    for (const i of [0, 3, 4, 7, order.length - 1]) {
      const after = await h().api.get(`/trade-activities?sort=${sort}&page[size]=3&page[after]=${cursorOf(i)}`);
      expect(ids(after), `after item ${i}`).toEqual(order.slice(i + 1, i + 4));
      expect(after.body.links.next === null, `next after item ${i}`).toBe(i + 4 >= order.length);
      const before = await h().api.get(`/trade-activities?sort=${sort}&page[size]=3&page[before]=${cursorOf(i)}`);
      expect(ids(before), `before item ${i}`).toEqual(order.slice(Math.max(0, i - 3), i));
      expect(before.body.links.prev === null, `prev before item ${i}`).toBe(i - 3 <= 0);
    }
  });

  it('an empty page still links back into the list, and its cursor item is on the far page', async () => {
    const order = oracle.order('concepts', nonEmpty(oracle.members('concepts'), 'concepts'), 'label');
    const all = await h().api.get('/concepts?sort=label&page[size]=50', CURSOR_ACCEPT);
    const [firstCursor, lastCursor] = [all.body.data[0].meta.page.cursor, all.body.data.at(-1).meta.page.cursor];
    const pastEnd = await h().api.get(`/concepts?sort=label&page[size]=3&page[after]=${lastCursor}`);
    expect(pastEnd.body.data).toEqual([]);
    expect(pastEnd.body.links.next).toBeNull();
    expect(ids(await h().api.get(pastEnd.body.links.prev))).toEqual(order.slice(-3));
    const beforeStart = await h().api.get(`/concepts?sort=label&page[size]=3&page[before]=${firstCursor}`);
    expect(beforeStart.body.data).toEqual([]);
    expect(beforeStart.body.links.prev).toBeNull();
    expect(ids(await h().api.get(beforeStart.body.links.next))).toEqual(order.slice(0, 3));
  });

  it('range pagination: page[after] with page[before] gives what lies between, and says when the page size cut it', async () => {
    const sort = 'concerns.label,-id';
    const order = oracle.order('trade-activities', activities, sort);
    const all = await h().api.get(`/trade-activities?sort=${sort}&page[size]=50`, CURSOR_ACCEPT);
    const cursorOf = (i: number) => all.body.data[i].meta.page.cursor as string;
    const range = `sort=${sort}&page[after]=${cursorOf(1)}&page[before]=${cursorOf(8)}`;
    const whole = await h().api.get(`/trade-activities?${range}`);
    expect(ids(whole)).toEqual(order.slice(2, 8));
    expect(whole.body.meta).toEqual({ page: { total: order.length } });
    const cut = await h().api.get(`/trade-activities?${range}&page[size]=4`);
    expect(ids(cut)).toEqual(order.slice(2, 6));
    expect(cut.body.meta).toEqual({ page: { total: order.length, rangeTruncated: true } });
    expect(ids(await h().api.get(cut.body.links.next))).toEqual(order.slice(6, 10));
    expect(ids(await h().api.get(cut.body.links.prev))).toEqual(order.slice(0, 2));
    const nothing = await h().api.get(
      `/trade-activities?sort=${sort}&page[after]=${cursorOf(4)}&page[before]=${cursorOf(5)}`,
    );
    expect(nothing.body.data).toEqual([]);
    expect(ids(await h().api.get(`${nothing.body.links.next}&page[size]=2`))).toEqual(order.slice(5, 7));
  });

  it('without a count: no total; a range defaults to the maximum page size', async () => {
    const order = oracle.order('trade-activities', activities, '-financial-year');
    const forward = await walk(h().api, '/api/uncounted/trade-activities', 'next', 4);
    expect(forward.flatMap((p) => p.ids)).toEqual(order);
    for (const page of forward) {
      expect(page.body.meta).toBeUndefined();
      expect(page.queries).toBeLessThanOrEqual(2); // list, fetch
    }
    const concepts = oracle.order('concepts', oracle.members('concepts'), 'id');
    const all = await h().api.get('/concepts?page[size]=50', CURSOR_ACCEPT);
    const [first, last] = [all.body.data[0].meta.page.cursor, all.body.data.at(-1).meta.page.cursor];
    const range = await h().api.get(`/api/uncounted/concepts?page[after]=${first}&page[before]=${last}`);
    expect(concepts.length).toBeGreaterThan(12);
    expect(ids(range)).toEqual(concepts.slice(1, 11)); // the dataset's maximum page size is 10
    expect(range.body.meta).toEqual({ page: { rangeTruncated: true } });
  });

  it('an empty related collection is an empty cursor page; a missing parent is still a 404', async () => {
    const empty = await h().api.get(`/trade-activities/${idle.id}/concerns?page[size]=2`, CURSOR_ACCEPT);
    expect(empty.status).toBe(200);
    expect(empty.body.data).toEqual([]);
    expect(empty.body.links).toMatchObject({ prev: null, next: null });
    const all = await h().api.get(`/trade-activities/${busy.id}/concerns?page[size]=50`, CURSOR_ACCEPT);
    const cursor = all.body.data.at(-1).meta.page.cursor;
    const pastEnd = await h().api.get(`/api/uncounted/trade-activities/${busy.id}/concerns?page[after]=${cursor}`);
    expect(pastEnd.status).toBe(200);
    expect(pastEnd.body.data).toEqual([]);
    for (const prefix of ['', '/api/uncounted']) {
      const missing = await h().api.get(`${prefix}/trade-activities/abcdef0123/concerns?page[after]=${cursor}`);
      expect(missing.status, prefix).toBe(404);
    }
  });
});

/** A real cursor's JSON, for tests that alter it. */
const unpack = (cursor: string) => JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
const pack = (json: unknown) => Buffer.from(JSON.stringify(json)).toString('base64url');

describeEachStore('cursor pagination: bad cursors, and the profile in content negotiation', (h) => {
  /** The cursor of an item in the middle of /trade-activities?sort=-financial-year. */
  async function realCursor(query = 'sort=-financial-year'): Promise<string> {
    const response = await h().api.get(`/trade-activities?${query}&page[size]=5`, CURSOR_ACCEPT);
    return response.body.data[3].meta.page.cursor;
  }

  it.each(['page[after]', 'page[before]'])(
    'a forged, garbled or truncated %s is a 400 naming it',
    async (parameter) => {
      const real = await realCursor();
      const json = unpack(real);
      const other = activities.find((a) => a.id !== json.i)!;
      const bad = [
        ['garbage', 'abc'],
        ['empty', ''],
        ['not base64url', 'eyJrIjpb+/='],
        ['truncated', real.slice(0, -6)],
        ['another id, same digest', pack({ ...json, i: other.id })],
        ['another value, same digest', pack({ ...json, k: [{ v: '2099-01-01Z', t: 'xsd:date' }] })],
        ['wrong member types', pack({ ...json, k: [12] })],
        ['an extra member', pack({ ...json, x: 1 })],
        ['a JSON string', pack('hello')],
        ['an injection attempt', pack({ ...json, k: ['" } } ; DROP ALL #'] })],
      ];
      for (const [what, cursor] of bad) {
        const response = await h().api.get(
          `/trade-activities?sort=-financial-year&${parameter}=${encodeURIComponent(cursor!)}`,
        );
        expect(response.status, what).toBe(400);
        expect(response.body.errors[0], what).toMatchObject({ status: '400', source: { parameter } });
        expect(response.body.errors[0].detail, what).toMatch(/cursor/);
        expect(queryCount(response), what).toBe(0);
      }
    },
  );

  it.each([
    ['the opposite direction', 'sort=financial-year'],
    ['another field', 'sort=origin.country.name'],
    ['the default sort spelt out, plus a tie-break', 'sort=-financial-year,id'],
  ])('a cursor made for another sort is a 400 (%s)', async (_what, query) => {
    const cursor = await realCursor();
    const response = await h().api.get(`/trade-activities?${query}&page[after]=${cursor}`);
    expect(response.status).toBe(400);
    expect(response.body.errors[0].source).toEqual({ parameter: 'page[after]' });
    expect(response.body.errors[0].detail).toMatch(/sort/);
  });

  it('a cursor is good for its type and sort whatever the URL: the default sort, a related list of the type', async () => {
    const cursor = await realCursor();
    expect((await h().api.get(`/trade-activities?page[after]=${cursor}`)).status).toBe(200);
    const concept = (await h().api.get('/concepts?page[size]=3', CURSOR_ACCEPT)).body.data[1].meta.page.cursor;
    expect((await h().api.get(`/trade-activities?sort=id&page[after]=${concept}`)).status).toBe(400);
    expect((await h().api.get(`/concepts/01/narrower-concepts?page[after]=${concept}`)).status).toBe(200);
  });

  it('page[number] is offset pagination: not with a cursor', async () => {
    const response = await h().api.get(`/trade-activities?page[number]=1&page[after]=${await realCursor()}`);
    expect(response.status).toBe(400);
    expect(response.body.errors[0].source).toEqual({ parameter: 'page[number]' });
  });

  it('with the profile asked for, page[number] jumps into the list: a cursor page from there, going on by cursor both ways', async () => {
    const order = oracle.order('concepts', oracle.members('concepts'), '-label');
    const jump = await h().api.get('/concepts?sort=-label&page[size]=3&page[number]=2', CURSOR_ACCEPT);
    expect(jump.headers.get('content-type')).toBe(CURSOR_PAGE);
    expect(ids(jump)).toEqual(order.slice(6, 9));
    const after = await walk(h().api, jump.body.links.next, 'next', 3);
    expect(after.flatMap((p) => p.ids)).toEqual(order.slice(9));
    const before = await walk(h().api, jump.body.links.prev, 'prev', 3);
    expect(before.reverse().flatMap((p) => p.ids)).toEqual(order.slice(0, 6));
    // A jump past the end is empty, and its prev goes back by number.
    const past = await h().api.get('/concepts?sort=-label&page[size]=3&page[number]=40', CURSOR_ACCEPT);
    expect(ids(past)).toEqual([]);
    expect(past.body.links.next).toBeNull();
    expect(past.body.links.prev).toBe('/concepts?sort=-label&page%5Bnumber%5D=39&page%5Bsize%5D=3');
  });

  it('a cursor page applies the profile: the Content-Type says so, Vary says Accept', async () => {
    const response = await h().api.get(`/trade-activities?page[after]=${await realCursor()}`);
    expect(response.headers.get('content-type')).toBe(`application/vnd.api+json; profile="${PROFILE}"`);
    expect(response.body.jsonapi).toEqual({ version: '1.1' }); // jsonapi.profile is optional, and the 1.0 schema forbids it
    expect(response.headers.get('vary')).toMatch(/\bAccept\b/);
  });

  it.each([
    ['no profile', 'application/vnd.api+json', false],
    [
      'only an unknown profile (ignored)',
      'application/vnd.api+json; profile="https://example.com/profiles/other"',
      false,
    ],
    [
      'the profile among others',
      `application/vnd.api+json; profile="https://example.com/profiles/other ${PROFILE}"`,
      true,
    ],
    [
      'the profile in a second instance',
      `application/vnd.api+json, application/vnd.api+json; profile="${PROFILE}"`,
      true,
    ],
    [
      'the profile next to a wildcard',
      `text/html, application/vnd.api+json; profile="${PROFILE}"; q=0.9, */*; q=0.1`,
      true,
    ],
    [
      'the profile only on an instance refused for its charset',
      `application/vnd.api+json; profile="${PROFILE}"; charset=utf-8, application/vnd.api+json`,
      false,
    ],
  ] as const)('Accept with %s: cursor pages from the first page = %s', async (_what, accept, cursorPages) => {
    const response = await h().api.get('/concepts?page[size]=4', { Accept: accept });
    expect(response.status).toBe(200);
    expect(ids(response)).toEqual(oracle.order('concepts', oracle.members('concepts'), 'id').slice(0, 4));
    expect(response.headers.get('content-type')).toBe(cursorPages ? CURSOR_PAGE : 'application/vnd.api+json');
    expect(response.body.links.next).toMatch(cursorPages ? /page%5Bafter%5D=/ : /page%5Bnumber%5D=1/);
    expect(response.body.data[0].meta?.page?.cursor !== undefined).toBe(cursorPages);
  });

  it('the profile changes nothing where there is no page: a single resource, a to-one, the relationship of a to-one', async () => {
    for (const url of [
      `/trade-activities/${busy.id}`,
      `/trade-activities/${busy.id}/origin`,
      `/trade-activities/${busy.id}/links/origin`,
    ]) {
      const response = await h().api.get(url, CURSOR_ACCEPT);
      expect(response.status, url).toBe(200);
      expect(response.headers.get('content-type'), url).toBe('application/vnd.api+json');
    }
  });

  it('an extension is still refused, with or without the profile', async () => {
    const response = await h().api.get('/concepts', {
      Accept: `application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"; profile="${PROFILE}"`,
    });
    expect(response.status).toBe(406);
  });
});
