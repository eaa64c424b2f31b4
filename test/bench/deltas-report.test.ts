import { describe, expect, it } from 'vitest';
import {
  between,
  DELTA_TARGETS,
  type DeltaSample,
  type DeltaShapeResult,
  type DeltasRun,
  metricsSnapshot,
  renderDeltasMedians,
  renderDeltasRun,
  streamFigures,
  verdict,
} from '../../bench/deltas-report.js';
import { MU_CL_RESOURCES } from '../../bench/reference.js';
import { WindowCache } from '../../src/cache/window-cache.js';
import { Metrics } from '../../src/http/metrics.js';
import { latency } from './results-fixtures.js';

/** A server's metrics as the app keeps them: the response cache's lookups, a window cache, deltas. */
function serverMetrics() {
  const metrics = new Metrics({ datasets: ['bench'], defaultDataset: 'bench' });
  const { deltas } = metrics;
  const cache = new WindowCache();
  metrics.watchWindowCache(cache);
  const windows = cache.forDataset('bench', Number.POSITIVE_INFINITY)!;
  const list = { members: [], keys: [], places: new Map() };
  return {
    text: () => metrics.registry.metrics(),
    lookup: (outcome: 'hit' | 'miss') => metrics.cacheLookup('bench', outcome),
    page: (key: string) =>
      windows.list(
        key,
        () => [],
        async () => list,
      ),
    delta: (seconds: number) => deltas.received('applied', seconds),
    refused: (seconds: number) => deltas.received('invalid', seconds),
  };
}

describe('metricsSnapshot and between', () => {
  it('count what the server counted between two scrapes: cache lookups and applied deltas', async () => {
    const server = serverMetrics();
    server.lookup('hit');
    server.delta(0.2);
    const before = metricsSnapshot(await server.text());
    for (const outcome of ['hit', 'hit', 'hit', 'miss'] as const) server.lookup(outcome);
    await server.page('a'); // a miss: the list is read
    await server.page('a'); // a hit
    await server.page('a');
    const seconds = [0.0003, 0.0003, 0.0004, 0.0008, 0.002, 0.0002, 0.0001, 0.0003, 0.0004, 0.0003];
    for (const s of seconds) server.delta(s);
    server.refused(5); // not applied: not counted
    const figures = between(before, metricsSnapshot(await server.text()));
    expect(figures.response).toEqual({ hits: 3, misses: 1 });
    expect(figures.window).toEqual({ hits: 2, misses: 1 });
    expect(figures.deltas).toBe(seconds.length);
    expect(figures.deltaMeanMs).toBeCloseTo((seconds.reduce((a, b) => a + b, 0) / seconds.length) * 1000, 6);
    // 9 of 10 are under 1 ms, the 10th under 2.5 ms: the p95 lies in the 2.5 ms bucket.
    expect(figures.deltaP95AtMostMs).toBe(2.5);
  });

  it('no delta between two scrapes: no time', async () => {
    const server = serverMetrics();
    const snapshot = metricsSnapshot(await server.text());
    const figures = between(snapshot, snapshot);
    expect(figures.deltas).toBe(0);
    expect(figures.deltaMeanMs).toBeNaN();
    expect(figures.deltaP95AtMostMs).toBeNaN();
  });
});

const sample = (at: number, deltaMs: number, status = 204): DeltaSample => ({
  at,
  readMs: 1,
  updateMs: deltaMs / 2,
  deltaMs,
  status,
  triples: 6,
  kinds: ['year', 'link'],
});

describe('streamFigures', () => {
  it('summarises the messages posted within the stretch; failed ones are counted, not timed', () => {
    const samples = [sample(900, 99), ...[1, 2, 3, 4].map((n) => sample(1000 + n * 100, n)), sample(1450, 0, 0)];
    const figures = streamFigures(samples, 1000, 1500);
    expect(figures.sent).toBe(5);
    expect(figures.failed).toBe(1);
    expect(figures.deltaMs.samples).toBe(4);
    expect(figures.deltaMs.p50).toBe(2);
    expect(figures.deltaMs.p95).toBe(4);
    expect(figures.rate).toBe(10);
  });
});

function shape(key: string, requestsPerSecond: number): DeltaShapeResult {
  const lookups = { hits: 90, misses: 10 };
  return {
    key,
    label: key,
    status: 'ok',
    rotation: 10,
    example: `/${key}`,
    sequential: latency(4),
    concurrent: { connections: 10, requestsPerSecond, p50: 5, p99: 20, completed: requestsPerSecond * 5, failed: 0 },
    server: { response: lookups, window: lookups, deltas: 50, deltaMeanMs: 0.4, deltaP95AtMostMs: 1 },
    stream: streamFigures([sample(1, 3), sample(2, 5)], 0, 5000),
    loadAverage: { start: 3, end: 4 },
  };
}

const peerAt1m = (key: string) =>
  Math.max(...MU_CL_RESOURCES.runs.filter((r) => r.size === '1m').map((r) => r.shapes[key]!.requestsPerSecond));

