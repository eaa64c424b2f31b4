/**
 * `/metrics` (issue 5): Prometheus text, outside JSON:API negotiation; counters that move by
 * exactly what known requests should add; route labels that are URL shapes, never raw paths.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { loadMapping } from '../../src/mapping/load-mapping.js';
import { createHttpStore } from '../../src/store/http-store.js';
import { ApiClient, queryCount } from '../support/api-client.js';
import { closedPort } from '../support/closed-port.js';
import { describeEachStore, SAMPLE_MAPPING } from '../support/each-store.js';
import { SAMPLE_DATA } from '../support/global-setup.js';
import { metricValue, parseMetrics } from '../support/metrics-text.js';
import { Oracle } from '../support/oracle.js';

const mapping = await loadMapping(SAMPLE_MAPPING);
const oracle = Oracle.fromFile(SAMPLE_DATA, mapping);
const concept = oracle.members('concepts')[0]!.id;
const ACCEPT = { Accept: 'application/vnd.api+json' };

const METRICS = [
  'http_requests_total',
  'http_request_duration_seconds',
  'sparql_queries_total',
  'sparql_query_duration_seconds',
  'response_cache_hits_total',
  'response_cache_misses_total',
];

describeEachStore('/metrics', (h) => {
  it.each([{}, ACCEPT, { Accept: 'text/plain' }, { Accept: 'application/openmetrics-text; version=1.0.0' }])(
    'is Prometheus text whatever Accept says (%o): it is not a JSON:API document',
    async (headers) => {
      const text = await h().api.metrics(headers);
      for (const name of METRICS) expect(text).toContain(`# TYPE ${name} `);
      expect(() => parseMetrics(text)).not.toThrow();
    },
  );

  it('one GET adds one request, one duration observation, and its queries to the SPARQL counters', async () => {
    const labels = { dataset: 'sample', route: '/:type/:id', method: 'GET' };
    const before = await h().api.metrics();
    const response = await h().api.get(`/concepts/${concept}`);
    const after = await h().api.metrics();
    const delta = (name: string, l: Record<string, string>) =>
      metricValue(after, name, l) - metricValue(before, name, l);

    expect(response.status).toBe(200);
    expect(queryCount(response)).toBeGreaterThan(0);
    expect(delta('http_requests_total', { ...labels, status: '200' })).toBe(1);
    expect(delta('http_request_duration_seconds_count', labels)).toBe(1);
    expect(delta('sparql_queries_total', { dataset: 'sample', outcome: 'ok' })).toBe(queryCount(response));
    expect(delta('sparql_query_duration_seconds_count', { dataset: 'sample' })).toBe(queryCount(response));
    // The harness's datasets have no cache TTL: lookups are not even counted.
    expect(delta('response_cache_misses_total', {}) + delta('response_cache_hits_total', {})).toBe(0);
  });

  it.each<[string, string, string, Record<string, string>]>([
    ['GET', '/concepts', '', { dataset: 'sample', route: '/:type', status: '200' }],
    [
      'GET',
      `/concepts/${concept}/broader-concepts`,
      '',
      { dataset: 'sample', route: '/:type/:id/:relationship', status: '200' },
    ],
    [
      'GET',
      `/concepts/${concept}/links/broader-concepts`,
      '',
      { dataset: 'sample', route: '/:type/:id/links/:relationship', status: '200' },
    ],
    [
      'GET',
      `/concepts/${concept}/relationships/broader-concepts`,
      '',
      { dataset: 'sample', route: '/:type/:id/relationships/:relationship', status: '200' },
    ],
    ['GET', `/api/mirror/concepts/${concept}`, '', { dataset: 'mirror', route: '/:type/:id', status: '200' }],
    ['HEAD', `/concepts/${concept}`, '', { dataset: 'sample', route: '/:type/:id', status: '200' }],
    ['GET', '/concepts/abcdef', '', { dataset: 'sample', route: '/:type/:id', status: '404' }],
    ['GET', '/concepts', 'sort=nope', { dataset: 'sample', route: '/:type', status: '400' }],
    ['GET', '/api/secret-dataset-7f3e/concepts', '', { dataset: '', route: '/:type', status: '404' }],
    ['GET', '/no/such/shape/at-all-9c1d/here', '', { dataset: '', route: 'unmatched', status: '404' }],
    ['POST', '/concepts', '', { dataset: 'sample', route: '/:type', status: '405' }],
    ['OPTIONS', '/concepts', '', { dataset: 'sample', route: '/:type', status: '204' }],
    ['GET', '/health', '', { dataset: '', route: '/health', status: '200' }],
  ])('%s %s?%s is counted under its shape: %o', async (method, path, query, labels) => {
    const before = await h().api.metrics();
    const response = await h().api.request(method, query ? `${path}?${query}` : path, ACCEPT);
    const after = await h().api.metrics();
    expect(String(response.status)).toBe(labels.status);
    const exact = { ...labels, method };
    expect(metricValue(after, 'http_requests_total', exact) - metricValue(before, 'http_requests_total', exact)).toBe(
      1,
    );
    // No raw path, id or unknown name ever becomes a label value.
    for (const sample of parseMetrics(after)) {
      for (const value of Object.values(sample.labels)) {
        expect(value).not.toMatch(/secret-dataset|at-all-9c1d|abcdef|broader-concepts|sort=/);
        if (value.startsWith('/'))
          expect(value).toMatch(/^\/(health|metrics|:type(\/:id(\/(links|relationships))?(\/:relationship)?)?)$/);
      }
    }
  });

  it('scrapes are counted too, under /metrics', async () => {
    await h().api.metrics();
    const text = await h().api.metrics();
    expect(
      metricValue(text, 'http_requests_total', { dataset: '', route: '/metrics', method: 'GET', status: '200' }),
    ).toBeGreaterThanOrEqual(1);
  });
});

describe('/metrics: store failures are counted by outcome', () => {
  let api: ApiClient;
  beforeAll(async () => {
    const port = await closedPort();
    const store = createHttpStore({ endpointUrl: `http://127.0.0.1:${port}/sparql` });
    api = await ApiClient.listen(createApp({ datasets: [{ name: 'down', mapping, store, linkBase: '' }] }));
  });
  afterAll(() => api?.close());

  it('a query the store could not answer counts as unavailable, and the 502 under its route', async () => {
    const before = await api.metrics();
    const response = await api.get(`/concepts/${concept}`);
    const after = await api.metrics();
    expect(response.status).toBe(502);
    expect(
      metricValue(after, 'sparql_queries_total', { dataset: 'down', outcome: 'unavailable' }) -
        metricValue(before, 'sparql_queries_total', { dataset: 'down', outcome: 'unavailable' }),
    ).toBe(1);
    expect(metricValue(after, 'sparql_queries_total', { outcome: 'ok' })).toBe(0);
    const labels = { dataset: 'down', route: '/:type/:id', method: 'GET', status: '502' };
    expect(metricValue(after, 'http_requests_total', labels) - metricValue(before, 'http_requests_total', labels)).toBe(
      1,
    );
  });
});
