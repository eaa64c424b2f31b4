import type { ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { loadMapping } from '../../src/mapping/load-mapping.js';
import { createHttpStore } from '../../src/store/http-store.js';
import { ApiClient } from '../support/api-client.js';
import { closedPort } from '../support/closed-port.js';
import { describeStores, ENDPOINT_STORE_NAMES, endpointOf, SAMPLE_MAPPING } from '../support/each-store.js';
import { type FakeEndpoint, startFakeEndpoint } from '../support/store-fake-endpoint.js';
import { TcpProxy } from '../support/tcp-proxy.js';

const mapping = await loadMapping(SAMPLE_MAPPING);
const EMPTY_RESULT = JSON.stringify({ head: { vars: [] }, results: { bindings: [] } });
const COUNT_RESULT = JSON.stringify({
  head: { vars: ['count'] },
  results: {
    bindings: [{ count: { type: 'literal', value: '0', datatype: 'http://www.w3.org/2001/XMLSchema#integer' } }],
  },
});

/** An app over one HTTP store; closed after the suite. */
async function appOver(endpointUrl: string, options: { graph?: string; timeoutMs?: number } = {}): Promise<ApiClient> {
  const store = createHttpStore({ endpointUrl, ...options });
  return ApiClient.listen(createApp({ datasets: [{ name: 'sample', mapping, store, linkBase: '' }] }));
}

function expectStoreError(body: any, status: number) {
  expect(body.errors[0].status).toBe(String(status));
  expect(JSON.stringify(body)).not.toMatch(/\n\s+at |ECONNREFUSED|127\.0\.0\.1|\.ts:\d+/);
}

describe('a store that cuts its answer at its row limit (Virtuoso, `maxrows`)', () => {
  let api: ApiClient;
  beforeAll(async () => {
    const { endpointUrl, graph } = endpointOf('virtuoso');
    // `maxrows` lowers Virtuoso's ResultSetMaxRows for each request of this store: a page of 10 is cut at 5.
    api = await appOver(`${endpointUrl}?maxrows=5`, { graph });
  });
  afterAll(() => api.close());

  it('answers 502 naming the limit, never the cut page', async () => {
    const response = await api.get('/concepts?page%5Bsize%5D=10');
    expect(response.status).toBe(502);
    expectStoreError(response.body, 502);
    expect(response.body.errors[0].title).toBe('Triplestore truncated the result');
    expect(response.body.errors[0].detail).toBe(
      'The triplestore cut its answer at its limit of 5 rows; ask for a smaller page.',
    );
  });
});

describe('a store that is down', () => {
  let api: ApiClient;
  beforeAll(async () => {
    const port = await closedPort();
    api = await appOver(`http://127.0.0.1:${port}/sparql`);
  });
  afterAll(() => api.close());

  it('gives 502 with an error document that reveals nothing internal', async () => {
    const response = await api.get('/concepts');
    expect(response.status).toBe(502);
    expectStoreError(response.body, 502);
  });

  it('makes /health answer 503', async () => {
    const response = await api.get('/health');
    expect(response.status).toBe(503);
    expectStoreError(response.body, 503);
  });
});

describe('a store whose heavy lane is full', () => {
  let fake: FakeEndpoint;
  /** Requests held unanswered, each with the answer its query expects. */
  const held: { res: ServerResponse; answer: string }[] = [];
  const answerAll = () => {
    for (const { res, answer } of held.splice(0)) res.end(answer);
  };
  let api: ApiClient;
  beforeAll(async () => {
    // An endpoint that answers nothing until told: the first collection request keeps the lane busy.
    fake = await startFakeEndpoint((_n, req, res) => {
      const query = new URL(req.url!, 'http://x').searchParams.get('query') ?? '';
      held.push({ res, answer: /COUNT\(/i.test(query) ? COUNT_RESULT : EMPTY_RESULT });
    });
    const store = createHttpStore({ endpointUrl: fake.endpointUrl, queries: { light: 1, heavy: 1, queue: 1 } });
    api = await ApiClient.listen(createApp({ datasets: [{ name: 'sample', mapping, store, linkBase: '' }] }));
  });
  afterAll(async () => {
    await api.close();
    await fake.close();
  });

  it('answers 503 with Retry-After at once, sending the store nothing more, and serves light requests meanwhile', async () => {
    // Its list and count queries are both heavy: one is sent, the other fills the queue.
    const first = api.get('/concepts');
    for (const deadline = Date.now() + 10_000; held.length < 1; await delay(10))
      if (Date.now() > deadline) throw new Error('the first request never reached the endpoint');
    const refused = await api.get('/concepts?sort=label');
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expectStoreError(refused.body, 503);
    expect(fake.requests).toBe(1);
    // A single resource is light: it goes out while the heavy lane is full.
    const light = api.get('/concepts/0101');
    for (const deadline = Date.now() + 10_000; held.length < 2; await delay(10))
      if (Date.now() > deadline) throw new Error('the light request never reached the endpoint');
    answerAll();
    expect((await light).status).toBe(404);
    for (const deadline = Date.now() + 10_000; held.length < 1; await delay(10))
      if (Date.now() > deadline) throw new Error('the waiting count query was never sent');
    answerAll();
    expect((await first).status).toBe(200);
  });
});

describeStores(
  'store failures',
  (storeName) => {
    const endpoint = () => endpointOf(storeName);
    const target = () => new URL(endpoint().endpointUrl);
    it.each([
      ['a store slower than the timeout', 504, () => endpoint().endpointUrl, 1],
      ['a store that answers with an HTTP error', 502, () => `${target().origin}/no-such-endpoint`, undefined],
    ])('%s gives %i', async (_, status, endpointUrl, timeoutMs) => {
      const api = await appOver(endpointUrl(), { graph: endpoint().graph, ...(timeoutMs && { timeoutMs }) });
      try {
        const response = await api.get('/trade-activities?sort=-concerns.label');
        expect(response.status).toBe(status);
        expectStoreError(response.body, status);
      } finally {
        await api.close();
      }
    });

    it('the server recovers when the store comes back', async () => {
      const { hostname, port, pathname } = target();
      const proxy = new TcpProxy(hostname, Number(port));
      await proxy.start();
      const api = await appOver(`http://127.0.0.1:${proxy.port}${pathname}`, { graph: endpoint().graph });
      try {
        expect((await api.get('/concepts/0101')).status).toBe(200);
        await proxy.stop();
        expect((await api.get('/concepts/0101')).status).toBe(502);
        expect((await api.get('/health')).status).toBe(503);
        await proxy.start(); // same port
        expect((await api.get('/concepts/0101')).status).toBe(200);
        expect((await api.get('/health')).status).toBe(200);
      } finally {
        await api.close();
        await proxy.stop();
      }
    });
  },
  ENDPOINT_STORE_NAMES,
);
