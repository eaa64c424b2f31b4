// The benchmark's pure parts. Nothing here times anything: the inputs are made-up figures.
import { describe, expect, it } from 'vitest';
import { parseServerTiming, percentile, summarize } from '../../bench/stats.js';

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
