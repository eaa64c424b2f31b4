/**
 * The stale-socket retry both HTTP clients share (the store's queries, the loader's writes; each
 * client's own use of it is tested beside it), against a real local keep-alive server that drops
 * sockets on cue.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { describeFetchError, retryStaleSocket } from '../../../src/store/fetch-retry.js';
import { closedPort, type FakeEndpoint, startFakeEndpoint } from '../../support/store-fake-endpoint.js';

let fake: FakeEndpoint | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe('retryStaleSocket', () => {
  it('sends once more when the server dropped the socket before answering', async () => {
    fake = await startFakeEndpoint((n, _req, res) => (n === 1 ? 'drop' : void res.end('ok')));
    const retried: unknown[] = [];
    const response = await retryStaleSocket(() => fetch(fake!.endpointUrl), {
      onRetry: (error) => retried.push(error),
    });
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
    const attempt = () => {
      attempts += 1;
      return fetch(url);
    };
    await expect(retryStaleSocket(attempt)).rejects.toThrow('fetch failed');
    expect(attempts).toBe(1);
  });

  it('does not retry once the caller has aborted', async () => {
    fake = await startFakeEndpoint(() => 'drop');
    const controller = new AbortController();
    await expect(
      retryStaleSocket(() => fetch(fake!.endpointUrl).finally(() => controller.abort()), { signal: controller.signal }),
    ).rejects.toThrow();
    expect(fake.requests).toBe(1);
  });
});

describe('describeFetchError', () => {
  it('names the causes and their codes, which "fetch failed" alone does not', async () => {
    const port = await closedPort();
    const error = await fetch(`http://127.0.0.1:${port}/`).catch((e: unknown) => e);
    expect(describeFetchError(error)).toMatch(
      new RegExp(`^fetch failed: connect ECONNREFUSED 127\\.0\\.0\\.1:${port}`),
    );
  });
});
