import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { checkEngine, type EngineFinding } from '../../src/execute/engine-check.js';
import { loadMapping } from '../../src/mapping/load-mapping.js';
import type { Store } from '../../src/store/store.js';
import { ApiClient } from '../support/api-client.js';
import { describeStores, openSampleStore, SAMPLE_MAPPING } from '../support/each-store.js';

/**
 * The start-up engine check (execute/engine-check.ts) against every store the suites run on: each
 * answers every question the way the server's promises need, or holds less than it was given (a
 * documented limit), never a warning; and the app reports what it found in the log, at /health
 * (with details) and in /metrics.
 */
describeStores('the start-up engine check', (storeName) => {
  let store: Store;
  let findings: EngineFinding[];
  let api: ApiClient;
  const logged: { level: number; msg: string }[] = [];
  beforeAll(async () => {
    const [mapping, opened] = await Promise.all([loadMapping(SAMPLE_MAPPING), openSampleStore(storeName)]);
    store = opened;
    findings = await checkEngine(store);
    const logger = pino(
      { level: 'info' },
      { write: (line: string) => void logged.push(JSON.parse(line) as { level: number; msg: string }) },
    );
    const app = createApp({
      datasets: [{ name: 'sample', mapping, store, linkBase: '' }],
      logger,
      health: { details: true },
    });
    await app.locals.checkEngines(new AbortController().signal);
    api = await ApiClient.listen(app);
  });
  afterAll(async () => {
    await api?.close();
    await store?.close();
  });

  it('orders and compares text by code point, instants and numbers by value, and reads doubles exactly', () => {
    const found = Object.fromEntries(findings.map((f) => [f.check, f.found]));
    expect(found['text-order']).toBe('code point');
    expect(found['text-compare']).toBe('code point');
    expect(found['date-order']).toBe('by value');
    expect(found['number-order']).toBe('by value');
    expect(found['double-text']).toMatch(/^exact/);
    expect(findings.filter((f) => f.severity === 'warning')).toEqual([]);
  });

  it('logs what it found once, and warns of nothing', () => {
    expect(logged.filter((l) => l.msg.startsWith('engine of dataset sample: text-order: code point'))).toHaveLength(1);
    expect(logged.filter((l) => l.level >= 40)).toEqual([]);
  });

  it('shows the findings at /health with details and in /metrics', async () => {
    const health = await api.get('/health');
    const engine = health.body.meta.datasets[0].engine;
    expect(Object.keys(engine).sort()).toEqual(findings.map((f) => f.check).sort());
    for (const f of findings) expect(engine[f.check]).toEqual({ found: f.found, severity: f.severity });
    const metrics = await api.metrics();
    for (const f of findings)
      expect(metrics).toContain(`engine_check{dataset="sample",check="${f.check}",severity="${f.severity}"} 1`);
  });
});