describe('verdict', () => {
  it('sets a list page against 10 × and a single resource against 3 × the peer’s faster run at the size', () => {
    const collection = verdict({ store: 'virtuoso', size: '1m' }, shape('collection', 170));
    expect(collection.peer).toBe(peerAt1m('collection'));
    expect(collection.ratio).toBeCloseTo(170 / peerAt1m('collection'), 9);
    expect(collection.target).toBe(10);
    expect(collection.met).toBe(170 / peerAt1m('collection') >= 10);
    const single = verdict({ store: 'virtuoso', size: '1m' }, shape('single', 2 * peerAt1m('single')));
    expect(single).toMatchObject({ target: 3, met: false });
    expect(verdict({ store: 'virtuoso', size: '1m' }, shape('single', 3 * peerAt1m('single'))).met).toBe(true);
  });

  it('has no ratio where the peer was not measured', () => {
    expect(verdict({ store: 'virtuoso', size: '1m' }, shape('single', 500)).bound).toBe(false);
    expect(verdict({ store: 'virtuoso', size: '10k' }, shape('single', 500))).toMatchObject({
      peer: undefined,
      ratio: undefined,
      met: undefined,
    });
  });

  it('judges a shape too slow for its concurrent run by connections ÷ sequential p50, as a bound', () => {
    const skipped = { ...shape('sorted', 1), concurrent: { connections: 10, skipped: 'too slow' } } as DeltaShapeResult;
    const bound = 10 / (4 / 1000) / peerAt1m('sorted'); // the fixture's sequential p50 is 4 ms
    expect(verdict({ store: 'virtuoso', size: '1m' }, skipped)).toMatchObject({ bound: true, met: bound >= 10 });
    expect(verdict({ store: 'virtuoso', size: '1m' }, skipped).ratio).toBeCloseTo(bound, 9);
  });

  it('has a target for every shape the peer was measured on', () => {
    const peerShapes = Object.keys(MU_CL_RESOURCES.runs[0]!.shapes).sort();
    expect(Object.keys(DELTA_TARGETS).sort()).toEqual(peerShapes);
  });
});

function deltasRun(shapes: DeltaShapeResult[]): DeltasRun {
  const whole = streamFigures([sample(1, 3), sample(2, 5)], 0, 5000);
  return {
    date: '2026-11-27T19:00:00.000Z',
    machine: { cpu: 'CPU', cores: 2, memoryBytes: 2 ** 34, os: 'Linux', node: 'v20', commit: 'abc' },
    size: '1m',
    store: 'virtuoso',
    triples: 937_000,
    settings: {
      durationSeconds: 5,
      connections: 10,
      iterations: 30,
      rate: 10,
      windowCache: 0,
      serverProcess: 'child',
    },
    loadMs: 60_000,
    startMs: 9_000,
    shapes,
    stream: { ...whole, kinds: { year: 1, amount: 2, label: 0, link: 1 } },
    server: {
      response: { hits: 1, misses: 3 },
      window: { hits: 0, misses: 0 },
      deltas: 2,
      deltaMeanMs: 0.5,
      deltaP95AtMostMs: 1,
    },
    loadAverage: { start: 2.5, end: 3.5 },
  };
}

describe('renderDeltasRun', () => {
  it('gives a row per shape with throughput, ratio, target, hit ratios and delta times, then the stream', () => {
    const text = renderDeltasRun(
      deltasRun([shape('collection', 1000), { key: 'include', label: 'include', status: 'n/a', reason: 'HTTP 500' }]),
    );
    const ratio = 1000 / peerAt1m('collection');
    expect(text).toContain(
      `| collection | 1000 (5.0 / 20.0) | 4.0 | ${peerAt1m('collection')} | ${ratio.toFixed(1)}× | 10×: ${ratio >= 10 ? 'met' : '**missed**'} | 90 % of 100 | 90 % of 100 | 2 (3.0 / 5.0) | 3.0 → 4.0 |`,
    );
    expect(text).toContain('| include | n/a: HTTP 500 |');
    expect(text).toContain('2 in all (0.4 a second), 0 failed; activities changed: year 1, amount 2, label 0, link 1');
    expect(text).toContain('| response cache over the run | 25 % of 4 |');
    expect(text).toContain('| window cache over the run | – |');
    expect(text).toContain('**above the 2 cores');
    expect(text).toContain('the window cache off (--window-cache)');
  });
});

describe('renderDeltasMedians', () => {
  it('gives the median of each figure over the runs, and a bound where a run was too slow to run concurrently', () => {
    const slow = { ...shape('sorted', 1), concurrent: { connections: 10, skipped: 'too slow' } } as DeltaShapeResult;
    const runs = [
      deltasRun([shape('collection', 100), slow]),
      deltasRun([shape('collection', 300), shape('sorted', 50)]),
      deltasRun([shape('collection', 200), shape('sorted', 70)]),
    ];
    const lines = renderDeltasMedians(runs).split('\n');
    const ratio = 200 / peerAt1m('collection');
    expect(lines).toContain(
      `| collection | 200 | 4.0 | ${peerAt1m('collection')} | ${ratio.toFixed(1)}× | 10×: ${ratio >= 10 ? 'met' : '**missed**'} | 90 % | 90 % | 5.0 | 3.0–4.0 |`,
    );
    // sorted: 60 req/s (median of 50 and 70); its ratio, the median of 50, 70 and the bound 2,500 req/s.
    const sorted = lines.find((l) => l.startsWith('| sorted |'))!;
    expect(sorted).toContain('| sorted | 60 | 4.0 |');
    expect(sorted).toContain(`| ≤ ${(70 / peerAt1m('sorted')).toFixed(1)}× |`);
  });
});
