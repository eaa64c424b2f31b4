import { describe, expect, it } from 'vitest';
import { compareKeepAlive, cpuRows, keepAliveCaption, keepAliveRows } from '../../bench/keep-alive-report.js';
import { renderRun } from '../../bench/report.js';
import type { KeepAliveFigures, RunResult, ShapeResult } from '../../bench/results.js';
import { evaluateTargets } from '../../bench/targets.js';
import { latency, measured, storeResult } from './results-fixtures.js';

const figures = (rps: number, p50: number, cpu?: Record<string, number>): KeepAliveFigures => ({
  sequential: latency(p50),
  loop: { connections: 10, seconds: 4, requestsPerSecond: rps, p50, p99: p50 * 3, completed: rps * 4, failed: 0 },
  ...(cpu && { cpu }),
});
const withKeepAlive = (
  shape: ShapeResult,
  keepAlive: NonNullable<Extract<ShapeResult, { status: 'ok' }>['keepAlive']>,
) => ({ ...shape, keepAlive }) as ShapeResult;
const LIVE = { command: './start {port}' };

describe('the keep-alive figures beside the peer', () => {
  it('sets each shape beside the running peer: this ÷ peer against its target, and autocannon beside', () => {
    const result = storeResult({
      size: '100k',
      peer: LIVE,
      shapes: [
        withKeepAlive(measured('single', 3, 2), {
          server: figures(400, 6, { server: 900, store: 600, peer: 5, client: 300 }),
          peer: figures(350, 6.5, { server: 4, store: 1100, peer: 700, client: 280 }),
          first: 'peer',
        }),
        withKeepAlive(measured('collection', 10, 9), {
          server: figures(300, 9),
          peer: figures(80, 60),
          first: 'server',
        }),
        withKeepAlive(measured('deep-cursor', 10, 9), {
          server: figures(200, 9),
          peer: { na: 'mu-cl-resources has no cursor pages' },
          first: 'server',
        }),
      ],
    });
    const [single, collection, cursor] = compareKeepAlive(result);
    expect(single).toMatchObject({ ratio: 400 / 350, target: 2, autocannon: 800, peer: { source: 'live' } });
    expect(collection).toMatchObject({ ratio: 300 / 80, target: 3 });
    expect(cursor).toMatchObject({
      ratio: undefined,
      target: undefined,
      peer: { na: 'mu-cl-resources has no cursor pages' },
    });
    const { rows } = keepAliveRows(result);
    expect(rows[0]).toEqual(['single', '6.0', '400', '6.5', '350', '1.14 (≥ 2) ✗', '800', '0.50']);
    expect(rows[1]![5]).toBe('3.75 (≥ 3) ✓');
    expect(rows[2]![3]).toBe('n/a: mu-cl-resources has no cursor pages');
    // The peer's loop ran first on the single resource, so its row comes first.
    expect(cpuRows(result).rows.slice(0, 2)).toEqual([
      ['single', 'peer', '350', '4', '1100', '700', '280'],
      ['single', 'this server', '400', '900', '600', '5', '300'],
    ]);
  });

  it('without a peer, takes the peer’s dated keep-alive figures at this store and size, and says so', () => {
    const shapes = [
      withKeepAlive(measured('single', 3, 2), { server: figures(981, 6), peer: { na: 'no peer' }, first: 'server' }),
    ];
    const result = storeResult({ size: '100k', peer: { na: 'no peer: BENCH_PEER is not set' }, shapes });
    const [single] = compareKeepAlive(result);
    expect(single?.peer).toMatchObject({ source: 'dated', figures: { requestsPerSecond: 654, p50: 6.4 } });
    expect(single?.ratio).toBeCloseTo(981 / 654, 9);
    expect(keepAliveRows(result).rows[0]!.slice(3, 5)).toEqual(['6.4 (dated)', '654 (dated)']);
    expect(keepAliveCaption(result)).toContain('No peer ran (no peer: BENCH_PEER is not set)');
    // At 10k the peer was never measured: no figure, and why.
    const at10k = compareKeepAlive(
      storeResult({ size: '10k', peer: { na: 'no peer: BENCH_PEER is not set' }, shapes }),
    );
    expect(at10k[0]?.peer).toEqual({ na: 'no peer: BENCH_PEER is not set' });
  });

  it('reports issue 40’s targets: this ÷ peer, the two clients’ spread, the server’s CPU per single resource', () => {
    const result = storeResult({
      size: '100k',
      peer: LIVE,
      shapes: [
        withKeepAlive(measured('single', 3, 2), {
          server: figures(700, 6, { server: 450, store: 600, peer: 5, client: 300 }),
          peer: figures(650, 6.5),
          first: 'server',
        }),
        withKeepAlive(measured('related', 5, 4), { server: figures(700, 5), peer: figures(350, 9), first: 'peer' }),
      ],
    });
    const rows = evaluateTargets(result);
    const row = (start: string) => rows.find((r) => r.target.startsWith(start))!;
    expect(row('keep-alive client: this ÷ peer')).toMatchObject({ figure: 'single 1.08 < 2', status: 'missed' });
    expect(row('single resource: autocannon and keep-alive')).toMatchObject({
      figure: '800 vs 700 req/s (1.14×)',
      status: 'met',
    });
    expect(row('server CPU per single resource')).toMatchObject({ figure: '450 µs', status: 'missed' });
    // A run without keep-alive figures (an older file) has none of these rows.
    expect(evaluateTargets(storeResult()).some((r) => r.target.startsWith('keep-alive'))).toBe(false);
  });

  it('renders an older result file (no keep-alive figures, no loader) as before, and a new one with both tables', () => {
    const run = (stores: RunResult['stores']): RunResult => ({
      date: '2026-12-01T20:00:00.000Z',
      machine: { cpu: 'cpu', cores: 2, memoryBytes: 2 ** 33, os: 'linux', node: 'v20', commit: 'abc' },
      size: '100k',
      smoke: false,
      settings: { durationSeconds: 5, iterations: 50, connections: [10], serverProcess: 'child' },
      stores,
      loadAverage: { start: 1, end: 1 },
      skipped: [],
    });
    const old = renderRun(run([storeResult({ size: '100k' })]));
    expect(old).toContain('bulk load 12.0 s');
    expect(old).not.toContain('front-end');
    expect(old).toContain('Beside mu-cl-resources 1.27');
    const shapes = [
      withKeepAlive(measured('single', 3, 2), {
        server: figures(700, 6, { server: 450, store: 600, client: 300 }),
        peer: figures(650, 6.5),
        first: 'server',
        peerDiffers: '/x: this server 1 members, the peer 0',
      }),
    ];
    const fresh = renderRun(run([storeResult({ size: '100k', loader: 'load', muUuids: 2032, peer: LIVE, shapes })]));
    expect(fresh).toContain('`sparql-jsonapi load` 12.0 s');
    expect(fresh).toContain("Under a front-end's client");
    expect(fresh).toContain('with 2,032 mu:uuid triples added for the peer');
    expect(fresh).toContain('⚠ single: the answers differ, /x: this server 1 members, the peer 0');
    expect(fresh).toContain('| single | this server | 700 | 450 | 600 | – | 300 |');
    // With the peer running, the dated autocannon comparison is left out.
    expect(fresh).not.toContain('Beside mu-cl-resources 1.27');
  });
});
