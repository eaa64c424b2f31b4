import { expect, it } from 'vitest';
import { loadMapping } from '../../src/mapping/load-mapping.js';
import { type ApiClient, queryCount } from '../support/api-client.js';
import { describeEachStore, SAMPLE_MAPPING } from '../support/each-store.js';
import { SAMPLE_DATA } from '../support/global-setup.js';
import { listAfterKeyedWindow } from '../support/list-cost.js';
import { nonEmpty } from '../support/non-empty.js';
import { Oracle } from '../support/oracle.js';

const mapping = await loadMapping(SAMPLE_MAPPING);
const oracle = Oracle.fromFile(SAMPLE_DATA, mapping);
const activities = nonEmpty(oracle.members('trade-activities'), 'trade-activities');
/** The activity with the most concerns, so that its related collection spans pages. */
const busy = [...activities].sort(
  (a, b) =>
    oracle.related('trade-activities', b.iri, 'concerns').length -
    oracle.related('trade-activities', a.iri, 'concerns').length,
)[0]!;

/** Follows `next` (or `prev`) links from `start` to the end; every page must validate and carry at most `size` resources. */
async function walk(api: ApiClient, start: string, direction: 'next' | 'prev', size: number) {
  const pages: { ids: string[]; body: any; queries: number }[] = [];
  for (let url: string | null = start; url !== null; ) {
    const response = await api.get(url);
    expect(response.status, url).toBe(200);
    expect(response.body.data.length, url).toBeLessThanOrEqual(size);
    pages.push({
      ids: response.body.data.map((r: { id: string }) => r.id),
      body: response.body,
      queries: queryCount(response),
    });
    url = response.body.links[direction];
    expect(pages.length, 'walk ends').toBeLessThan(50);
  }
  return pages;
}

/**
 * The lists walked; `sorted` for a top-level list whose page may send the list query after its
 * keyed window query (a key of several values, `listAfterKeyedWindow`).
 */
const LISTS: {
  what: string;
  path: string;
  query: string;
  expected: () => string[];
  sorted?: { type: string; sort: string };
}[] = [
  {
    what: 'trade-activities by -financial-year (default sort)',
    path: '/trade-activities',
    query: '',
    expected: () => oracle.order('trade-activities', activities, '-financial-year'),
  },
  {
    what: 'trade-activities by concerns.label,-id',
    path: '/trade-activities',
    query: 'sort=concerns.label,-id',
    expected: () => oracle.order('trade-activities', activities, 'concerns.label,-id'),
    sorted: { type: 'trade-activities', sort: 'concerns.label,-id' },
  },
  {
    what: 'concepts by -label',
    path: '/concepts',
    query: 'sort=-label',
    expected: () => oracle.order('concepts', oracle.members('concepts'), '-label'),
    sorted: { type: 'concepts', sort: '-label' },
  },
  {
    what: 'concepts by -narrower-concepts.label (most have none: the walk crosses into those without)',
    path: '/concepts',
    query: 'sort=-narrower-concepts.label',
    expected: () => oracle.order('concepts', oracle.members('concepts'), '-narrower-concepts.label'),
    sorted: { type: 'concepts', sort: '-narrower-concepts.label' },
  },
  {
    what: 'a to-many related collection',
    path: `/trade-activities/${busy.id}/concerns`,
    query: 'sort=-notation',
    expected: () => oracle.order('concepts', oracle.related('trade-activities', busy.iri, 'concerns'), '-notation'),
  },
];

