/**
 * The ledger of changes: a reading is fresh until something it read changes, and a ledger that
 * had to forget old changes (its bound) counts the readings that may have read them as stale.
 */
import { describe, expect, it } from 'vitest';
import { Freshness } from '../../../src/execute/freshness.js';

const reading = (stamp: number, reads: string[]) => ({ dataset: 'd', reads, stamp });

describe('Freshness', () => {
  it('a change to what a reading read makes it stale; to anything else, not', () => {
    const freshness = new Freshness();
    const stamp = freshness.now();
    freshness.changed('d', ['p <a>']);
    expect(freshness.fresh(reading(stamp, ['p <b>']))).toBe(true);
    expect(freshness.fresh(reading(stamp, ['p <a>']))).toBe(false);
    expect(freshness.fresh(reading(freshness.now(), ['p <a>']))).toBe(true);
    expect(freshness.fresh({ ...reading(stamp, ['p <a>']), dataset: 'other' })).toBe(true);
  });

  it('past its bound, it forgets its older half: readings older than those changes are stale, newer ones are not', () => {
    const freshness = new Freshness(4);
    const first = freshness.now();
    freshness.changed('d', ['k1', 'k2']);
    const second = freshness.now();
    freshness.changed('d', ['k3']);
    const third = freshness.now();
    freshness.changed('d', ['k1']); // k1 changes again: now the newest
    const fourth = freshness.now();
    freshness.changed('d', ['k4', 'k5']); // 5 keys: down to 2, the oldest first (k2, k3, then k1 as of its last change)
    // A reading of an untouched key is stale if it started before a forgotten change.
    for (const stamp of [first, second, third]) expect(freshness.fresh(reading(stamp, ['untouched']))).toBe(false);
    expect(freshness.fresh(reading(fourth, ['untouched', 'k1', 'k2', 'k3']))).toBe(true);
    // The kept changes still count.
    expect(freshness.fresh(reading(fourth, ['k5']))).toBe(false);
    expect(freshness.fresh(reading(freshness.now(), ['k5']))).toBe(true);
  });
});
