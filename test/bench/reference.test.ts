import { describe, expect, it } from 'vitest';
import { compareWithPeer, fastestPeer, MU_CL_RESOURCES } from '../../bench/reference.js';
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
      peer: { requestsPerSecond: 991, p50: 3.5, queries: 2 },
      throughputRatio: 800 / 991,
    });
    expect(peerTable(result)?.split('\n').at(-1)).toBe(
      `| single | 800 (3.0, 2) | 991 (3.5, 2) | ${(800 / 991).toFixed(2)} |`,
    );
  });

  it('takes the faster of the peer’s autocannon runs at one size, shape by shape', () => {
    const at1m = MU_CL_RESOURCES.runs.filter((r) => r.size === '1m' && r.client === 'autocannon');
    expect(at1m).toHaveLength(2);
    const result = storeResult({ shapes: [measured('related', 9, 2), measured('sorted', 90, 80)] });
    for (const c of compareWithPeer(result)) {
      const fastest = Math.max(...at1m.map((r) => r.shapes[c.key]!.requestsPerSecond));
      expect(c.peer.requestsPerSecond).toBe(fastest);
    }
    expect(compareWithPeer(result).map((c) => c.peer.requestsPerSecond)).toEqual([539, 8.1]);
  });

  it('compares a 100k run with the figures taken at the seed’s scale (94k triples)', () => {
    const [single] = compareWithPeer(storeResult({ shapes: [measured('single', 3, 2)], size: '100k' }));
    expect(single?.peer).toEqual({ requestsPerSecond: 833, p50: 3.1, queries: 2 });
  });

  it('keeps the keep-alive client’s figures (issue 40) for keep-alive figures: autocannon’s are compared with autocannon’s', () => {
    expect(fastestPeer('virtuoso', '100k', 'single', 'keep-alive')?.peer).toEqual({
      requestsPerSecond: 654,
      p50: 6.4,
      queries: 2,
    });
    expect(fastestPeer('virtuoso', '1m', 'sorted-to-many', 'keep-alive')?.peer.requestsPerSecond).toBe(3.6);
    // At 100k autocannon's reference stays issue 27's, though the keep-alive run is dated later.
    expect(fastestPeer('virtuoso', '100k', 'single')?.peer.requestsPerSecond).toBe(833);
    expect(fastestPeer('virtuoso', '100k', 'deep-cursor', 'keep-alive')).toBeUndefined();
  });

  it('compares nothing on another store or size: the peer was measured on Virtuoso at 100k and 1M triples', () => {
    const shapes = [measured('single', 3, 2)];
    expect(compareWithPeer(storeResult({ shapes, store: 'embedded' }))).toEqual([]);
    expect(compareWithPeer(storeResult({ shapes, size: '10k' }))).toEqual([]);
    expect(peerTable(storeResult({ shapes, size: '10k' }))).toBeUndefined();
  });

  it('leaves the ratio out when the run at the peer’s connections was skipped', () => {
    const shape = measured('sorted', 5000, 4900);
    const skipped = { ...shape, concurrent: [{ connections: 10, skipped: 'too slow' }] } as typeof shape;
    const [sorted] = compareWithPeer(storeResult({ shapes: [skipped] }));
    expect(sorted?.throughputRatio).toBeUndefined();
    expect(peerTable(storeResult({ shapes: [skipped] }))).toContain('| sorted | – (5000.0, 2) | 8.1 (–, 4) | – |');
  });
});