describeEachStore('offset pagination (page[number], page[size])', (h) => {
  it.each(LISTS)(
    'next links walk $what once each, in order; prev links walk back',
    async ({ what, path, query, expected, sorted }) => {
      const order = nonEmpty(expected(), what);
      const size = 2;
      const start = `${path}?${query}${query ? '&' : ''}page[size]=${size}`;
      const forward = await walk(h().api, start, 'next', size);
      expect(forward.flatMap((p) => p.ids)).toEqual(order);
      expect(forward).toHaveLength(Math.max(1, Math.ceil(order.length / size)));
      for (const [number, page] of forward.entries()) {
        expect(page.body.meta).toEqual({ count: order.length });
        expect(page.body.links.prev === null).toBe(number === 0);
        expect(page.body.links.first).toBe(
          `${path}?${query}${query ? '&' : ''}page%5Bnumber%5D=0&page%5Bsize%5D=${size}`,
        );
        expect(page.body.links.last).toBe(forward.at(-1)!.body.links.self);
        // keyed window (if short, then the list), count, fetch
        const window = { offset: number * size, limit: size };
        const short = sorted && listAfterKeyedWindow(mapping, oracle, sorted.type, sorted.sort, window);
        expect(page.queries).toBeLessThanOrEqual(short ? 4 : 3);
      }
      const backward = await walk(h().api, forward.at(-1)!.body.links.self, 'prev', size);
      expect(backward.reverse().flatMap((p) => p.ids)).toEqual(order);
    },
  );

  it.each(LISTS)(
    'without a count ($what): no last, no meta.count, next found by one extra row',
    async ({ what, path, query, expected, sorted }) => {
      const order = nonEmpty(expected(), what);
      const forward = await walk(h().api, `/api/uncounted${path}?${query}`, 'next', 4);
      expect(forward.flatMap((p) => p.ids)).toEqual(order);
      for (const [number, page] of forward.entries()) {
        expect(page.body.meta).toBeUndefined();
        expect(page.body.links).not.toHaveProperty('last');
        expect(page.body.links.first).toMatch(/page%5Bnumber%5D=0$/);
        // keyed window (if short, then the list), fetch; one row more than the page
        const window = { offset: number * 4, limit: 5 };
        const short = sorted && listAfterKeyedWindow(mapping, oracle, sorted.type, sorted.sort, window);
        expect(page.queries).toBeLessThanOrEqual(short ? 3 : 2);
      }
    },
  );

  it('the default page size is 20 and pages count from 0', async () => {
    const order = oracle.order('concepts', oracle.members('concepts'), 'id');
    const first = await h().api.get('/concepts');
    expect(first.body.data.map((r: { id: string }) => r.id)).toEqual(order.slice(0, 20));
    const second = await h().api.get('/concepts?page[number]=1&page[size]=7');
    expect(second.body.data.map((r: { id: string }) => r.id)).toEqual(order.slice(7, 14));
  });

  it('a page past the end is empty, and prev leads back to the last page, which is not', async () => {
    const past = Math.ceil(activities.length / 5) + 10;
    const response = await h().api.get(`/trade-activities?page[number]=${past}&page[size]=5`);
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([]);
    expect(response.body.meta).toEqual({ count: activities.length });
    expect(response.body.links.next).toBeNull();
    const lastPage = Math.ceil(activities.length / 5) - 1;
    expect(response.body.links.prev).toBe(`/trade-activities?page%5Bnumber%5D=${lastPage}&page%5Bsize%5D=5`);
    expect(response.body.links.prev).toBe(response.body.links.last);
    const last = await h().api.get(response.body.links.prev);
    expect(last.body.data.length).toBe(activities.length - lastPage * 5);
  });

  it.each(['/api/uncounted', ''])(
    'a page past the end of a related collection is empty, and a missing parent still 404 (%s)',
    async (prefix) => {
      const past = await h().api.get(`${prefix}/trade-activities/${busy.id}/concerns?page[number]=30&page[size]=2`);
      expect(past.status).toBe(200);
      expect(past.body.data).toEqual([]);
      const missing = await h().api.get(`${prefix}/trade-activities/abcdef0123/concerns?page[number]=30&page[size]=2`);
      expect(missing.status).toBe(404);
    },
  );

  it('links keep the other query parameters, encoded as valid URI references', async () => {
    const response = await h().api.get('/concepts?sort=-label,notation&page[size]=3&page[number]=1');
    expect(response.body.links).toEqual({
      self: '/concepts?sort=-label,notation&page%5Bsize%5D=3&page%5Bnumber%5D=1',
      first: '/concepts?sort=-label,notation&page%5Bnumber%5D=0&page%5Bsize%5D=3',
      prev: '/concepts?sort=-label,notation&page%5Bnumber%5D=0&page%5Bsize%5D=3',
      next: '/concepts?sort=-label,notation&page%5Bnumber%5D=2&page%5Bsize%5D=3',
      last: `/concepts?sort=-label,notation&page%5Bnumber%5D=${Math.ceil(oracle.members('concepts').length / 3) - 1}&page%5Bsize%5D=3`,
    });
  });

  it('to-many relationship linkage is paged the same way', async () => {
    const order = oracle.order('concepts', oracle.related('trade-activities', busy.iri, 'concerns'), 'id');
    const forward = await walk(h().api, `/trade-activities/${busy.id}/links/concerns?page[size]=1`, 'next', 1);
    expect(forward.flatMap((p) => p.ids)).toEqual(order);
    expect(forward[0]!.body.links.related).toBe(`/trade-activities/${busy.id}/concerns`);
  });

  it.each([
    ['page[size]=0', 'page[size]', /positive integer/],
    ['page[size]=-3', 'page[size]', /positive integer/],
    ['page[size]=abc', 'page[size]', /positive integer/],
    ['page[size]=101', 'page[size]', /100 is the maximum/],
    ['page[number]=-1', 'page[number]', /non-negative integer/],
    ['page[number]=1e3', 'page[number]', /non-negative integer/],
    ['page[number]=', 'page[number]', /non-negative integer/],
  ])('%s is a 400 naming %s', async (query, parameter, detail) => {
    const response = await h().api.get(`/trade-activities?${query}`);
    expect(response.status).toBe(400);
    expect(response.body.errors[0]).toMatchObject({ status: '400', source: { parameter } });
    expect(response.body.errors[0].detail).toMatch(detail);
  });

  it('the max page size is per dataset, and the error says it', async () => {
    const response = await h().api.get('/api/uncounted/trade-activities?page[size]=11');
    expect(response.status).toBe(400);
    expect(response.body.errors[0].meta).toEqual({ page: { maxSize: 10 } });
    expect((await h().api.get('/api/uncounted/trade-activities?page[size]=10')).status).toBe(200);
  });

  it('sort and page apply to lists only: a single resource answers 400', async () => {
    const response = await h().api.get(`/trade-activities/${busy.id}?page[size]=2`);
    expect(response.status).toBe(400);
    expect(response.body.errors[0].source).toEqual({ parameter: 'page[size]' });
  });
});

