/**
 * Conditional requests and caching headers (issue 4): a strong ETag derived from the body on every
 * dataset 200, If-None-Match → 304 as RFC 9110 §13.1.2 says for GET and HEAD, Cache-Control per
 * dataset, HEAD with the GET's headers, and errors that no cache keeps.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { COMPRESSION_THRESHOLD } from '../../src/http/compression.js';
import { loadMapping } from '../../src/mapping/load-mapping.js';
import type { Store } from '../../src/store/store.js';
import { ApiClient, type ApiResponse, queryCount } from '../support/api-client.js';
import { describeEachStore, openSampleStore, SAMPLE_MAPPING } from '../support/each-store.js';
import { SAMPLE_DATA } from '../support/global-setup.js';
import { Oracle } from '../support/oracle.js';

const mapping = await loadMapping(SAMPLE_MAPPING);
const oracle = Oracle.fromFile(SAMPLE_DATA, mapping);
const [concept, otherConcept] = oracle.members('concepts');
const activity = oracle.members('trade-activities')[0]!;
const ACCEPT = { Accept: 'application/vnd.api+json' };

/** One URL of each shape the server answers, with and without a query string. */
const URLS = [
  '/concepts',
  '/concepts?sort=-id',
  `/concepts/${concept!.id}`,
  `/trade-activities/${activity.id}/concerns`,
  `/trade-activities/${activity.id}/links/concerns`,
  `/api/mirror/concepts/${concept!.id}`,
];
/** A strong entity tag: an opaque quoted string with no `W/` prefix (RFC 9110 §8.8.3). */
const STRONG_ETAG = /^"[\x21\x23-\x7e]+"$/;

/** Headers that differ between any two responses whatever they hold: time and connection. */
const PER_RESPONSE = new Set(['date', 'server-timing', 'keep-alive', 'connection']);
const stableHeaders = (response: ApiResponse) => [...response.headers].filter(([name]) => !PER_RESPONSE.has(name));

