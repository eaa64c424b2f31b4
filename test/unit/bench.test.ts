import { describe, expect, it } from 'vitest';
import { renderChart } from '../../bench/chart.js';
import { concurrencyFits, waitIdle, type SequentialResult } from '../../bench/measure.js';
import { parseBenchOptions } from '../../bench/options.js';
import { groupWaves } from '../../bench/recording-store.js';
import { markdownTable, storeTable } from '../../bench/report.js';
import type { RunResult, ShapeResult, StoreResult } from '../../bench/results.js';
import { deepPage } from '../../bench/shapes.js';
import { parseServerTiming, percentile, summarize } from '../../bench/stats.js';
import { evaluateTargets } from '../../bench/targets.js';

// The benchmark's pure parts. Nothing here times anything: the inputs are made-up figures.

describe('percentile (nearest rank)', () => {
  it.each([
    { values: [5, 1, 3, 2, 4], p: 50, expected: 3 },
    { values: [1, 2, 3, 4], p: 50, expected: 2 },
    { values: [1, 2, 3, 4], p: 75, expected: 3 },
    { values: [1, 2, 3, 4], p: 76, expected: 4 },
    { values: Array.from({ length: 100 }, (_, i) => 100 - i), p: 95, expected: 95 },
    { values: Array.from({ length: 100 }, (_, i) => i + 1), p: 99, expected: 99 },
    { values: [7], p: 0, expected: 7 },
    { values: [7, 9], p: 100, expected: 9 },
  ])('p$p of $values.length values → $expected', ({ values, p, expected }) => {
    expect(percentile(values, p)).toBe(expected);
  });

  it('is NaN without samples, and does not reorder its input', () => {
    expect(percentile([], 50)).toBeNaN();
    const values = [3, 1, 2];
    percentile(values, 50);
    expect(values).toEqual([3, 1, 2]);
  });

  it('summarize gives the count, percentiles and mean', () => {
    expect(summarize([4, 1, 3, 2])).toEqual({ samples: 4, p50: 2, p95: 4, p99: 4, mean: 2.5 });
  });
});

describe('parseServerTiming', () => {
  it.each([
    { header: 'sparql;dur=4.2;desc="2 queries"', expected: { queries: 2, ms: 4.2 } },
    { header: 'sparql;dur=0.9;desc="1 query"', expected: { queries: 1, ms: 0.9 } },
    { header: 'sparql;dur=12.0;desc="3 queries", cache;desc=miss', expected: { queries: 3, ms: 12 } },
    { header: 'cache;desc=hit, sparql;dur=0.0;desc="0 queries"', expected: { queries: 0, ms: 0 } },
  ])('$header', ({ header, expected }) => {
    expect(parseServerTiming(header)).toEqual(expected);
  });

  it.each([null, undefined, '', 'cache;desc=hit'])('%s has no sparql metric', (header) => {
    expect(parseServerTiming(header)).toBeUndefined();
  });
});

describe('groupWaves', () => {
  const q = (query: string, start: number, end: number) => ({ query, start, end });

  it('puts queries sent side by side in one wave, and a later one in the next', () => {
    // list and count go out together; the fetch starts once both have answered.
    expect(groupWaves([q('list', 0, 10), q('count', 0.1, 6), q('fetch', 10.5, 14)])).toEqual([['list', 'count'], ['fetch']]);
  });

  it('orders by start time, not by when the query was logged (which is when it ended)', () => {
    expect(groupWaves([q('count', 1, 3), q('fetch', 12, 14), q('list', 0, 10)])).toEqual([['list', 'count'], ['fetch']]);
  });

  it('chains overlaps: a query that starts while any query of the wave runs belongs to it', () => {
    expect(groupWaves([q('a', 0, 5), q('b', 4, 9), q('c', 8, 10)])).toEqual([['a', 'b', 'c']]);
  });

  it('keeps strictly sequential queries apart, and gives no wave for no query', () => {
    expect(groupWaves([q('a', 0, 5), q('b', 5, 9)])).toEqual([['a'], ['b']]);
    expect(groupWaves([])).toEqual([]);
  });
});

