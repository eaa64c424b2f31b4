import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ResponseCache } from '../../../src/cache/response-cache.js';
import { COMPRESSION_THRESHOLD, chooseEncoding, Variants } from '../../../src/http/compression.js';
import { representBytes } from '../../../src/http/conditional.js';

const BIG = COMPRESSION_THRESHOLD;

describe('chooseEncoding', () => {
  it.each([
    [undefined, BIG, 'identity'],
    ['br, gzip', BIG - 1, 'identity'],
    ['br, gzip', BIG, 'br'],
    ['gzip, deflate, br, zstd', BIG, 'br'],
    ['gzip', BIG, 'gzip'],
    ['GZIP', BIG, 'gzip'],
    ['br;q=0.1, gzip;q=0.9', BIG, 'gzip'],
    ['*;q=0.5', BIG, 'br'],
    ['deflate, compress', BIG, 'identity'],
    ['identity;q=0', BIG, 'identity'],
    ['', BIG, 'identity'],
  ])('Accept-Encoding %j, %i bytes → %s', (acceptEncoding, bytes, expected) => {
    const headers = acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding };
    expect(chooseEncoding(headers, bytes)).toBe(expected);
  });
});

describe('Variants', () => {
  const body = Buffer.from(JSON.stringify({ data: Array.from({ length: 200 }, (_, i) => ({ id: String(i) })) }));

  it('compresses each coding once, to bytes that decompress to the body, under a tag of its own', async () => {
    const variants = new Variants(representBytes(body, 'application/json'));
    const before = variants.bytes;
    const [br, again] = await Promise.all([variants.get('br'), variants.get('br')]);
    expect(again).toBe(br); // the same object: made once
    expect(brotliDecompressSync(br.body).equals(body)).toBe(true);
    expect(br.etag).toBe(`${variants.identity.etag.slice(0, -1)}-br"`);
    expect(br.contentLength).toBe(String(br.body.length));
    const gzip = await variants.get('gzip');
    expect(gunzipSync(gzip.body).equals(body)).toBe(true);
    expect(variants.etag('gzip')).toBe(gzip.etag);
    expect(variants.bytes).toBe(before + br.body.length + br.etag.length + gzip.body.length + gzip.etag.length);
    expect(await variants.get('identity')).toBe(variants.identity);
  });

  it('the response cache counts the compressed bytes once they are made', async () => {
    const key = { dataset: 'd', path: '/x', query: '', mediaType: 'application/vnd.api+json' };
    const variants = new Variants(representBytes(body, 'application/json'));
    // Room for the body and its key, but not for a compressed form beside them.
    const room = variants.bytes + 100;
    const cache = new ResponseCache({ maxBytes: room });
    cache.set(key, variants, 60, { dataset: 'd', reads: [], stamp: cache.now() });
    expect(cache.get(key, 60)).toBe(variants);
    await variants.get('gzip');
    cache.grown(key);
    // Now over the bound: the entry no longer fits, so it is dropped rather than under-counted.
    expect(cache.get(key, 60)).toBeUndefined();
  });
});
