import type { ShapeResult, StoreResult } from './results.js';

/** One target of issue 5, as this run measured it. */
export interface TargetRow {
  readonly target: string;
  /** Where the issue states the target (`Virtuoso, 1M`); elsewhere the row is indicative. */
  readonly scope: string;
  readonly figure: string;
  /** `met`/`missed` in scope, `(met)`/`(missed)` outside it, `n/a` without a figure. */
  readonly status: string;
}

type Ok = Extract<ShapeResult, { status: 'ok' }>;
const ok = (result: StoreResult, key: string): Ok | undefined => {
  const shape = result.shapes.find((s) => s.key === key);
  return shape?.status === 'ok' ? shape : undefined;
};
const ms = (value: number) => `${value.toFixed(1)} ms`;
const GB = 1024 ** 3;

/**
 * Checks one store's figures against the targets of issue 5. Targets are reported, never asserted:
 * a row outside its scope (another store or size) is shown in parentheses as an indication.
 *
 * @example evaluateTargets(result).filter((row) => row.status === 'missed')
 */
export function evaluateTargets(result: StoreResult): TargetRow[] {
  const rows: TargetRow[] = [];
  const inScope = (store: string | undefined, size: string | undefined) =>
    (store === undefined || store === result.store) && (size === undefined || size === result.size);
  const add = (
    target: string,
    scope: { store?: string; size?: string; label: string },
    figure: string,
    met: boolean | undefined,
  ) => {
    const word = met === undefined ? 'n/a' : met ? 'met' : 'missed';
    rows.push({
      target,
      scope: scope.label,
      figure,
      status: met === undefined || inScope(scope.store, scope.size) ? word : `(${word})`,
    });
  };
  const measured = result.shapes.filter((s): s is Ok => s.status === 'ok');

  const over = measured.filter((s) => s.sequential.queries.max > s.queryBudget);
  add(
    'SPARQL queries per request ≤ 2 (+1 count, +1 per include level)',
    { label: 'every store and size' },
    measured.length === 0
      ? 'no shape measured'
      : over.length === 0
        ? `all ${measured.length} shapes within budget`
        : over.map((s) => `${s.label}: ${s.sequential.queries.max} > ${s.queryBudget}`).join('; '),
    measured.length === 0 ? undefined : over.length === 0,
  );

  // A shape served with no query at all (a list from the window cache) has no floor to compare with.
  const ratios = measured
    .filter((s) => s.sequential.queries.max > 0)
    .map((s) => ({ label: s.label, ratio: s.sequential.server.p50 / s.sequential.floor.p50 }));
  const worst = ratios.reduce<(typeof ratios)[number] | undefined>(
    (w, r) => (w === undefined || r.ratio > w.ratio ? r : w),
    undefined,
  );
  add(
    'server p50 ÷ floor p50 ≤ 1.2, every shape',
    { store: 'virtuoso', size: '1m', label: 'Virtuoso, 1M' },
    worst ? `worst ${worst.ratio.toFixed(2)} (${worst.label})` : 'no shape measured',
    worst && worst.ratio <= 1.2,
  );

  const single = ok(result, 'single');
  const floorRun = single?.floorConcurrent;
  const serverRun = single?.concurrent.find((c) => c.connections === floorRun?.connections);
  const both =
    floorRun && serverRun && !('skipped' in floorRun) && !('skipped' in serverRun)
      ? { server: serverRun.requestsPerSecond, floor: floorRun.requestsPerSecond }
      : undefined;
  add(
    `single resource, ${floorRun?.connections ?? 10} connections ≥ 0.8 × the store's throughput`,
    { store: 'virtuoso', size: '1m', label: 'Virtuoso, 1M' },
    both
      ? `${Math.round(both.server)} vs ${Math.round(both.floor)} req/s (× ${(both.server / both.floor).toFixed(2)})`
      : 'n/a',
    both ? both.server >= 0.8 * both.floor : undefined,
  );

  const embedded1m = { store: 'embedded', size: '1m', label: 'embedded, 1M' };
  if (result.store === 'embedded') {
    add(
      'loads in ≤ 15 s',
      embedded1m,
      `${(result.loadMs / 1000).toFixed(1)} s`,
      Number.isFinite(result.loadMs) ? result.loadMs <= 15_000 : undefined,
    );
    add(
      'RSS ≤ 1.2 GB',
      embedded1m,
      `peak ${(result.memory.peak / GB).toFixed(2)} GB`,
      Number.isFinite(result.memory.peak) ? result.memory.peak <= 1.2 * GB : undefined,
    );
  }
  const slow = result.interference;
  add(
    'a slow sort delays a concurrent single-resource request by ≤ 20 ms (p95)',
    embedded1m,
    'na' in slow
      ? slow.na
      : `p95 ${ms(slow.alone.p95)} alone, ${ms(slow.withSlow.p95)} beside the sort: +${ms(slow.delayP95)}`,
    'na' in slow ? undefined : slow.delayP95 <= 20,
  );

  const cache = result.cache;
  add(
    'repeated identical request, cache on ≥ 5,000 req/s',
    { label: 'any store (2 cores)' },
    'na' in cache ? cache.na : `${Math.round(cache.requestsPerSecond)} req/s`,
    'na' in cache ? undefined : cache.requestsPerSecond >= 5000,
  );

  const offset = ok(result, 'deep-offset');
  const cursor = ok(result, 'deep-cursor');
  add(
    'deep page: cursor p50 ≤ 0.5 × offset p50',
    { store: 'virtuoso', size: '1m', label: 'Virtuoso, offset 10,000 (1M)' },
    offset && cursor
      ? `${ms(cursor.sequential.server.p50)} vs ${ms(offset.sequential.server.p50)} (× ${(cursor.sequential.server.p50 / offset.sequential.server.p50).toFixed(2)})`
      : `n/a${cursor ? '' : ': no cursor figure'}`,
    offset && cursor ? cursor.sequential.server.p50 <= 0.5 * offset.sequential.server.p50 : undefined,
  );
  return rows;
}