describeEachStore('offset pagination (page[offset], page[limit])', (h) => {
  const limitOf = (url: string) => new URL(url, 'http://x').searchParams.get('page[limit]');
  const offsetOf = (url: string) => Number(new URL(url, 'http://x').searchParams.get('page[offset]'));

  it.each(LISTS)(
    'next links walk $what as the page[number] walk does, in the offset form; prev links walk back',
    async ({ what, path, query, expected }) => {
      const order = nonEmpty(expected(), what);
      const limit = 2;
      const and = query ? `${query}&` : '';
      // The list read before either walk, so that the same windows cost the same queries in both
      // (a list's later reads can place its page with its histogram: execute/histogram-window.ts).
      await h().api.get(`${path}?${and}page[size]=${limit}`);
      const forward = await walk(h().api, `${path}?${and}page[offset]=0&page[limit]=${limit}`, 'next', limit);
      const byNumber = await walk(h().api, `${path}?${and}page[size]=${limit}`, 'next', limit);
      expect(forward.map((p) => p.ids)).toEqual(byNumber.map((p) => p.ids));
      expect(forward.flatMap((p) => p.ids)).toEqual(order);
      for (const [n, page] of forward.entries()) {
        const { links, meta } = page.body;
        expect(meta).toEqual({ count: order.length });
        expect(links.first).toBe(`${path}?${and}page%5Boffset%5D=0&page%5Blimit%5D=${limit}`);
        for (const link of [links.first, links.prev, links.next, links.last].filter((l) => l !== null)) {
          expect(link).not.toMatch(/page%5B(number|size)%5D/);
          expect(limitOf(link)).toBe(String(limit));
        }
        expect(links.prev === null).toBe(n === 0);
        if (links.next !== null) expect(offsetOf(links.next)).toBe((n + 1) * limit);
        expect(offsetOf(links.last)).toBe(Math.max(0, order.length - limit));
      }
      // The same windows cost the same queries.
      expect(forward.map((p) => p.queries)).toEqual(byNumber.map((p) => p.queries));
      const backward = await walk(h().api, forward.at(-1)!.body.links.self, 'prev', limit);
      expect(backward.reverse().flatMap((p) => p.ids)).toEqual(order);
      const last = await h().api.get(forward[0]!.body.links.last);
      expect(last.body.data.map((r: { id: string }) => r.id)).toEqual(order.slice(-limit));
    },
  );

  it('an offset that is no multiple of the limit: links step by the limit from it, prev stops at 0', async () => {
    const order = oracle.order('concepts', oracle.members('concepts'), 'id');
    const forward = await walk(h().api, '/concepts?sort=id&page[offset]=3&page[limit]=4', 'next', 4);
    expect(forward.flatMap((p) => p.ids)).toEqual(order.slice(3));
    const backward = await walk(h().api, forward[0]!.body.links.self, 'prev', 4);
    expect(backward.map((p) => p.body.links.self)).toEqual([
      '/concepts?sort=id&page%5Boffset%5D=3&page%5Blimit%5D=4',
      '/concepts?sort=id&page%5Boffset%5D=0&page%5Blimit%5D=4',
    ]);
    expect(backward[1]!.ids).toEqual(order.slice(0, 4)); // the window from 0 overlaps the one from 3
  });

  it('without a limit the default size applies and the links carry none; uncounted: no last', async () => {
    const order = oracle.order('concepts', oracle.members('concepts'), 'id');
    const page = await h().api.get('/concepts?page[offset]=1');
    expect(page.body.data.map((r: { id: string }) => r.id)).toEqual(order.slice(1, 21));
    expect(page.body.links.first).toBe('/concepts?page%5Boffset%5D=0');
    const uncounted = await walk(h().api, '/api/uncounted/concepts?page[offset]=0', 'next', 4);
    expect(uncounted.flatMap((p) => p.ids)).toEqual(order);
    for (const p of uncounted) {
      expect(p.body.links).not.toHaveProperty('last');
      expect(p.body.meta).toBeUndefined();
    }
  });

  it('an offset past the end is empty, and prev leads back to the last window', async () => {
    const response = await h().api.get(`/trade-activities?page[offset]=${activities.length + 50}&page[limit]=5`);
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([]);
    expect(response.body.meta).toEqual({ count: activities.length });
    expect(response.body.links.next).toBeNull();
    const last = Math.max(0, activities.length - 5);
    expect(response.body.links.prev).toBe(`/trade-activities?page%5Boffset%5D=${last}&page%5Blimit%5D=5`);
    expect((await h().api.get(response.body.links.prev)).body.data.length).toBe(Math.min(5, activities.length));
  });

  it.each([
    ['page[limit]=0', 'page[limit]', /positive integer/],
    ['page[limit]=101', 'page[limit]', /100 is the maximum/],
    ['page[offset]=-1', 'page[offset]', /non-negative integer/],
    ['page[offset]=x', 'page[offset]', /non-negative integer/],
    ['page[offset]=2&page[size]=2', 'page[size]', /use one pair/],
    ['page[number]=1&page[limit]=2', 'page[limit]', /use one pair/],
    ['page[offset]=2&page[after]=abc', 'page[offset]', /cursor pagination/],
  ])('%s is a 400 naming %s', async (query, parameter, detail) => {
    const response = await h().api.get(`/trade-activities?${query}`);
    expect(response.status).toBe(400);
    expect(response.body.errors[0]).toMatchObject({ status: '400', source: { parameter } });
    expect(response.body.errors[0].detail).toMatch(detail);
  });

  it('page[offset] on a single resource is a 400, as every page parameter', async () => {
    const response = await h().api.get(`/trade-activities/${busy.id}?page[offset]=2`);
    expect(response.status).toBe(400);
    expect(response.body.errors[0].source).toEqual({ parameter: 'page[offset]' });
  });
});