describe('parseBenchOptions', () => {
  it('defaults to every size and store, 10 and 50 connections', () => {
    expect(parseBenchOptions([])).toMatchObject({ sizes: ['10k', '100k', '1m'], stores: ['embedded', 'virtuoso'], storesExplicit: false, smoke: false, connections: [10, 50], durationSeconds: 10 });
  });

  it('takes repeated and comma-separated values, in the order given, once each', () => {
    expect(parseBenchOptions(['--size', '100k,10k', '--size', '100K', '--store', 'virtuoso'])).toMatchObject({ sizes: ['100k', '10k'], stores: ['virtuoso'], storesExplicit: true });
  });

  it('smoke: 10k, short runs, fewer URLs', () => {
    expect(parseBenchOptions(['--smoke'])).toMatchObject({ sizes: ['10k'], smoke: true, connections: [10], iterations: 5, maxRotation: 5 });
  });

  it.each([
    { argv: ['--size', '5m'], message: /--size: expected one of 10k, 100k, 1m, got '5m'/ },
    { argv: ['--store', 'fuseki'], message: /--store: expected one of embedded, virtuoso/ },
    { argv: ['--smoke', '--size', '1m'], message: /--smoke runs the 10k dataset only/ },
    { argv: ['--duration', '0'], message: /--duration/ },
    { argv: ['--connections', '10,x'], message: /--connections/ },
    { argv: ['--iterations', '2.5'], message: /--iterations/ },
    { argv: ['--sizes', '10k'], message: /Unknown option '--sizes'/ },
  ])('refuses $argv', ({ argv, message }) => {
    const parsed = parseBenchOptions(argv);
    expect(typeof parsed).toBe('string');
    expect(parsed).toMatch(message);
  });
});

describe('concurrent runs of slow shapes', () => {
  it.each([
    { p50: 120, connections: 50, seconds: 10, fits: true },
    { p50: 800, connections: 50, seconds: 10, fits: true }, // 40 s of work: four runs' worth
    { p50: 801, connections: 50, seconds: 10, fits: false },
    { p50: 4300, connections: 10, seconds: 10, fits: false },
    { p50: 4300, connections: 10, seconds: 5, fits: false },
    { p50: 3, connections: 10, seconds: 0.3, fits: true },
  ])('p50 $p50 ms × $connections connections in $seconds s → $fits', ({ p50, connections, seconds, fits }) => {
    expect(concurrencyFits(p50, connections, seconds)).toBe(fits);
  });

  it('waitIdle probes until a request answers in about its idle time', async () => {
    const answers = [400, 90, 31, 29, 500];
    let probes = 0;
    await waitIdle(async () => answers[probes++]!, 10);
    expect(probes).toBe(4); // 31 ms > max(3 × 10, 10 + 20) = 30; 29 ms is idle enough
  });
});

it('deepPage is page 500 (offset 10,000) at 1M, and 10 pages before the end of smaller datasets', () => {
  expect(deepPage(70_000)).toBe(500);
  expect(deepPage(7_000)).toBe(340);
  expect(deepPage(700)).toBe(25);
  expect(deepPage(100)).toBe(0);
});

// --- report and targets, on made-up figures -------------------------------------------------------

const latency = (p50: number) => ({ samples: 100, p50, p95: p50 * 2, p99: p50 * 3, mean: p50 });
function measured(key: string, server: number, floor: number, queries = 2, budget = 3): ShapeResult {
  const sequential: SequentialResult = { server: latency(server), floor: latency(floor), queries: { min: queries, max: queries, mean: queries }, storeMs: latency(floor) };
  const concurrent = (connections: number, rps: number) => ({ connections, requestsPerSecond: rps, p50: server, p99: server * 4, completed: rps * 10, failed: 0 });
  return { key, label: key, status: 'ok', rotation: 5, example: `/${key}`, waves: [queries], queryBudget: budget, sequential, concurrent: [concurrent(10, 800), concurrent(50, 900)], floorConcurrent: concurrent(10, 1000) };
}
function storeResult(overrides: Partial<StoreResult> = {}): StoreResult {
  return {
    store: 'virtuoso',
    size: '1m',
    triples: 937_000,
    description: 'sparql http://127.0.0.1:1/sparql',
    loadMs: 12_000,
    memory: { afterLoad: 500 * 2 ** 20, peak: 700 * 2 ** 20 },
    shapes: [measured('single', 2.2, 2), measured('deep-offset', 40, 38), measured('deep-cursor', 10, 9), { key: 'filtered', label: 'filtered', status: 'n/a', reason: 'HTTP 400: not | supported' }],
    interference: { alone: latency(2), withSlow: latency(30), slowCompleted: 3, delayP50: 28, delayP95: 56 },
    cache: { na: 'the server refused it' },
    ...overrides,
  };
}

