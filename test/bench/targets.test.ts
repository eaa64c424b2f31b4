import { describe, expect, it } from 'vitest';
import { evaluateTargets } from '../../bench/targets.js';
import { measured, storeResult } from './results-fixtures.js';

describe('evaluateTargets', () => {
  const status = (rows: ReturnType<typeof evaluateTargets>, prefix: string) =>
    rows.find((r) => r.target.startsWith(prefix))?.status;

  it('judges the targets in their scope (Virtuoso, 1M)', () => {
    const rows = evaluateTargets(storeResult());
    expect(status(rows, 'SPARQL queries')).toBe('met');
    expect(status(rows, 'server p50 ÷ (floor p50 + bare hop p50)')).toBe('met'); // worst 40 / 38.5 = 1.04
    expect(status(rows, 'server p50 − floor p50')).toBe('met'); // single: 0.2 ms ≤ 0.5 + 0.3
    expect(status(rows, 'single resource, 10 connections')).toBe('met'); // 800 ≥ 0.8 × 1000
    expect(status(rows, 'deep page')).toBe('met'); // 10 ≤ 0.5 × 40
    expect(status(rows, 'repeated identical request')).toBe('n/a');
    expect(rows.find((r) => r.target.startsWith('repeated'))?.figure).toBe('the server refused it');
  });

  it('reports misses, and puts figures outside the scope in parentheses', () => {
    const slow = storeResult({ shapes: [measured('single', 4, 2, 4, 3)] });
    expect(status(evaluateTargets(slow), 'server p50 ÷ (floor p50 + bare hop p50)')).toBe('missed'); // 4 / 2.5
    expect(status(evaluateTargets(slow), 'SPARQL queries')).toBe('missed');
    const elsewhere = evaluateTargets(storeResult({ size: '10k', shapes: [measured('single', 4, 2)] }));
    expect(status(elsewhere, 'server p50 ÷ (floor p50 + bare hop p50)')).toBe('(missed)');
    expect(status(elsewhere, 'deep page')).toBe('n/a');
    // 100k is in the scope of the overhead targets, not of the others.
    const at100k = evaluateTargets(storeResult({ size: '100k', shapes: [measured('single', 4, 2)] }));
    expect(status(at100k, 'server p50 ÷ (floor p50 + bare hop p50)')).toBe('missed');
    expect(status(at100k, 'single resource, 10 connections')).toBe('(met)');
  });

  it('the added time: within the ratio, over its budget on a shape that has one', () => {
    // 3 / (2 + 0.5) = 1.2 is within 1.3, but 1 ms added is over 0.5 + 0.3.
    const rows = evaluateTargets(storeResult({ shapes: [measured('related', 3, 2), measured('collection', 30, 28)] }));
    expect(status(rows, 'server p50 ÷ (floor p50 + bare hop p50)')).toBe('met');
    expect(status(rows, 'server p50 − floor p50')).toBe('missed');
    expect(rows.find((r) => r.target.startsWith('server p50 − floor p50'))?.figure).toBe('related 1.00 ms > 0.80 ms');
  });

  it('without a bare hop figure (an older run) the overhead targets are n/a', () => {
    const rows = evaluateTargets(storeResult({ hop: undefined }));
    expect(status(rows, 'server p50 ÷ (floor p50 + bare hop p50)')).toBe('n/a');
    expect(rows.find((r) => r.target.startsWith('server p50 − floor p50'))?.figure).toBe('no bare hop figure');
  });

  it('a shape that sent no query (a list from the window cache) has no floor: left out of the ratio', () => {
    const cached = storeResult({ shapes: [measured('single', 2.2, 2), measured('relationship', 1.2, 0.001, 0)] });
    const rows = evaluateTargets(cached);
    expect(rows.find((r) => r.target.startsWith('server p50 ÷ (floor p50 + bare hop p50)'))?.figure).toBe(
      'worst 0.88 (single)',
    );
    expect(rows.find((r) => r.target.startsWith('server p50 − floor p50'))?.figure).toBe('single 0.20 ms');
  });

  it('checks the embedded store’s own targets on the embedded store only', () => {
    const embedded = evaluateTargets(storeResult({ store: 'embedded', loadMs: 16_000 }));
    expect(status(embedded, 'loads in')).toBe('missed');
    expect(status(embedded, 'RSS')).toBe('met');
    expect(status(embedded, 'a slow sort')).toBe('missed'); // p95 +56 ms
    expect(status(evaluateTargets(storeResult()), 'loads in')).toBeUndefined();
  });
});
