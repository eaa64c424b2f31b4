import type { SequentialResult } from '../../bench/measure.js';
import type { ShapeResult, StoreResult } from '../../bench/results.js';

// Made-up benchmark results for the report, targets and chart tests.

export const latency = (p50: number) => ({ samples: 100, p50, p95: p50 * 2, p99: p50 * 3, mean: p50 });
export function measured(key: string, server: number, floor: number, queries = 2, budget = 3): ShapeResult {
  const sequential: SequentialResult = {
    server: latency(server),
    floor: latency(floor),
    queries: { min: queries, max: queries, mean: queries },
    storeMs: latency(floor),
  };
  const concurrent = (connections: number, rps: number) => ({
    connections,
    requestsPerSecond: rps,
    p50: server,
    p99: server * 4,
    completed: rps * 10,
    failed: 0,
  });
  return {
    key,
    label: key,
    status: 'ok',
    rotation: 5,
    example: `/${key}`,
    waves: [queries],
    queryBudget: budget,
    sequential,
    concurrent: [concurrent(10, 800), concurrent(50, 900)],
    floorConcurrent: concurrent(10, 1000),
  };
}
export function storeResult(overrides: Partial<StoreResult> = {}): StoreResult {
  return {
    store: 'virtuoso',
    size: '1m',
    triples: 937_000,
    description: 'sparql http://127.0.0.1:1/sparql',
    loadMs: 12_000,
    memory: { afterLoad: 500 * 2 ** 20, peak: 700 * 2 ** 20 },
    shapes: [
      measured('single', 2.2, 2),
      measured('deep-offset', 40, 38),
      measured('deep-cursor', 10, 9),
      { key: 'filtered', label: 'filtered', status: 'n/a', reason: 'HTTP 400: not | supported' },
    ],
    interference: { alone: latency(2), withSlow: latency(30), slowCompleted: 3, delayP50: 28, delayP95: 56 },
    cache: { na: 'the server refused it' },
    hop: latency(0.5),
    ...overrides,
  };
}
