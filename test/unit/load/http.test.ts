import { afterEach, describe, expect, it, test } from 'vitest';
import { bodyExcerpt, isTransient, NoAnswerError, retryDelay, StoreClient } from '../../../src/load/http.js';
import { closedPort, type FakeEndpoint, startFakeEndpoint } from '../../support/store-fake-endpoint.js';

let fake: FakeEndpoint | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const UPDATE = 'application/sparql-update';
const fast = { retryDelayMs: 5, timeoutMs: 200 };

describe('bodyExcerpt', () => {
  test('error bodies: HTML stripped, cut at ~300 characters', () => {
    expect(
      bodyExcerpt('<html><head><title>T</title></head><body><h1>Forbidden</h1>\n<xmp>SR575</xmp></body></html>'),
    ).toBe('T Forbidden SR575');
    expect(bodyExcerpt('x'.repeat(400))).toHaveLength(301);
  });
});

describe('retry policy', () => {
  test('backoff doubles: 1 s before the second attempt, 2 s before the third', () => {
    expect([2, 3, 4].map((attempt) => retryDelay(attempt, 1_000))).toEqual([1_000, 2_000, 4_000]);
  });

  test.each([
    [503, 'busy', true],
    [500, 'Virtuoso 08C01 Error CL...: connection lost', true],
    [502, '', true],
    [501, '', false],
    [500, 'Virtuoso 42000 Error SR186:SECURITY: No permission to execute procedure DB.DBA.SPARUL_RUN', false],
    [
      500,
      "Virtuoso 40005 Error SR325: Transaction aborted because it's log after image size went above the limit",
      false,
    ],
    [500, 'Error: org.apache.jena.update.UpdateException: Invalid source target for operation; IRI$ <urn:g>', false],
    [400, 'syntax', false],
    [404, '', false],
    [429, '', false],
  ])('HTTP %i %s: retried %s', (status, body, expected) => {
    expect(isTransient(status, body)).toBe(expected);
  });
});

describe('StoreClient: time limits, retries with backoff, the stale-socket retry, unreachable stores', () => {
  it('retries a write that landed on a dropped socket once, then succeeds', async () => {
    fake = await startFakeEndpoint((n, _req, res) => (n === 1 ? 'drop' : void res.writeHead(204).end()));
    expect(await new StoreClient().post(fake.endpointUrl, 'INSERT DATA {}', UPDATE)).toBeUndefined();
    expect(fake.requests).toBe(2);
  });

  it('reports an unreachable store as a NoAnswerError naming the URL, the cause and the attempts', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/sparql`;
    const error = new StoreClient(undefined, fast).post(url, 'INSERT DATA {}', UPDATE);
    await expect(error).rejects.toThrow(NoAnswerError);
    await expect(error).rejects.toThrow(
      new RegExp(`^Could not reach ${url.replace(/[.]/g, '\\.')} \\(3 attempts\\): fetch failed: connect ECONNREFUSED`),
    );
  });

  it('a store that never answers: each attempt ends at the time limit, 3 attempts, backoff between them', async () => {
    fake = await startFakeEndpoint(() => undefined);
    const notices: string[] = [];
    const begun = performance.now();
    const error = new StoreClient(undefined, { timeoutMs: 100, retryDelayMs: 50 }).post(fake.endpointUrl, 'x', UPDATE, {
      onRetry: (n) => notices.push(n),
    });
    await expect(error).rejects.toThrow(`${fake.endpointUrl} did not answer within 0.1 s (3 attempts)`);
    const took = performance.now() - begun;
    expect(took).toBeGreaterThanOrEqual(3 * 100 + 50 + 100 - 20);
    expect(took).toBeLessThan(5_000);
    expect(fake.requests).toBe(3);
    expect(notices).toEqual([
      `${fake.endpointUrl}: no answer within 0.1 s; attempt 2 of 3 in 0.05 s`,
      `${fake.endpointUrl}: no answer within 0.1 s; attempt 3 of 3 in 0.1 s`,
    ]);
  });

  it('a 5xx is retried and the write succeeds; a 5xx every time ends with the refusal and the attempts', async () => {
    fake = await startFakeEndpoint((n, _req, res) => void res.writeHead(n < 3 ? 503 : 200).end(n < 3 ? 'busy' : ''));
    expect(await new StoreClient(undefined, fast).post(fake.endpointUrl, 'x', UPDATE)).toBeUndefined();
    expect(fake.requests).toBe(3);
    await fake.close();
    fake = await startFakeEndpoint((_n, _req, res) => void res.writeHead(500).end('broken'));
    expect(await new StoreClient(undefined, fast).post(fake.endpointUrl, 'x', UPDATE)).toMatchObject({
      status: 500,
      body: 'broken',
      attempts: 3,
    });
  });

  it('a 4xx is the final answer: not retried', async () => {
    fake = await startFakeEndpoint((_n, _req, res) => void res.writeHead(400).end('bad'));
    expect(await new StoreClient(undefined, fast).post(fake.endpointUrl, 'x', UPDATE)).toMatchObject({
      status: 400,
      attempts: 1,
    });
    expect(fake.requests).toBe(1);
  });

  it('a request that is not idempotent (blank nodes) is retried after a 5xx, not after a time-out', async () => {
    fake = await startFakeEndpoint((n, _req, res) => (n === 1 ? void res.writeHead(503).end() : undefined));
    const client = new StoreClient(undefined, { ...fast, timeoutMs: 100 });
    await expect(client.post(fake.endpointUrl, 'x', UPDATE, { idempotent: false })).rejects.toThrow(
      /did not answer within 0\.1 s \(2 attempts\)$/,
    );
    expect(fake.requests).toBe(2);
  });

  it('once `stop` is aborted no further attempt is made; `abort` cuts the attempt in flight', async () => {
    fake = await startFakeEndpoint((_n, _req, res) => void res.writeHead(503).end());
    const stop = new AbortController();
    const client = new StoreClient(undefined, { retryDelayMs: 60_000 });
    const refused = client.post(fake.endpointUrl, 'x', UPDATE, { stop: stop.signal, onRetry: () => stop.abort() });
    expect(await refused).toMatchObject({ status: 503, attempts: 1 });
    await fake.close();

    fake = await startFakeEndpoint(() => undefined);
    const abort = new AbortController();
    const cut = client.post(fake.endpointUrl, 'x', UPDATE, { abort: abort.signal });
    setTimeout(() => abort.abort(), 50);
    await expect(cut).rejects.toThrow(`Request to ${fake.endpointUrl} aborted`);
    expect(fake.requests).toBe(1);
  });
});
