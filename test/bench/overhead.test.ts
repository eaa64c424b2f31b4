import { describe, expect, it } from 'vitest';
import { overhead } from '../../bench/overhead.js';
import type { ShapeResult } from '../../bench/results.js';
import { latency, measured } from './results-fixtures.js';

type Ok = Extract<ShapeResult, { status: 'ok' }>;
const shape = (key: string, server: number, floor: number, queries = 1) => measured(key, server, floor, queries) as Ok;

describe('overhead', () => {
  it('divides the server p50 by the floor p50 plus the hop, and gives the added time', () => {
    const found = overhead(shape('collection', 26, 24), latency(0.5));
    expect(found?.hopRatio).toBeCloseTo(26 / 24.5, 10);
    expect(found?.addedMs).toBe(2);
    expect(found?.budgetMs).toBeUndefined(); // a list page has no added-time budget
  });

  it('budgets the added time of the one-query shapes at the hop plus 0.3 ms', () => {
    for (const key of ['single', 'related', 'relationship'])
      expect(overhead(shape(key, 2, 1.2), latency(0.45))?.budgetMs).toBeCloseTo(0.75, 10);
  });

  it('no ratio without a hop figure; nothing for a shape that sent no query', () => {
    expect(overhead(shape('single', 2, 1.5), undefined)).toEqual({ addedMs: 0.5 });
    expect(overhead(shape('relationship', 1, 0.001, 0), latency(0.5))).toBeUndefined();
  });
});
