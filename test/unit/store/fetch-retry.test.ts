/**
 * The stale-socket retry both HTTP clients share (the store's queries, the loader's writes),
 * against a real local keep-alive server that drops sockets on cue.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { describeFetchError, retryStaleSocket } from '../../../src/store/fetch-retry.js';
import { StoreClient } from '../../../src/load/http.js';
import { closedPort, startFakeEndpoint, type FakeEndpoint } from '../../support/store-fake-endpoint.js';

let fake: FakeEndpoint | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe('retryStaleSocket', () => {
  it('sends once more when the server dropped the socket before answering', async () => {
    fake = await startFakeEndpoint((n, _req, res) => (n === 1 ? 'drop' : void res.end('ok')));
    const retried: unknown[] = [];
    const response = await retryStaleSocket(() => fetch(fake!.endpointUrl), { onRetry: (error) => retried.push(error) });
    expect(await response.text()).toBe('ok');
    expect(fake.requests).toBe(2);
    expect(retried).toHaveLength(1);
  });

  it('gives up after the second dropped socket, with fetch’s own error', async () => {
    fake = await startFakeEndpoint(() => 'drop');
    await expect(retryStaleSocket(() => fetch(fake!.endpointUrl))).rejects.toThrow('fetch failed');
    expect(fake.requests).toBe(2);
  });

  it('does not retry a refused connection (the request may be sent anywhere else; nothing was half-done)', async () => {
    let attempts = 0;
    const url = `http://127.0.0.1:${await closedPort()}/`;
    await expect(retryStaleSocket(() => (attempts++, fetch(url)))).rejects.toThrow('fetch failed');
    expect(attempts).toBe(1);
  });

  it('does not retry once the caller has aborted', async () => {
    fake = await startFakeEndpoint(() => 'drop');
    const controller = new AbortController();
    await expect(retryStaleSocket(() => fetch(fake!.endpointUrl).finally(() => controller.abort()), { signal: controller.signal })).rejects.toThrow();
    expect(fake.requests).toBe(1);
  });
});

describe('describeFetchError', () => {
  it('names the causes and their codes, which "fetch failed" alone does not', async () => {
    const port = await closedPort();
    const error = await fetch(`http://127.0.0.1:${port}/`).catch((e: unknown) => e);
    expect(describeFetchError(error)).toMatch(new RegExp(`^fetch failed: connect ECONNREFUSED 127\\.0\\.0\\.1:${port}`));
  });
});

describe("the loader's client uses it", () => {
  it('retries a write that landed on a dropped socket once, then succeeds', async () => {
    fake = await startFakeEndpoint((n, _req, res) => (n === 1 ? 'drop' : void res.writeHead(204).end()));
    expect(await new StoreClient().post(fake.endpointUrl, 'INSERT DATA {}', 'application/sparql-update')).toBeUndefined();
    expect(fake.requests).toBe(2);
  });

  it('reports an unreachable store as a LoadError naming the URL and the cause', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/sparql`;
    await expect(new StoreClient().post(url, 'INSERT DATA {}', 'application/sparql-update')).rejects.toThrow(new RegExp(`^Could not reach ${url.replace(/[.]/g, '\\.')}: fetch failed: connect ECONNREFUSED`));
  });
});
