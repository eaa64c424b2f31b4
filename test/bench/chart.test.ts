import { expect, it } from 'vitest';
import { renderChart } from '../../bench/chart.js';
import type { RunResult } from '../../bench/results.js';
import { storeResult } from './results-fixtures.js';

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
