/**
 * The ledger of changes: a reading is fresh until something it read changes, and a ledger that
 * had to forget old changes (its bound) counts the readings that may have read them as stale.
 */
import { describe, expect, it } from 'vitest';
import { Freshness } from '../../../src/cache/freshness.js';

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

  describe('changedSubjects: which subjects had triples of an IRI changed since a reading', () => {
    const YEAR = 'http://example.org/year';
    const told = (iri: string, ...subjects: (string | null)[]) =>
      new Map([[iri, subjects.includes(null) ? null : new Set(subjects as string[])]]);

    it('names the subjects changed after the stamp, none before it; nothing changed is an empty answer', () => {
      const freshness = new Freshness();
      freshness.changed('d', [YEAR], told(YEAR, 'a'));
      const stamp = freshness.now();
      expect(freshness.changedSubjects('d', YEAR, stamp)).toEqual(new Set());
      freshness.changed('d', [YEAR], told(YEAR, 'b', 'c'));
      freshness.changed('d', [YEAR], told(YEAR, 'b'));
      expect(freshness.changedSubjects('d', YEAR, stamp)).toEqual(new Set(['b', 'c']));
      expect(freshness.changedSubjects('d', YEAR, 0)).toEqual(new Set(['a', 'b', 'c']));
      expect(freshness.changedSubjects('other', YEAR, 0)).toEqual(new Set());
      expect(freshness.staleReads(reading(stamp, [YEAR, 'untouched']))).toEqual([YEAR]);
    });

    it('a subject it was not told (a blank node), or an IRI changed without subjects, is unknown from then back', () => {
      const freshness = new Freshness();
      freshness.changed('d', [YEAR], told(YEAR, 'a'));
      const before = freshness.now();
      freshness.changed('d', [YEAR], told(YEAR, null));
      const after = freshness.now();
      freshness.changed('d', [YEAR], told(YEAR, 'b'));
      expect(freshness.changedSubjects('d', YEAR, before)).toBeUndefined();
      expect(freshness.changedSubjects('d', YEAR, after)).toEqual(new Set(['b']));
      freshness.changed('d', [YEAR]); // no subjects given
      expect(freshness.changedSubjects('d', YEAR, after)).toBeUndefined();
      freshness.changed('d', ['never-told']);
      expect(freshness.changedSubjects('d', 'never-told', 0)).toBeUndefined();
    });

    it('past its bound per IRI it forgets the older half: since before the forgotten changes, unknown', () => {
      const freshness = new Freshness(100_000, 4);
      const stamps: number[] = [];
      for (const subject of ['a', 'b', 'c', 'd', 'e']) {
        stamps.push(freshness.now());
        freshness.changed('d', [YEAR], told(YEAR, subject));
      }
      // 5 entries > 4: down to the newest 2 (d, e); a, b and c are forgotten.
      for (const stamp of stamps.slice(0, 3)) expect(freshness.changedSubjects('d', YEAR, stamp)).toBeUndefined();
      expect(freshness.changedSubjects('d', YEAR, stamps[3]!)).toEqual(new Set(['d', 'e']));
      expect(freshness.changedSubjects('d', YEAR, stamps[4]!)).toEqual(new Set(['e']));
    });

    it('a whole change, or the ledger forgetting changed keys, makes older readings unknown', () => {
      const freshness = new Freshness(2);
      const stamp = freshness.now();
      freshness.changed('d', [YEAR], told(YEAR, 'a'));
      freshness.changed('d', ['k1', 'k2']); // 3 keys > 2: YEAR forgotten
      expect(freshness.changedSubjects('d', YEAR, stamp)).toBeUndefined();
      expect(freshness.staleReads(reading(stamp, [YEAR]))).toBeUndefined();
      const later = freshness.now();
      freshness.changedWhole('d');
      expect(freshness.changedSubjects('d', YEAR, later)).toBeUndefined();
      expect(freshness.changedSubjects('d', YEAR, freshness.now())).toEqual(new Set());
    });
  });
});
