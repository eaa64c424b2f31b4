import { describe, expect, it } from 'vitest';
import { groupWaves, type RecordedQuery } from '../../bench/recording-store.js';

describe('groupWaves', () => {
  const q = (query: string, start: number, end: number): RecordedQuery => ({ query, lane: 'heavy', start, end });
  /** The waves' query texts. */
  const texts = (queries: RecordedQuery[]) => groupWaves(queries).map((wave) => wave.map(({ query }) => query));

  it('puts queries sent side by side in one wave, and a later one in the next', () => {
    // list and count go out together; the fetch starts once both have answered.
    expect(texts([q('list', 0, 10), q('count', 0.1, 6), q('fetch', 10.5, 14)])).toEqual([['list', 'count'], ['fetch']]);
  });

  it('orders by start time, not by when the query was logged (which is when it ended)', () => {
    expect(texts([q('count', 1, 3), q('fetch', 12, 14), q('list', 0, 10)])).toEqual([['list', 'count'], ['fetch']]);
  });

  it('chains overlaps: a query that starts while any query of the wave runs belongs to it', () => {
    expect(texts([q('a', 0, 5), q('b', 4, 9), q('c', 8, 10)])).toEqual([['a', 'b', 'c']]);
  });

  it('keeps strictly sequential queries apart, and gives no wave for no query', () => {
    expect(texts([q('a', 0, 5), q('b', 5, 9)])).toEqual([['a'], ['b']]);
    expect(texts([])).toEqual([]);
  });

  it("keeps each query's lane, which the floor sends it in", () => {
    const light: RecordedQuery = { query: 'fetch', lane: 'light', start: 0, end: 2 };
    expect(groupWaves([q('list', 0, 1), light])).toEqual([
      [
        { query: 'list', lane: 'heavy' },
        { query: 'fetch', lane: 'light' },
      ],
    ]);
  });
});