describe('markdown report', () => {
  it('markdownTable escapes pipes and newlines so a cell stays a cell', () => {
    expect(markdownTable(['a', 'b'], [['x|y', 'two\nlines']])).toBe('| a | b |\n| --- | --- |\n| x\\|y | two lines |');
  });

  it('storeTable: one row per shape, ratio of the p50s, n/a with its reason, ✗ over the query budget', () => {
    const table = storeTable(storeResult({ shapes: [measured('single', 3, 2), measured('include', 5, 5, 5, 4), storeResult().shapes[3]!] }), [10, 50]);
    const rows = table.split('\n');
    expect(rows).toHaveLength(2 + 3);
    expect(rows[2]).toBe('| single | 2 (≤ 3) | 3.0 / 6.0 | 2.0 / 4.0 | 1.50 | 2.0 | 800 (3.0/12.0) | 900 (3.0/12.0) | 1000 |');
    expect(rows[3]).toContain('| 5 (≤ 4) ✗ |');
    expect(rows[4]).toMatch(/^\| filtered \| n\/a: HTTP 400: not \\\| supported \|/);
  });

  it('storeTable: a run skipped as too slow, and failures by status code', () => {
    const shape = measured('sorted', 5000, 4900) as Extract<ShapeResult, { status: 'ok' }>;
    const slow: ShapeResult = {
      ...shape,
      concurrent: [{ connections: 10, requestsPerSecond: 1.5, p50: 6000, p99: 9000, completed: 15, failed: 3, failures: { '502': 2, timeouts: 1 } }, { connections: 50, skipped: 'too slow' }],
      floorConcurrent: { connections: 10, skipped: 'too slow' },
    };
    expect(storeTable(storeResult({ shapes: [slow] }), [10, 50]).split('\n')[2]).toMatch(/\| 2 \(6000\.0\/9000\.0\) ⚠ 3 failed \(502: 2, timeouts: 1\) \| skipped: too slow \| skipped: too slow \|$/);
  });
});

describe('evaluateTargets', () => {
  const status = (rows: ReturnType<typeof evaluateTargets>, prefix: string) => rows.find((r) => r.target.startsWith(prefix))?.status;

  it('judges the targets in their scope (Virtuoso, 1M)', () => {
    const rows = evaluateTargets(storeResult());
    expect(status(rows, 'SPARQL queries')).toBe('met');
    expect(status(rows, 'server p50 ÷ floor p50')).toBe('met'); // worst 2.2 / 2 = 1.1
    expect(status(rows, 'single resource, 10 connections')).toBe('met'); // 800 ≥ 0.8 × 1000
    expect(status(rows, 'deep page')).toBe('met'); // 10 ≤ 0.5 × 40
    expect(status(rows, 'repeated identical request')).toBe('n/a');
    expect(rows.find((r) => r.target.startsWith('repeated'))?.figure).toBe('the server refused it');
  });

  it('reports misses, and puts figures outside the scope in parentheses', () => {
    const slow = storeResult({ shapes: [measured('single', 3, 2, 4, 3)] });
    expect(status(evaluateTargets(slow), 'server p50 ÷ floor p50')).toBe('missed');
    expect(status(evaluateTargets(slow), 'SPARQL queries')).toBe('missed');
    const elsewhere = evaluateTargets(storeResult({ size: '100k', shapes: [measured('single', 3, 2)] }));
    expect(status(elsewhere, 'server p50 ÷ floor p50')).toBe('(missed)');
    expect(status(elsewhere, 'deep page')).toBe('n/a');
  });

  it('checks the embedded store’s own targets on the embedded store only', () => {
    const embedded = evaluateTargets(storeResult({ store: 'embedded', loadMs: 16_000 }));
    expect(status(embedded, 'loads in')).toBe('missed');
    expect(status(embedded, 'RSS')).toBe('met');
    expect(status(embedded, 'a slow sort')).toBe('missed'); // p95 +56 ms
    expect(status(evaluateTargets(storeResult()), 'loads in')).toBeUndefined();
  });
});

it('renderChart draws a server and a floor bar per measured shape and store, and n/a for the rest', () => {
  const run: RunResult = {
    date: '2025-01-02T03:04:05.000Z',
    machine: { cpu: 'Test CPU', cores: 2, memoryBytes: 2 ** 34, os: 'Linux', node: 'v20.0.0', commit: 'abc1234' },
    size: '1m',
    smoke: false,
    settings: { durationSeconds: 10, iterations: 200, connections: [10, 50], serverProcess: 'child' },
    stores: [storeResult({ store: 'embedded' }), storeResult()],
    loadAverage: { start: 0.5, end: 1.5 },
    skipped: [],
  };
  const svg = renderChart([run]);
  expect(svg.startsWith('<svg')).toBe(true);
  expect(svg.match(/<rect [^>]*><title>/g)).toHaveLength(2 * 2 * 3);
  expect(svg.match(/>n\/a</g)).toHaveLength(2);
  expect(svg).toContain('virtuoso server: deep-cursor: p50 10.00 ms');
  expect(svg).toContain('Test CPU, 2 cores, 16 GB');
  expect(svg).toContain('load average 1.5 on 2 cores');
});
