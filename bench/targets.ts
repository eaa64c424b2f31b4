import { compareKeepAlive } from './keep-alive-report.js';
import { ADDED_TIME_SLACK_MS, HOP_RATIO_TARGET, overhead } from './overhead.js';
import type { ShapeResult, StoreResult } from './results.js';

/** One target of issue 5 or 27, as this run measured it. */
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
const ms2 = (value: number) => `${value.toFixed(2)} ms`;
/** Why a target on the server's overhead has no figure: no shape sent a query, or the run has no hop figure. */
const noHop = (result: StoreResult, measured: readonly Ok[]) =>
  measured.every((s) => s.sequential.queries.max === 0)
    ? 'no shape measured'
    : result.hop === undefined
      ? 'no bare hop figure'
      : 'no shape with a budget';
const GB = 1024 ** 3;

/**
 * Checks one store's figures against the targets of issues 5 and 27. Targets are reported, never asserted:
 * a row outside its scope (another store or size) is shown in parentheses as an indication.
 *
 * @example evaluateTargets(result).filter((row) => row.status === 'missed')
 */
export function evaluateTargets(result: StoreResult): TargetRow[] {
  const rows: TargetRow[] = [];
  const inScope = (store: string | undefined, sizes: readonly string[] | undefined) =>
    (store === undefined || store === result.store) && (sizes === undefined || sizes.includes(result.size));
  const add = (
    target: string,
    scope: { store?: string; sizes?: readonly string[]; label: string },
    figure: string,
    met: boolean | undefined,
  ) => {
    const word = met === undefined ? 'n/a' : met ? 'met' : 'missed';
    rows.push({
      target,
      scope: scope.label,
      figure,
      status: met === undefined || inScope(scope.store, scope.sizes) ? word : `(${word})`,
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

  // What the server adds, against the bare HTTP hop (`overhead.ts`); a shape served with no query
  // at all (a list from the window cache) has no floor to compare with.
  const virtuoso = { store: 'virtuoso', sizes: ['100k', '1m'], label: 'Virtuoso, 100k and 1M' };
  const overheads = measured.flatMap((shape) => {
    const found = overhead(shape, result.hop);
    return found ? [{ label: shape.label, ...found }] : [];
  });
  const ratios = overheads.flatMap(({ label, hopRatio }) => (hopRatio === undefined ? [] : [{ label, hopRatio }]));
  const worst = ratios.reduce<(typeof ratios)[number] | undefined>(
    (w, r) => (w === undefined || r.hopRatio > w.hopRatio ? r : w),
    undefined,
  );
  add(
    `server p50 ÷ (floor p50 + bare hop p50) ≤ ${HOP_RATIO_TARGET}, every shape`,
    virtuoso,
    worst ? `worst ${worst.hopRatio.toFixed(2)} (${worst.label})` : noHop(result, measured),
    worst && worst.hopRatio <= HOP_RATIO_TARGET,
  );
  const budgeted = overheads.flatMap(({ label, addedMs, budgetMs }) =>
    budgetMs === undefined ? [] : [{ label, addedMs, budgetMs }],
  );
  add(
    `server p50 − floor p50 ≤ bare hop p50 + ${ADDED_TIME_SLACK_MS} ms (single, related, linkage)`,
    virtuoso,
    budgeted.length === 0
      ? noHop(result, measured)
      : budgeted
          .map((b) => `${b.label} ${ms2(b.addedMs)}${b.addedMs > b.budgetMs ? ` > ${ms2(b.budgetMs)}` : ''}`)
          .join('; '),
    budgeted.length === 0 ? undefined : budgeted.every((b) => b.addedMs <= b.budgetMs),
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
    { store: 'virtuoso', sizes: ['1m'], label: 'Virtuoso, 1M' },
    both
      ? `${Math.round(both.server)} vs ${Math.round(both.floor)} req/s (× ${(both.server / both.floor).toFixed(2)})`
      : 'n/a',
    both ? both.server >= 0.8 * both.floor : undefined,
  );

  const embedded1m = { store: 'embedded', sizes: ['1m'], label: 'embedded, 1M' };
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
    { store: 'virtuoso', sizes: ['1m'], label: 'Virtuoso, offset 10,000 (1M)' },
    offset && cursor
      ? `${ms(cursor.sequential.server.p50)} vs ${ms(offset.sequential.server.p50)} (× ${(cursor.sequential.server.p50 / offset.sequential.server.p50).toFixed(2)})`
      : `n/a${cursor ? '' : ': no cursor figure'}`,
    offset && cursor ? cursor.sequential.server.p50 <= 0.5 * offset.sequential.server.p50 : undefined,
  );
  keepAliveTargets(result, add);
  return rows;
}

/** A 1.3 spread at most between autocannon's and the keep-alive client's single-resource req/s (issue 40). */
export const CLIENT_SPREAD_TARGET = 1.3;
/** The server's own CPU per single resource under the keep-alive client (issue 40), µs. */
export const SINGLE_CPU_TARGET_US = 300;

/** Issue 40's targets, under the keep-alive client: this ÷ peer per shape, the two clients' spread, the server's CPU. */
function keepAliveTargets(
  result: StoreResult,
  add: (
    target: string,
    scope: { store?: string; sizes?: readonly string[]; label: string },
    figure: string,
    met: boolean | undefined,
  ) => void,
): void {
  const compared = compareKeepAlive(result);
  if (compared.length === 0) return;
  const virtuoso = { store: 'virtuoso', sizes: ['100k', '1m'], label: 'Virtuoso, 100k and 1M' };
  const rated = compared.filter((c) => c.ratio !== undefined && c.target !== undefined);
  const misses = rated.filter((c) => c.ratio! < c.target!);
  const dated = rated.some((c) => !('na' in c.peer) && c.peer.source === 'dated');
  add(
    `keep-alive client: this ÷ peer req/s ≥ 2 single, ≥ 3 list shapes, ≥ 1.5 the rest${dated ? ' (the peer’s dated figures)' : ''}`,
    virtuoso,
    rated.length === 0
      ? 'no peer figure'
      : misses.length === 0
        ? `all ${rated.length} shapes met`
        : misses.map((c) => `${c.label} ${c.ratio!.toFixed(2)} < ${c.target}`).join('; '),
    rated.length === 0 ? undefined : misses.length === 0,
  );
  const single = compared.find((c) => c.key === 'single');
  const spread =
    single?.autocannon === undefined
      ? undefined
      : Math.max(single.autocannon, single.ours.loop.requestsPerSecond) /
        Math.min(single.autocannon, single.ours.loop.requestsPerSecond);
  add(
    `single resource: autocannon and keep-alive req/s within ${CLIENT_SPREAD_TARGET}× of each other`,
    virtuoso,
    spread === undefined
      ? 'n/a: needs both clients'
      : `${Math.round(single!.autocannon!)} vs ${Math.round(single!.ours.loop.requestsPerSecond)} req/s (${spread.toFixed(2)}×)`,
    spread === undefined ? undefined : spread <= CLIENT_SPREAD_TARGET,
  );
  const cpu = single?.ours.cpu?.server;
  add(
    `server CPU per single resource ≤ ${SINGLE_CPU_TARGET_US / 1000} ms (keep-alive client)`,
    { store: 'virtuoso', sizes: ['100k'], label: 'Virtuoso, 100k' },
    cpu === undefined ? 'n/a' : `${Math.round(cpu)} µs`,
    cpu === undefined ? undefined : cpu <= SINGLE_CPU_TARGET_US,
  );
}
