import { describe, expect, it } from 'vitest';
import { COLD_TARGETS, renderKeepAliveMedians, renderMedians } from '../../bench/medians.js';
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

describe('renderKeepAliveMedians', () => {
  const loop = (rps: number) => ({
    connections: 10,
    seconds: 4,
    requestsPerSecond: rps,
    p50: 5,
    p99: 9,
    completed: rps * 4,
    failed: 0,
  });
  const withKeepAlive = (ours: number, theirs: number, serverCpu: number) => {
    const ok = measured('single', 3, 2) as Extract<ShapeResult, { status: 'ok' }>;
    return storeResult({
      size: '100k',
      peer: { command: './start {port}' },
      shapes: [
        {
          ...ok,
          keepAlive: {
            server: { sequential: latency(6), loop: loop(ours), cpu: { server: serverCpu, store: 500, client: 200 } },
            peer: {
              sequential: latency(7),
              loop: loop(theirs),
              cpu: { server: 3, store: 900, peer: 700, client: 200 },
            },
            first: 'server',
          },
        },
      ],
    });
  };

  it('gives each run’s figures, the median of each run’s this ÷ peer against its target, and the median CPU', () => {
    const table = renderKeepAliveMedians([
      withKeepAlive(700, 600, 400),
      withKeepAlive(900, 300, 600),
      withKeepAlive(800, 500, 500),
    ])!;
    const row = table.split('\n').find((line) => line.startsWith('| single |'))!;
    // Per run: 1.17, 3.00, 1.60; their median 1.60, not the ratio of the medians (800 / 500).
    expect(row).toBe(
      '| single | 700 / 900 / 800 (800) | 600 / 300 / 500 (500) | 1.60 (≥ 2) ✗ | 6.0 | 800 | 500 / 500 / 200 | 700 |',
    );
    expect(renderKeepAliveMedians([storeResult()])).toBeUndefined();
  });
});
