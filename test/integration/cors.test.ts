/**
 * CORS (issue 4) as a browser sees it: preflights, allowed and refused origins, the headers a
 * script may read. CORS does not depend on the store, so one embedded store serves every app here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { loadMapping } from '../../src/mapping/load-mapping.js';
import { createOxigraphStore } from '../../src/store/oxigraph-store.js';
import type { Store } from '../../src/store/store.js';
import { ApiClient } from '../support/api-client.js';
import { SAMPLE_MAPPING } from '../support/each-store.js';
import { SAMPLE_DATA } from '../support/global-setup.js';

const ALLOWED = 'https://app.example.org';
const REFUSED = 'https://evil.example.net';
const ACCEPT = { Accept: 'application/vnd.api+json' };
const URL_ = '/concepts/0101';
const preflight = (origin: string, requestHeaders = 'accept,if-none-match') => ({
  Origin: origin,
  'Access-Control-Request-Method': 'GET',
  'Access-Control-Request-Headers': requestHeaders,
});
const list = (header: string | null) =>
  (header ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);

let store: Store;
let anyOrigin: ApiClient;
let someOrigins: ApiClient;
let noOrigin: ApiClient;

beforeAll(async () => {
  const mapping = await loadMapping(SAMPLE_MAPPING);
  store = await createOxigraphStore({ files: [SAMPLE_DATA] });
  const datasets = [{ name: 'sample', mapping, store, linkBase: '' }];
  anyOrigin = await ApiClient.listen(createApp({ datasets }));
  someOrigins = await ApiClient.listen(createApp({ datasets, cors: { origins: [ALLOWED, 'http://localhost:4200'] } }));
  noOrigin = await ApiClient.listen(createApp({ datasets, cors: { origins: [] } }));
});
afterAll(async () => {
  await Promise.all([anyOrigin?.close(), someOrigins?.close(), noOrigin?.close()]);
  await store?.close();
});

describe('CORS, any origin (the default)', () => {
  it('a GET from another origin may be read by any page, without credentials', async () => {
    const response = await anyOrigin.get(URL_, { ...ACCEPT, Origin: REFUSED });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    expect(response.headers.get('timing-allow-origin')).toBe('*');
    // One answer for every origin: nothing to vary on but Accept.
    expect(response.headers.get('vary')).toBe('Accept');
  });

  it('exposes the ETag, Server-Timing, Date and JSON:API headers to scripts', async () => {
    const response = await anyOrigin.get(URL_, { ...ACCEPT, Origin: ALLOWED });
    expect(list(response.headers.get('access-control-expose-headers')).sort()).toEqual(
      [
        'allow',
        'cache-control',
        'content-encoding',
        'content-length',
        'content-type',
        'date',
        'etag',
        'retry-after',
        'server-timing',
        'vary',
      ].sort(),
    );
  });

  it('a preflight is answered with 204: GET and HEAD, the conditional and negotiation headers', async () => {
    const response = await anyOrigin.request('OPTIONS', URL_, preflight(ALLOWED, 'accept,if-none-match,content-type'));
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(list(response.headers.get('access-control-allow-methods'))).toEqual(['get', 'head']);
    expect(list(response.headers.get('access-control-allow-headers'))).toEqual(
      expect.arrayContaining(['accept', 'if-none-match', 'content-type']),
    );
    expect(Number(response.headers.get('access-control-max-age'))).toBeGreaterThan(0);
    expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });

  it('an OPTIONS that is not a preflight is 204 with Allow, the same Allow as a 405', async () => {
    const options = await anyOrigin.request('OPTIONS', URL_, ACCEPT);
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    const post = await anyOrigin.request('POST', URL_, ACCEPT);
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe(options.headers.get('allow'));
  });

  it('errors and 304s carry the CORS headers too, so a script can read them', async () => {
    const missing = await anyOrigin.get('/concepts/abcdef', { ...ACCEPT, Origin: ALLOWED });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('access-control-allow-origin')).toBe('*');
    const etag = (await anyOrigin.get(URL_)).headers.get('etag')!;
    const notModified = await anyOrigin.get(URL_, { ...ACCEPT, Origin: ALLOWED, 'If-None-Match': etag });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('CORS, a list of origins', () => {
  it('an allowed origin is echoed back, with Timing-Allow-Origin, and responses vary on Origin', async () => {
    const response = await someOrigins.get(URL_, { ...ACCEPT, Origin: ALLOWED });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(response.headers.get('timing-allow-origin')).toBe(ALLOWED);
    expect(list(response.headers.get('vary')).sort()).toEqual(['accept', 'origin']);
  });

  it('a refused origin gets the data (CORS is enforced by browsers) but no header that lets its scripts read it', async () => {
    const response = await someOrigins.get(URL_, { ...ACCEPT, Origin: REFUSED });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    expect(response.headers.get('timing-allow-origin')).toBeNull();
    expect(list(response.headers.get('vary'))).toContain('origin');
  });

  it.each([
    ['an allowed origin', ALLOWED, ALLOWED],
    ['another allowed origin', 'http://localhost:4200', 'http://localhost:4200'],
    ['a refused origin', REFUSED, null],
    ['an origin that only starts like an allowed one', `${ALLOWED}.evil.example.net`, null],
  ])('a preflight from %s', async (_, origin, allowed) => {
    const response = await someOrigins.request('OPTIONS', URL_, preflight(origin));
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(allowed);
  });

  it('an empty list lets no other origin read', async () => {
    const response = await noOrigin.get(URL_, { ...ACCEPT, Origin: ALLOWED });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });
});
