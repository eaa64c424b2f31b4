import { afterEach, describe, expect, it, test } from 'vitest';
import { bodyExcerpt, StoreClient } from '../../../src/load/http.js';
import { closedPort, type FakeEndpoint, startFakeEndpoint } from '../../support/store-fake-endpoint.js';

let fake: FakeEndpoint | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe('bodyExcerpt', () => {
  test('error bodies: HTML stripped, cut at ~300 characters', () => {
    expect(
      bodyExcerpt('<html><head><title>T</title></head><body><h1>Forbidden</h1>\n<xmp>SR575</xmp></body></html>'),
    ).toBe('T Forbidden SR575');
    expect(bodyExcerpt('x'.repeat(400))).toHaveLength(301);
  });
});

describe('StoreClient: the stale-socket retry and unreachable stores', () => {
  it('retries a write that landed on a dropped socket once, then succeeds', async () => {
    fake = await startFakeEndpoint((n, _req, res) => (n === 1 ? 'drop' : void res.writeHead(204).end()));
    expect(
      await new StoreClient().post(fake.endpointUrl, 'INSERT DATA {}', 'application/sparql-update'),
    ).toBeUndefined();
    expect(fake.requests).toBe(2);
  });

  it('reports an unreachable store as a LoadError naming the URL and the cause', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/sparql`;
    await expect(new StoreClient().post(url, 'INSERT DATA {}', 'application/sparql-update')).rejects.toThrow(
      new RegExp(`^Could not reach ${url.replace(/[.]/g, '\\.')}: fetch failed: connect ECONNREFUSED`),
    );
  });
});
