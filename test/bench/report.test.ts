import { describe, expect, it } from 'vitest';
import { markdownTable, renderRun, storeTable } from '../../bench/report.js';
import type { ShapeResult } from '../../bench/results.js';
import { measured, storeResult } from './results-fixtures.js';

describe('markdown report', () => {
  it('markdownTable escapes pipes and newlines so a cell stays a cell', () => {
    expect(markdownTable(['a', 'b'], [['x|y', 'two\nlines']])).toBe('| a | b |\n| --- | --- |\n| x\\|y | two lines |');
  });

  it('storeTable: one row per shape, server ÷ (floor + hop), the added time, n/a with its reason, ✗ over the query budget', () => {
    const table = storeTable(
      storeResult({ shapes: [measured('single', 3, 2), measured('include', 5, 5, 5, 4), storeResult().shapes[3]!] }),
      [10, 50],
    );
    const rows = table.split('\n');
    expect(rows).toHaveLength(2 + 3);
    expect(rows[2]).toBe(
      '| single | 2 (≤ 3) | 3.0 / 6.0 | 2.0 / 4.0 | 1.20 | 1.00 (≤ 0.80) ✗ | 2.0 | 800 (3.0/12.0) | 900 (3.0/12.0) | 1000 |',
    );
    // A shape without an added-time budget shows what it adds, with no budget.
    expect(rows[3]).toContain('| 5 (≤ 4) ✗ | 5.0 / 10.0 | 5.0 / 10.0 | 0.91 | 0.00 |');
    expect(rows[4]).toMatch(/^\| filtered \| n\/a: HTTP 400: not \\\| supported \|/);
  });

  it('storeTable: no ratio for a shape that sent no query (its floor replays nothing), nor without a hop figure', () => {
    const table = storeTable(storeResult({ shapes: [measured('relationship', 1.2, 0.001, 0)] }), [10]);
    expect(table.split('\n')[2]).toContain('| – (no query) | – |');
    const noHop = storeTable(storeResult({ hop: undefined, shapes: [measured('related', 2.5, 2)] }), [10]);
    expect(noHop.split('\n')[2]).toContain('| – (no hop) | 0.50 |');
  });

  it('storeTable: a run skipped as too slow, and failures by status code', () => {
    const shape = measured('sorted', 5000, 4900) as Extract<ShapeResult, { status: 'ok' }>;
    const slow: ShapeResult = {
      ...shape,
      concurrent: [
        {
          connections: 10,
          requestsPerSecond: 1.5,
          p50: 6000,
          p99: 9000,
          completed: 15,
          failed: 3,
          failures: { '502': 2, timeouts: 1 },
        },
        { connections: 50, skipped: 'too slow' },
      ],
      floorConcurrent: { connections: 10, skipped: 'too slow' },
    };
    expect(storeTable(storeResult({ shapes: [slow] }), [10, 50]).split('\n')[2]).toMatch(
      /\| 2 \(6000\.0\/9000\.0\) ⚠ 3 failed \(502: 2, timeouts: 1\) \| skipped: too slow \| skipped: too slow \|$/,
    );
  });

  it('renderRun: the load generator’s CPU per single-resource request, where the run measured it', () => {
    const single = measured('single', 3, 2) as Extract<ShapeResult, { status: 'ok' }>;
    const withClient: ShapeResult = {
      ...single,
      concurrent: single.concurrent.map((c, i) => (i === 0 ? { ...c, clientCpuMs: 0.1234 } : c)),
    };
    const run = (shapes: ShapeResult[]) =>
      renderRun({
        date: '2025-01-02T03:04:05.000Z',
        machine: { cpu: 'Test CPU', cores: 2, memoryBytes: 2 ** 34, os: 'Linux', node: 'v20.0.0', commit: 'abc1234' },
        size: '1m',
        smoke: false,
        settings: { durationSeconds: 10, iterations: 200, connections: [10, 50], serverProcess: 'child' },
        stores: [storeResult({ shapes })],
        loadAverage: { start: 0.5, end: 1.5 },
        skipped: [],
      });
    expect(run([withClient])).toContain(
      '| the load generator’s CPU per request (single resource) | 0.123 ms at 10 conn |',
    );
    expect(run([single])).not.toContain('the load generator’s CPU');
  });
});
