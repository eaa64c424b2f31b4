import { describe, expect, test } from 'vitest';
import { duration, eta, formatProgress } from '../../../src/load/progress.js';

describe('progress lines', () => {
  test('ETA: the time left at the same pace; unknown before any progress', () => {
    expect(eta(10, 0.25)).toBe(30);
    expect(eta(10, 1)).toBe(0);
    expect(eta(10, 0)).toBeUndefined();
  });

  test('durations read as s, min, h', () => {
    expect([duration(4.4), duration(65), duration(3_725), duration(-1)]).toEqual([
      '4 s',
      '1 min 05 s',
      '1 h 02 min',
      '0 s',
    ]);
  });

  test('checking: by bytes read; loading: triples stored of those counted, triples/s; moving and dropping: time so far', () => {
    expect(
      formatProgress({
        phase: 'checking',
        file: 'a.nt',
        triples: 50_000,
        bytes: 10_000_000,
        totalBytes: 40_000_000,
        seconds: 5,
      }),
    ).toBe('checking a.nt: 50000 triples parsed, 25% of 40.0 MB read, 10000 triples/s, ETA 15 s');
    expect(formatProgress({ phase: 'loading', file: 'a.nt', triples: 30_000, totalTriples: 120_000, seconds: 6 })).toBe(
      'loading a.nt: 30000 of 120000 triples (25%), 5000 triples/s, ETA 18 s',
    );
    expect(formatProgress({ phase: 'loading', file: 'a.nt', triples: 0, totalTriples: 120_000, seconds: 0 })).toBe(
      'loading a.nt: 0 of 120000 triples (0%), 0 triples/s, ETA ?',
    );
    expect(formatProgress({ phase: 'moving', triples: 5, graphs: ['<http://g>'], seconds: 0.4 })).toBe(
      'moving 5 staged triples into <http://g>',
    );
    expect(formatProgress({ phase: 'moving', triples: 5, graphs: ['<a>', '<b>'], seconds: 0 })).toBe(
      'moving 5 staged triples into 2 graphs',
    );
    expect(formatProgress({ phase: 'moving', triples: 5, graphs: ['<a>'], seconds: 65 })).toBe(
      'moving 5 staged triples into <a>: 1 min 05 s so far',
    );
    expect(formatProgress({ phase: 'dropping', graphs: ['<urn:s>'], seconds: 5 })).toBe(
      'dropping the staging graph <urn:s>: 5 s so far',
    );
  });
});
