import { afterAll, beforeAll, describe, expect, inject, it, test } from 'vitest';
import { createApp } from '../../src/app.js';
import { loadMapping } from '../../src/mapping/load-mapping.js';
import { createHttpStore } from '../../src/store/http-store.js';
import { ApiClient } from '../support/api-client.js';
import { closedPort } from '../support/closed-port.js';
import { SAMPLE_MAPPING } from '../support/each-store.js';
import { TcpProxy } from '../support/tcp-proxy.js';

const mapping = await loadMapping(SAMPLE_MAPPING);
const endpoint = inject('endpoint');

/** An app over one HTTP store; closed after the suite. */
async function appOver(endpointUrl: string, options: { graph?: string; timeoutMs?: number } = {}): Promise<ApiClient> {
  const store = createHttpStore({ endpointUrl, ...options });
  return ApiClient.listen(createApp({ datasets: [{ name: 'sample', mapping, store, linkBase: '' }] }));
}

function expectStoreError(body: any, status: number) {
  expect(body.errors[0].status).toBe(String(status));
  expect(JSON.stringify(body)).not.toMatch(/\n\s+at |ECONNREFUSED|127\.0\.0\.1|\.ts:\d+/);
}

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

if ('skip' in endpoint) {
  if (process.env.CI === 'true')
    test('[virtuoso] store failures have a Virtuoso', () => {
      throw new Error(endpoint.skip);
    });
  // Without a Virtuoso (outside CI): skipped, visibly, with the reason.
  else test.skip(`[virtuoso] store failures: ${endpoint.skip}`);
} else {
  const target = new URL(endpoint.endpointUrl);

  describe('[virtuoso] store failures', () => {
    it.each([
      ['a store slower than the timeout', 504, endpoint.endpointUrl, 1],
      ['a store that answers with an HTTP error', 502, `${target.origin}/no-such-endpoint`, undefined],
    ])('%s gives %i', async (_, status, endpointUrl, timeoutMs) => {
      const api = await appOver(endpointUrl, { graph: endpoint.graph, ...(timeoutMs && { timeoutMs }) });
      try {
        const response = await api.get('/trade-activities?sort=-concerns.label');
        expect(response.status).toBe(status);
        expectStoreError(response.body, status);
      } finally {
        await api.close();
      }
    });

    it('the server recovers when the store comes back', async () => {
      const proxy = new TcpProxy(target.hostname, Number(target.port));
      await proxy.start();
      const api = await appOver(`http://127.0.0.1:${proxy.port}${target.pathname}`, { graph: endpoint.graph });
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
  });
}
