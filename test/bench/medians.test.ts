import { describe, expect, it } from 'vitest';
import { COLD_TARGETS, renderMedians } from '../../bench/medians.js';
import { fastestPeer } from '../../bench/reference.js';
import type { RunResult, ShapeResult } from '../../bench/results.js';
import { latency, measured, storeResult } from './results-fixtures.js';

/** `measured(key, …)` with `rps` requests a second at 10 connections. */
function shape(key: string, rps: number, server: number, floor: number): ShapeResult {
  const ok = measured(key, server, floor) as Extract<ShapeResult, { status: 'ok' }>;
  return { ...ok, concurrent: [{ ...ok.concurrent[0]!, requestsPerSecond: rps }] };
}

/** One run at `size` whose single resource and deep page gave these throughputs. */
function run(size: '1m' | '100k', single: number, deep: number, load = 2): RunResult {
  return {
    date: '2026-11-28T12:00:00.000Z',
    machine: { cpu: 'test', cores: 2, memoryBytes: 1, os: 'linux', node: 'v20', commit: 'abc1234' },
    size,
    smoke: false,
    settings: { durationSeconds: 5, iterations: 50, connections: [10], serverProcess: 'test', windowCache: 0 },
    stores: [
      storeResult({
        size,
        shapes: [shape('single', single, 2.2, 1.2), shape('deep-offset', deep, 30, 28)],
        hop: latency(0.5),
      }),
    ],
    loadAverage: { start: load, end: load + 1 },
    skipped: [],
  };
}

/** mu-cl-resources' fastest figure at 1M, the one the ratio is taken over. */
const peer = (key: string) => fastestPeer('virtuoso', '1m', key)!.peer.requestsPerSecond;

describe('renderMedians', () => {
  it("gives each run's throughput and the median, its ratio to mu-cl-resources against issue 27's target, and server ÷ (floor + hop)", () => {
    const table = renderMedians([run('1m', 1400, 30), run('1m', 1601, 50), run('1m', 1500, 40, 4)], 'virtuoso');
    const row = (label: string) => table.split('\n').find((line) => line.startsWith(`| ${label} |`))!;
    const single = 1500 / peer('single');
    const deep = 40 / peer('deep-offset');
    expect(row('single')).toContain('| 1400 / 1601 / 1500 | 1500 |');
    expect(row('single')).toContain(
      `| ${single.toFixed(2)} (${COLD_TARGETS.single}: ${single >= COLD_TARGETS.single! ? 'met' : '**missed**'}) |`,
    );
    expect(row('deep-offset')).toContain('| 30.0 / 50.0 / 40.0 | 40.0 |');
    expect(row('deep-offset')).toContain(`| ${deep.toFixed(2)} (3: **missed**) |`);
    // 2.2 ÷ (1.2 + 0.5) = 1.29 in every run: within 1.3; 30 ÷ (28 + 0.5) = 1.05.
    expect(row('single')).toContain('| 1.29 / 1.29 / 1.29 | 1.29 (met) |');
    expect(table).toContain('Median of 3 runs');
    expect(table).toContain('load average 2.0–5.0');
  });

  it('refuses runs of several sizes: a median over sizes would mean nothing', () => {
    expect(() => renderMedians([run('1m', 1400, 30), run('100k', 1500, 40)], 'virtuoso')).toThrow(/several sizes/);
  });
});
