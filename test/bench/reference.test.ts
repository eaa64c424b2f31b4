import { describe, expect, it } from 'vitest';
import { compareWithPeer, MU_CL_RESOURCES } from '../../bench/reference.js';
import { peerTable } from '../../bench/report.js';
import { measured, storeResult } from './results-fixtures.js';

describe('mu-cl-resources reference', () => {
  it('puts each shape the peer was measured on beside its figures, with this ÷ peer at its connections', () => {
    const result = storeResult({ shapes: [measured('single', 3, 2), measured('deep-cursor', 10, 9)] });
    const [single, ...others] = compareWithPeer(result);
    expect(others).toEqual([]); // the peer has no cursor pages
    expect(single).toEqual({
      key: 'single',
      label: 'single',
      ours: { p50: 3, requestsPerSecond: 800, queries: 2 },
      peer: MU_CL_RESOURCES.shapes.single,
      throughputRatio: 800 / MU_CL_RESOURCES.shapes.single!.requestsPerSecond,
    });
    expect(peerTable(result)?.split('\n').at(-1)).toBe(
      `| single | 800 (3.0, 2) | 875 (4.7, 2) | ${(800 / 875).toFixed(2)} |`,
    );
  });

  it('compares nothing on another store or size: the peer was measured on Virtuoso at 1M triples', () => {
    const shapes = [measured('single', 3, 2)];
    expect(compareWithPeer(storeResult({ shapes, store: 'embedded' }))).toEqual([]);
    expect(compareWithPeer(storeResult({ shapes, size: '100k' }))).toEqual([]);
    expect(peerTable(storeResult({ shapes, size: '100k' }))).toBeUndefined();
  });

  it('leaves the ratio out when the run at the peer’s connections was skipped', () => {
    const shape = measured('sorted', 5000, 4900);
    const skipped = { ...shape, concurrent: [{ connections: 10, skipped: 'too slow' }] } as typeof shape;
    const [sorted] = compareWithPeer(storeResult({ shapes: [skipped] }));
    expect(sorted?.throughputRatio).toBeUndefined();
    expect(peerTable(storeResult({ shapes: [skipped] }))).toContain('| sorted | – (5000.0, 2) | 6.7 (251.0, 4) | – |');
  });
});
