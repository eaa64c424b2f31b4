/**
 * Compression (issue 25): bodies of 1 KB or more go brotli- or gzip-compressed as Accept-Encoding
 * asks, with Vary: Accept-Encoding and an ETag of their own; conditional requests keep working;
 * the response cache keeps what it compressed. Raw HTTP (node:http), so that the bytes on the wire
 * are seen as sent; the expectation for every decompressed body is the uncompressed response.
 */
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { beforeAll, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { COMPRESSION_THRESHOLD } from '../../src/http/compression.js';
import { loadMapping } from '../../src/mapping/load-mapping.js';
import { ApiClient } from '../support/api-client.js';
import { describeEachStore, SAMPLE_MAPPING } from '../support/each-store.js';
import { SAMPLE_DATA } from '../support/global-setup.js';
import { Oracle } from '../support/oracle.js';

const mapping = await loadMapping(SAMPLE_MAPPING);
const oracle = Oracle.fromFile(SAMPLE_DATA, mapping);
const JSON_API = 'application/vnd.api+json';
const PAGE = '/concepts?page%5Bsize%5D=100';

interface Raw {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Buffer;
}

/** One request, its body as the bytes on the wire (no decoding). */
function raw(baseUrl: string, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(`${baseUrl}${path}`, { method, headers: { Accept: JSON_API, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const decode = (response: Raw): Buffer =>
  response.headers['content-encoding'] === 'br'
    ? brotliDecompressSync(response.body)
    : response.headers['content-encoding'] === 'gzip'
      ? gunzipSync(response.body)
      : response.body;
const varyOn = (response: Raw): string[] =>
  String(response.headers.vary ?? '')
    .split(',')
    .map((v) => v.trim().toLowerCase());

describeEachStore('compression: brotli and gzip by Accept-Encoding, with their own ETags', (h) => {
  let identity: Raw;
  beforeAll(async () => {
    identity = await raw(h().api.baseUrl, PAGE);
  });

  it('the 100-item page is over the threshold, and whole', () => {
    expect(identity.status).toBe(200);
    expect(JSON.parse(identity.body.toString()).data.length).toBe(Math.min(100, oracle.members('concepts').length));
    expect(identity.body.length).toBeGreaterThanOrEqual(COMPRESSION_THRESHOLD);
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(varyOn(identity)).toContain('accept-encoding');
  });

  it.each([
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['gzip, deflate, br', 'br'], // a browser's: alike, so brotli
    ['gzip;q=1, br;q=0.5', 'gzip'],
    ['*', 'br'],
    ['deflate', undefined],
    ['identity', undefined],
    ['br;q=0, gzip;q=0', undefined],
  ])('Accept-Encoding: %s → %s', async (acceptEncoding, coding) => {
    const response = await raw(h().api.baseUrl, PAGE, { 'Accept-Encoding': acceptEncoding });
    expect(response.status).toBe(200);
    expect(response.headers['content-encoding']).toBe(coding);
    expect(decode(response).equals(identity.body)).toBe(true);
    expect(Number(response.headers['content-length'])).toBe(response.body.length);
    expect(varyOn(response)).toEqual(expect.arrayContaining(['accept', 'accept-encoding']));
    const tag = String(identity.headers.etag);
    expect(response.headers.etag).toBe(coding === undefined ? tag : `${tag.slice(0, -1)}-${coding}"`);
    if (coding !== undefined) expect(response.body.length).toBeLessThan(identity.body.length / 3);
  });

  it('a body under the threshold goes as it is, with no Vary on Accept-Encoding', async () => {
    const [concept] = oracle.members('concepts');
    const response = await raw(h().api.baseUrl, `/concepts/${concept!.id}`, { 'Accept-Encoding': 'br, gzip' });
    expect(response.status).toBe(200);
    expect(response.body.length).toBeLessThan(COMPRESSION_THRESHOLD);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(varyOn(response)).not.toContain('accept-encoding');
  });

  it('If-None-Match: each coding’s tag matches its own representation only; HEAD has the GET’s length', async () => {
    const br = await raw(h().api.baseUrl, PAGE, { 'Accept-Encoding': 'br' });
    const notModified = await raw(h().api.baseUrl, PAGE, {
      'Accept-Encoding': 'br',
      'If-None-Match': String(br.headers.etag),
    });
    expect(notModified.status).toBe(304);
    expect(notModified.body.length).toBe(0);
    expect(notModified.headers.etag).toBe(br.headers.etag);
    expect(varyOn(notModified)).toContain('accept-encoding');
    // The identity tag does not match the brotli body, nor the brotli tag the identity body.
    const other = await raw(h().api.baseUrl, PAGE, {
      'Accept-Encoding': 'br',
      'If-None-Match': String(identity.headers.etag),
    });
    expect(other.status).toBe(200);
    const plain = await raw(h().api.baseUrl, PAGE, { 'If-None-Match': String(br.headers.etag) });
    expect(plain.status).toBe(200);
    expect(plain.body.equals(identity.body)).toBe(true);
    const head = await raw(h().api.baseUrl, PAGE, { 'Accept-Encoding': 'br' }, 'HEAD');
    expect(head.headers['content-length']).toBe(String(br.body.length));
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.body.length).toBe(0);
  });

  it('/openapi.json is compressed too, and decompresses to what the app describes', async () => {
    const response = await raw(h().api.baseUrl, '/openapi.json', { 'Accept-Encoding': 'gzip', Accept: '*/*' });
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(varyOn(response)).toEqual(['accept-encoding']);
    const plain = await raw(h().api.baseUrl, '/openapi.json', { Accept: '*/*' });
    expect(decode(response).equals(plain.body)).toBe(true);
  });

  it('with the response cache, a hit sends the bytes the miss compressed, for each coding', async () => {
    const cached = await ApiClient.listen(
      createApp({
        datasets: [{ name: 'sample', mapping, store: h().store, linkBase: '', options: { cacheTtlSeconds: 60 } }],
      }),
    );
    try {
      for (const coding of ['br', 'gzip']) {
        const miss = await raw(cached.baseUrl, PAGE, { 'Accept-Encoding': coding });
        const hit = await raw(cached.baseUrl, PAGE, { 'Accept-Encoding': coding });
        expect(hit.headers['server-timing']).toBe('cache;desc=hit');
        expect(hit.headers['content-encoding']).toBe(coding);
        expect(hit.body.equals(miss.body)).toBe(true);
        expect(decode(hit).equals(identity.body)).toBe(true);
      }
    } finally {
      await cached.close();
    }
  });
});

describeEachStore('the root document: GET /', (h) => {
  it('links every dataset’s collections, description and docs page; each link answers', async () => {
    const root = await h().api.get('/');
    expect(root.status).toBe(200);
    expect(root.body.links).toEqual({ self: '/', describedby: '/openapi.json' });
    const datasets = root.body.meta.datasets as Record<string, { default?: true; links: Record<string, string> }>;
    // The harness serves the sample as three datasets: sample (the default), mirror and uncounted.
    expect(Object.keys(datasets).sort()).toEqual(['mirror', 'sample', 'uncounted']);
    expect(datasets.sample!.default).toBe(true);
    for (const [name, { links }] of Object.entries(datasets)) {
      const prefix = name === 'sample' ? '' : `/api/${name}`;
      expect(links).toEqual({
        describedby: `${prefix}/openapi.json`,
        docs: `${prefix}/docs`,
        ...Object.fromEntries([...mapping.types.keys()].map((type) => [type, `${prefix}/${type}`])),
      });
      for (const type of mapping.types.keys()) {
        const collection = await h().api.get(links[type]!);
        expect(collection.status, links[type]).toBe(200);
        expect(collection.body.data.every((r: { type: string }) => r.type === type)).toBe(true);
      }
      const description = await raw(h().api.baseUrl, links.describedby!, { Accept: '*/*' });
      expect(JSON.parse(description.body.toString()).openapi).toBe('3.1.0');
      const docs = await raw(h().api.baseUrl, links.docs!, { Accept: 'text/html' });
      expect(docs.headers['content-type']).toBe('text/html; charset=utf-8');
    }
  });

  it('a browser gets the docs page; a bad Accept the 406 of any JSON:API URL; HEAD the headers', async () => {
    const browser = await raw(h().api.baseUrl, '/', {
      Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
    });
    expect(browser.status).toBe(200);
    expect(browser.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(browser.body.toString()).toContain('<script src="scalar.js"></script>');
    expect(varyOn(browser)).toContain('accept');
    const any = await raw(h().api.baseUrl, '/', { Accept: '*/*' });
    expect(any.headers['content-type']).toBe(JSON_API);
    const refused = await h().api.get('/', { Accept: 'application/vnd.api+json; charset=utf-8' });
    expect(refused.status).toBe(406);
    const head = await raw(h().api.baseUrl, '/', {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(any.body.length));
    expect(head.body.length).toBe(0);
  });

  it('is in the default dataset’s OpenAPI description, and only there', async () => {
    const description = JSON.parse((await raw(h().api.baseUrl, '/openapi.json', { Accept: '*/*' })).body.toString());
    expect(description.paths['/'].get.operationId).toBe('root');
    const mirror = JSON.parse(
      (await raw(h().api.baseUrl, '/api/mirror/openapi.json', { Accept: '*/*' })).body.toString(),
    );
    expect(mirror.paths['/']).toBeUndefined();
  });
});
