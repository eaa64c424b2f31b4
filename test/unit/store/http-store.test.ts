import { afterEach, describe, expect, it } from 'vitest';
import { createHttpStore, HTTP_QUERIES, httpConnections } from '../../../src/store/http-store.js';
import { LARGE_ANSWER_CHARS } from '../../../src/store/large-answers.js';
import type { Lane } from '../../../src/store/store.js';
import { type FakeEndpoint, ONE_ROW, startFakeEndpoint } from '../../support/store-fake-endpoint.js';

const QUERY = 'SELECT * WHERE { ?s ?p ?o } LIMIT 1';

describe('createHttpStore: the connection pool', () => {
  let fake: FakeEndpoint | undefined;
  afterEach(() => fake?.close());

  it('shows its bounds: one connection per query the lanes run at once', () => {
    const byDefault = createHttpStore({ endpointUrl: 'http://127.0.0.1:1/sparql' });
    expect(byDefault.limits).toEqual(HTTP_QUERIES);
    expect(byDefault.connections).toBe(12);
    const small = createHttpStore({ endpointUrl: 'http://127.0.0.1:1/sparql', queries: { light: 2, heavy: 1 } });
    expect(small.limits).toEqual({ light: 2, heavy: 1, queue: 64 });
    expect(small.connections).toBe(httpConnections(small.limits));
    expect(small.connections).toBe(3);
    return Promise.all([byDefault.close(), small.close()]);
  });

  it('never opens more connections than its bound, however many queries come at once, and reuses them', async () => {
    const sockets = new Set<number | undefined>();
    let inFlight = 0;
    let mostInFlight = 0;
    fake = await startFakeEndpoint((_n, req, res) => {
      sockets.add(req.socket.remotePort);
      mostInFlight = Math.max(mostInFlight, ++inFlight);
      setTimeout(() => {
        inFlight -= 1;
        res.end(ONE_ROW);
      }, 20);
    });
    const store = createHttpStore({ endpointUrl: fake.endpointUrl, queries: { light: 2, heavy: 1, queue: 64 } });
    const lanes = Array.from({ length: 30 }, (_, i): Lane => (i % 3 === 0 ? 'heavy' : 'light'));
    const answers = await Promise.all(lanes.map((lane) => store.select(QUERY, { lane })));
    expect(answers.every((rows) => rows.length === 1)).toBe(true);
    expect(fake.requests).toBe(30);
    expect(mostInFlight).toBeLessThanOrEqual(3);
    expect(sockets.size).toBeLessThanOrEqual(3);
    await store.close();
  });

  it('over loopback, sends a kind of query whose last answer was large on a connection that closes after it', async () => {
    // A row of about 1 KB: enough of them make an answer past LARGE_ANSWER_CHARS.
    const rows = (n: number) =>
      JSON.stringify({
        head: { vars: ['x'] },
        results: { bindings: Array.from({ length: n }, () => ({ x: { type: 'literal', value: 'x'.repeat(1000) } })) },
      });
    const large = Math.ceil(LARGE_ANSWER_CHARS / 1000) + 1;
    const seen: { connection: string | undefined; port: number | undefined }[] = [];
    // Answers: large, large, small, small (by request number).
    fake = await startFakeEndpoint((n, req, res) => {
      seen.push({ connection: req.headers.connection, port: req.socket.remotePort });
      res.end(rows(n <= 2 ? large : 1));
    });
    const store = createHttpStore({ endpointUrl: fake.endpointUrl, queries: { light: 1, heavy: 1 } });
    for (let i = 0; i < 4; i++) await store.select(QUERY, { lane: 'light', label: 'include-1' });
    await store.close();
    // The first query of the kind goes on a kept connection; after its large answer, the next one
    // asks for its connection to close, and so does the one after the second large answer; after
    // the small third answer, the fourth is kept again.
    expect(seen.map((s) => s.connection)).toEqual(['keep-alive', 'close', 'close', 'keep-alive']);
    expect(new Set(seen.map((s) => s.port)).size).toBe(3); // the two closing ones each had a socket of their own
  });

  it("a caller's signal that aborts after its query answered changes nothing", async () => {
    fake = await startFakeEndpoint((_n, _req, res) => void res.end(ONE_ROW));
    const store = createHttpStore({ endpointUrl: fake.endpointUrl, timeoutMs: 50 });
    const controller = new AbortController();
    expect(await store.select(QUERY, { signal: controller.signal })).toHaveLength(1);
    controller.abort(new Error('late'));
    // The deadline's timer was cleared with the query: nothing fires when it would have passed.
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(await store.select(QUERY)).toHaveLength(1);
    await store.close();
  });

  it('close() closes its connections', async () => {
    const seen = new WeakSet<object>();
    let open = 0;
    fake = await startFakeEndpoint((_n, req, res) => {
      if (!seen.has(req.socket)) {
        seen.add(req.socket);
        open += 1;
        req.socket.once('close', () => (open -= 1));
      }
      res.end(ONE_ROW);
    });
    const store = createHttpStore({ endpointUrl: fake.endpointUrl });
    await Promise.all(Array.from({ length: 4 }, () => store.select(QUERY, { lane: 'light' })));
    expect(open).toBeGreaterThan(0);
    await store.close();
    await expect.poll(() => open, { timeout: 2000 }).toBe(0);
  });
});