describeEachStore('HTTP caching: ETag, If-None-Match, Cache-Control, HEAD', (h) => {
  let replica: ApiClient;
  let replicaStore: Store;
  let tuned: ApiClient;

  beforeAll(async () => {
    // A second server over a store opened separately on the same data, as a replica would be.
    replicaStore = await openSampleStore(h().storeName);
    replica = await ApiClient.listen(
      createApp({
        datasets: [
          { name: 'sample', mapping, store: replicaStore, linkBase: '' },
          { name: 'mirror', mapping, store: replicaStore, linkBase: '/api/mirror' },
        ],
      }),
    );
    tuned = await ApiClient.listen(
      createApp({
        datasets: [
          { name: 'sample', mapping, store: h().store, linkBase: '', options: { cacheControl: 'public, max-age=60' } },
          {
            name: 'other',
            mapping,
            store: h().store,
            linkBase: '/api/other',
            options: { cacheControl: 'private, max-age=5', cacheTtlSeconds: 60 },
          },
        ],
      }),
    );
  });
  afterAll(async () => {
    await Promise.all([replica?.close(), tuned?.close()]);
    await replicaStore?.close();
  });

  it.each(URLS)(
    'GET %s: 200 with a strong ETag, no-cache by default, Vary: Accept (and Accept-Encoding from 1 KB)',
    async (url) => {
      const response = await h().api.get(url);
      expect(response.status).toBe(200);
      expect(response.headers.get('etag')).toMatch(STRONG_ETAG);
      expect(response.headers.get('cache-control')).toBe('no-cache');
      // A body that may go compressed (compression.test.ts) varies on Accept-Encoding too.
      const compressible = Buffer.byteLength(JSON.stringify(response.body)) >= COMPRESSION_THRESHOLD;
      expect(response.headers.get('vary')).toBe(compressible ? 'Accept, Accept-Encoding' : 'Accept');
    },
  );

  it('different bodies have different ETags; the same URL asked twice has the same one', async () => {
    const responses = await Promise.all(URLS.map((url) => h().api.get(url)));
    const again = await Promise.all(URLS.map((url) => h().api.get(url)));
    expect(again.map((r) => r.headers.get('etag'))).toEqual(responses.map((r) => r.headers.get('etag')));
    const bodies = new Set(responses.map((r) => JSON.stringify(r.body)));
    expect(new Set(responses.map((r) => r.headers.get('etag'))).size).toBe(bodies.size);
  });

  it.each(URLS)('a replica over the same data answers %s with the same body and the same ETag', async (url) => {
    const [here, there] = await Promise.all([h().api.get(url), replica.get(url)]);
    expect(there.body).toEqual(here.body);
    expect(there.headers.get('etag')).toBe(here.headers.get('etag'));
  });

  it.each<[string, (etag: string) => string]>([
    ['the ETag itself', (etag) => etag],
    ['a list holding it', (etag) => `"nope", ${etag},"other"`],
    ['a list without spaces', (etag) => `"nope",${etag}`],
    ['*', () => '*'],
    ['its weak form (If-None-Match compares weakly)', (etag) => `W/${etag}`],
  ])('If-None-Match with %s → 304 with no body, keeping ETag, Cache-Control and Vary', async (_, header) => {
    const url = `/concepts/${concept!.id}`;
    const etag = (await h().api.get(url)).headers.get('etag')!;
    for (const method of ['GET', 'HEAD']) {
      const response = await h().api.request(method, url, { ...ACCEPT, 'If-None-Match': header(etag) });
      expect(response.status, method).toBe(304);
      expect(response.body).toBeUndefined();
      expect(response.headers.get('etag')).toBe(etag);
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(response.headers.get('vary')).toBe('Accept');
      expect(response.headers.get('content-length')).toBeNull();
    }
  });

  it.each<[string, (etag: string, otherEtag: string) => string]>([
    ['another resource’s ETag', (_, other) => other],
    ['a list without it', (_, other) => `"nope", ${other}`],
    ['the ETag with its quotes left off', (etag) => etag.slice(1, -1)],
    ['a weak form of another resource’s ETag', (_, other) => `W/${other}`],
  ])('If-None-Match with %s → 200 with the body', async (_, header) => {
    const url = `/concepts/${concept!.id}`;
    const plain = await h().api.get(url);
    const other = await h().api.get(`/concepts/${otherConcept!.id}`);
    const response = await h().api.get(url, {
      ...ACCEPT,
      'If-None-Match': header(plain.headers.get('etag')!, other.headers.get('etag')!),
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(plain.body);
    expect(response.headers.get('etag')).toBe(plain.headers.get('etag'));
  });

  it('a request’s Cache-Control: no-cache does not stop a matching If-None-Match (the origin evaluates it, RFC 9110 §13.2.2)', async () => {
    const url = `/concepts/${concept!.id}`;
    const etag = (await h().api.get(url)).headers.get('etag')!;
    const response = await h().api.get(url, { ...ACCEPT, 'If-None-Match': etag, 'Cache-Control': 'no-cache' });
    expect(response.status).toBe(304);
  });

  it('If-Modified-Since alone gets the 200: the server sends no Last-Modified to compare it with', async () => {
    const response = await h().api.get(`/concepts/${concept!.id}`, {
      ...ACCEPT,
      'If-Modified-Since': new Date(Date.now() + 86_400_000).toUTCString(),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('last-modified')).toBeNull();
  });

  it.each(URLS)('HEAD %s has exactly the GET’s headers, Content-Length included, and no body', async (url) => {
    // Uncompressed, so that Content-Length is the length of the document's JSON.
    const plain = { ...ACCEPT, 'Accept-Encoding': 'identity' };
    const [get, head] = [await h().api.get(url, plain), await h().api.request('HEAD', url, plain)];
    expect(head.status).toBe(200);
    expect(head.body).toBeUndefined();
    expect(stableHeaders(head)).toEqual(stableHeaders(get));
    expect(Number(head.headers.get('content-length'))).toBe(Buffer.byteLength(JSON.stringify(get.body)));
  });

  it('Cache-Control comes from each dataset’s configuration, on the 200 and on the 304', async () => {
    const sample = await tuned.get(`/concepts/${concept!.id}`);
    expect(sample.headers.get('cache-control')).toBe('public, max-age=60');
    const other = await tuned.get(`/api/other/concepts/${concept!.id}`);
    expect(other.headers.get('cache-control')).toBe('private, max-age=5');
    const notModified = await tuned.get(`/api/other/concepts/${concept!.id}`, {
      ...ACCEPT,
      'If-None-Match': other.headers.get('etag')!,
    });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get('cache-control')).toBe('private, max-age=5');
  });

  it.each([
    ['404: a well-formed id nobody has', '/concepts/abcdef', ACCEPT, 404],
    ['404: an unknown type', '/nothing-here', ACCEPT, 404],
    ['400: a bad parameter', '/concepts?sort=nope', ACCEPT, 400],
    ['406: nothing producible', '/concepts', { Accept: 'text/html' }, 406],
  ])('%s carries Cache-Control: no-store and no ETag', async (_, url, headers, status) => {
    for (const api of [h().api, tuned]) {
      const response = await api.get(url, headers);
      expect(response.status).toBe(status);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('etag')).toBeNull();
    }
  });

  it('If-None-Match: * on a resource that does not exist is the 404, not a 304 (a precondition never turns an error into success)', async () => {
    const response = await h().api.get('/concepts/abcdef', { ...ACCEPT, 'If-None-Match': '*' });
    expect(response.status).toBe(404);
  });

  it('an error is not kept by the response cache: asked again, it queries the store again', async () => {
    const url = '/api/other/concepts/abcdef';
    const first = await tuned.get(url);
    const second = await tuned.get(url);
    expect([first.status, second.status]).toEqual([404, 404]);
    expect(queryCount(second)).toBeGreaterThan(0);
    expect(queryCount(second)).toBe(queryCount(first));
  });

  it('/health is live state, not a representation: no-store and no ETag', async () => {
    const response = await h().api.get('/health');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('etag')).toBeNull();
  });
});
