import { describe, expect, it } from 'vitest';
import { evaluateTargets } from '../../bench/targets.js';
import { measured, storeResult } from './results-fixtures.js';

describe('evaluateTargets', () => {
  const status = (rows: ReturnType<typeof evaluateTargets>, prefix: string) =>
    rows.find((r) => r.target.startsWith(prefix))?.status;

  it('judges the targets in their scope (Virtuoso, 1M)', () => {
    const rows = evaluateTargets(storeResult());
    expect(status(rows, 'SPARQL queries')).toBe('met');
    expect(status(rows, 'server p50 ÷ floor p50')).toBe('met'); // worst 2.2 / 2 = 1.1
    expect(status(rows, 'single resource, 10 connections')).toBe('met'); // 800 ≥ 0.8 × 1000
    expect(status(rows, 'deep page')).toBe('met'); // 10 ≤ 0.5 × 40
    expect(status(rows, 'repeated identical request')).toBe('n/a');
    expect(rows.find((r) => r.target.startsWith('repeated'))?.figure).toBe('the server refused it');
  });

  it('reports misses, and puts figures outside the scope in parentheses', () => {
    const slow = storeResult({ shapes: [measured('single', 3, 2, 4, 3)] });
    expect(status(evaluateTargets(slow), 'server p50 ÷ floor p50')).toBe('missed');
    expect(status(evaluateTargets(slow), 'SPARQL queries')).toBe('missed');
    const elsewhere = evaluateTargets(storeResult({ size: '100k', shapes: [measured('single', 3, 2)] }));
    expect(status(elsewhere, 'server p50 ÷ floor p50')).toBe('(missed)');
    expect(status(elsewhere, 'deep page')).toBe('n/a');
  });

  it('a shape that sent no query (a list from the window cache) has no floor: left out of the ratio', () => {
    const cached = storeResult({ shapes: [measured('single', 2.2, 2), measured('relationship', 1.2, 0.001, 0)] });
    expect(evaluateTargets(cached).find((r) => r.target.startsWith('server p50 ÷ floor p50'))?.figure).toBe(
      'worst 1.10 (single)',
    );
  });

  it('checks the embedded store’s own targets on the embedded store only', () => {
    const embedded = evaluateTargets(storeResult({ store: 'embedded', loadMs: 16_000 }));
    expect(status(embedded, 'loads in')).toBe('missed');
    expect(status(embedded, 'RSS')).toBe('met');
    expect(status(embedded, 'a slow sort')).toBe('missed'); // p95 +56 ms
    expect(status(evaluateTargets(storeResult()), 'loads in')).toBeUndefined();
  });
});
