/**
 * The optional in-process response cache (issue 5). A hit is proved by the server's own counters
 * (Server-Timing says `cache;desc=hit`, `sparql_queries_total` stays put), never by timing; TTLs
 * run on a clock the test moves.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import type { Dataset } from '../../src/dataset.js';
import { loadMapping } from '../../src/mapping/load-mapping.js';
import { ApiClient, type ApiResponse, queryCount } from '../support/api-client.js';
import { describeEachStore, SAMPLE_MAPPING } from '../support/each-store.js';
import { SAMPLE_DATA } from '../support/global-setup.js';
import { metricValue } from '../support/metrics-text.js';
import { Oracle } from '../support/oracle.js';

const mapping = await loadMapping(SAMPLE_MAPPING);
const oracle = Oracle.fromFile(SAMPLE_DATA, mapping);
const concepts = oracle.members('concepts').map((m) => `/concepts/${m.id}`);
const activity = oracle.members('trade-activities')[0]!;
const TTL_SECONDS = 30;
const ACCEPT = { Accept: 'application/vnd.api+json' };

const timing = (response: ApiResponse) => response.headers.get('server-timing') ?? '';
const isHit = (response: ApiResponse) => timing(response) === 'cache;desc=hit';
const isMiss = (response: ApiResponse) => timing(response).endsWith(', cache;desc=miss') && queryCount(response) > 0;

describeEachStore('response cache', (h) => {
  let now = 1_000; // lru-cache takes a start time of 0 for "no TTL"
  let api: ApiClient;
  const opened: ApiClient[] = [];

  const datasets = (): Dataset[] => [
    { name: 'sample', mapping, store: h().store, linkBase: '', options: { cacheTtlSeconds: TTL_SECONDS } },
    { name: 'mirror', mapping, store: h().store, linkBase: '/api/mirror', options: { cacheTtlSeconds: TTL_SECONDS } },
    { name: 'uncached', mapping, store: h().store, linkBase: '/api/uncached' },
  ];
  /** What the server has counted so far for a dataset: queries sent, cache hits and misses. */
  async function counters(client: ApiClient, dataset = 'sample') {
    const text = await client.metrics();
    return {
      queries: metricValue(text, 'sparql_queries_total', { dataset }),
      hits: metricValue(text, 'response_cache_hits_total', { dataset }),
      misses: metricValue(text, 'response_cache_misses_total', { dataset }),
    };
  }
  async function listen(maxBytes?: number): Promise<ApiClient> {
    const client = await ApiClient.listen(
      createApp({ datasets: datasets(), responseCache: { clock: { now: () => now }, ...(maxBytes && { maxBytes }) } }),
    );
    opened.push(client);
    return client;
  }

  beforeAll(async () => {
    api = await listen();
  });
  afterAll(async () => {
    await Promise.all(opened.map((client) => client.close()));
  });

  it('a repeated request is answered from the cache without a query to the store', async () => {
    const before = await counters(api);
    const first = await api.get(concepts[0]!);
    const afterFirst = await counters(api);
    const second = await api.get(concepts[0]!);
    const afterSecond = await counters(api);

    expect(isMiss(first), timing(first)).toBe(true);
    expect(afterFirst).toEqual({
      queries: before.queries + queryCount(first),
      hits: before.hits,
      misses: before.misses + 1,
    });
    expect(isHit(second), timing(second)).toBe(true);
    expect(afterSecond).toEqual({ ...afterFirst, hits: afterFirst.hits + 1 });
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(second.headers.get('content-length')).toBe(first.headers.get('content-length'));
  });

  it('a cached body is the one the uncached server gives', async () => {
    const url = `/trade-activities/${activity.id}/links/concerns`;
    await api.get(url);
    const hit = await api.get(url);
    const fresh = await h().api.get(url);
    expect(isHit(hit)).toBe(true);
    expect(hit.body).toEqual(fresh.body);
    expect(hit.headers.get('etag')).toBe(fresh.headers.get('etag'));
  });

  it('a hit honours If-None-Match with a 304, and a HEAD miss fills the entry the GET then hits', async () => {
    const url = concepts[1]!;
    const head = await api.request('HEAD', url, ACCEPT);
    expect(isMiss(head)).toBe(true);
    const get = await api.get(url);
    expect(isHit(get)).toBe(true);
    expect(get.headers.get('content-length')).toBe(head.headers.get('content-length'));
    const before = await counters(api);
    const notModified = await api.get(url, { ...ACCEPT, 'If-None-Match': get.headers.get('etag')! });
    expect(notModified.status).toBe(304);
    expect(isHit(notModified)).toBe(true);
    expect((await counters(api)).queries).toBe(before.queries);
  });

  it(`entries expire after the dataset's TTL (${TTL_SECONDS} s), then the store is asked again`, async () => {
    const url = '/concepts?sort=-id';
    expect(isMiss(await api.get(url))).toBe(true);
    now += TTL_SECONDS * 1000 - 1;
    expect(isHit(await api.get(url))).toBe(true);
    now += 2;
    const expired = await api.get(url);
    expect(isMiss(expired), timing(expired)).toBe(true);
    expect(isHit(await api.get(url))).toBe(true);
  });

  it('the query string is part of the key: another query is another entry', async () => {
    const [byId, byIdDescending] = [await api.get('/concepts?sort=id'), await api.get('/concepts?sort=notation,-id')];
    expect([isMiss(byId), isMiss(byIdDescending)]).toEqual([true, true]);
    const again = await api.get('/concepts?sort=id');
    expect(isHit(again)).toBe(true);
    expect(again.body).toEqual(byId.body);
    expect(again.body).not.toEqual(byIdDescending.body);
  });

  it('the dataset is part of the key; the default dataset with or without its prefix is one entry', async () => {
    const url = concepts[2]!;
    const plain = await api.get(url);
    expect(isMiss(plain)).toBe(true);
    const prefixed = await api.get(`/api/sample${url}`);
    expect(isHit(prefixed)).toBe(true);
    expect(prefixed.body).toEqual(plain.body);
    const mirror = await api.get(`/api/mirror${url}`);
    expect(isMiss(mirror)).toBe(true);
    expect(mirror.body.links.self).toBe(`/api/mirror${url}`);
  });

  it('the key holds the negotiated media type, not the raw Accept; negotiation still runs before the cache', async () => {
    const url = concepts[3]!;
    expect(isMiss(await api.get(url))).toBe(true);
    for (const accept of ['*/*', 'application/json', 'text/html, application/vnd.api+json;q=0.5']) {
      const response = await api.get(url, { Accept: accept });
      expect(isHit(response), accept).toBe(true);
      expect(response.headers.get('content-type')).toBe('application/vnd.api+json');
    }
    for (const accept of ['text/html', 'application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"']) {
      expect((await api.get(url, { Accept: accept })).status, accept).toBe(406);
    }
  });

  it('is off by default: a dataset without a TTL asks the store every time', async () => {
    const url = `/api/uncached${concepts[0]!}`;
    const before = await counters(api, 'uncached');
    const [first, second] = [await api.get(url), await api.get(url)];
    expect([queryCount(first), queryCount(second)]).toEqual([queryCount(first), queryCount(first)]);
    expect(queryCount(first)).toBeGreaterThan(0);
    expect(timing(second)).not.toContain('cache');
    expect(await counters(api, 'uncached')).toEqual({
      queries: before.queries + 2 * queryCount(first),
      hits: 0,
      misses: 0,
    });
  });

  it('the memory bound evicts the least recently used entry', async () => {
    const [a, b] = [concepts[4]!, concepts[5]!];
    const sizes = await Promise.all(
      [a, b].map(async (url) => Number((await h().api.get(url)).headers.get('content-length'))),
    );
    // Room for either body with its key and ETag, not for both.
    const bounded = await listen(sizes[0]! + sizes[1]! - 1);
    expect(isMiss(await bounded.get(a))).toBe(true);
    expect(isHit(await bounded.get(a))).toBe(true);
    expect(isMiss(await bounded.get(b))).toBe(true);
    expect(isMiss(await bounded.get(a))).toBe(true);
    expect(isHit(await bounded.get(a))).toBe(true);
    expect(isMiss(await bounded.get(b))).toBe(true);
  });

  it('a body larger than the whole bound is not kept', async () => {
    const tiny = await listen(64);
    expect(isMiss(await tiny.get(concepts[0]!))).toBe(true);
    expect(isMiss(await tiny.get(concepts[0]!))).toBe(true);
  });
});
