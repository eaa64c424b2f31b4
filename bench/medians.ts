import { compareKeepAlive } from './keep-alive-report.js';
import { HOP_RATIO_TARGET, overhead } from './overhead.js';
import { compareWithPeer, PEER_TARGETS } from './reference.js';
import { fixed, markdownTable } from './report.js';
import type { RunResult, ShapeResult, StoreResult } from './results.js';
import { median } from './stats.js';

/**
 * The cold targets of issue 27 (default settings: no response cache, no window cache), as
 * multiples of mu-cl-resources' reference throughput: every list page 3×, every other shape 1.5×
 * (`sort=concerns.label` among them).
 */
export const COLD_TARGETS: Readonly<Record<string, number>> = {
  collection: 3,
  sorted: 3,
  'deep-offset': 3,
  include: 3,
  'never-seen': 3,
  'sorted-to-many': 1.5,
  single: 1.5,
  related: 1.5,
  relationship: 1.5,
  filtered: 1.5,
};

type Ok = Extract<ShapeResult, { status: 'ok' }>;
const rate = (value: number) => fixed(value, value < 100 ? 1 : 0);
const verdict = (value: number, met: boolean) => (Number.isFinite(value) ? (met ? 'met' : '**missed**') : 'n/a');

/**
 * The medians of several runs of the shapes (`npm run bench`) on one store at one size, against
 * issue 27's done-when lines: per shape, each run's throughput and the median, its ratio to
 * mu-cl-resources' reference against {@link COLD_TARGETS}, and each run's server ÷ (floor + bare
 * hop) with the median against {@link HOP_RATIO_TARGET}. Runs of other sizes are refused: a median
 * over sizes would mean nothing.
 *
 * @example console.log(renderMedians(runs, 'virtuoso'))
 */
export function renderMedians(runs: readonly RunResult[], store: string): string {
  const results = runs.flatMap((run) => run.stores.filter((r) => r.store === store).map((result) => ({ run, result })));
  const first = results[0];
  if (first === undefined) return `no run on ${store}`;
  const sizes = new Set(results.map(({ result }) => result.size));
  if (sizes.size > 1) throw new Error(`runs of several sizes (${[...sizes].join(', ')}): give one size's runs`);
  const keys = [...new Set(results.flatMap(({ result }) => result.shapes.map((s) => s.key)))];
  const rows = keys.map((key) => {
    const label = results.flatMap(({ result }) => result.shapes).find((s) => s.key === key)!.label;
    const perRun = results.map(({ result }) => figures(result, key));
    const rps = perRun.map((f) => f?.requestsPerSecond ?? Number.NaN);
    const hop = perRun.map((f) => f?.hopRatio ?? Number.NaN);
    const hopMedian = median(hop);
    const peer = perRun.find((f) => f?.peer !== undefined)?.peer;
    const ratio = peer === undefined ? Number.NaN : median(rps) / peer;
    const target = COLD_TARGETS[key];
    return [
      label,
      rps.map(rate).join(' / '),
      rate(median(rps)),
      peer === undefined ? '–' : String(peer),
      target === undefined || peer === undefined
        ? fixed(ratio, 2)
        : `${fixed(ratio, 2)} (${target}: ${verdict(ratio, ratio >= target)})`,
      hop.map((h) => fixed(h, 2)).join(' / '),
      `${fixed(hopMedian, 2)} (${verdict(hopMedian, hopMedian <= HOP_RATIO_TARGET)})`,
      String(Math.max(...perRun.map((f) => f?.queries ?? 0))),
    ];
  });
  const loads = results.flatMap(({ run }) => [run.loadAverage.start, run.loadAverage.end]);
  return [
    `Median of ${results.length} runs (${results.map(({ run }) => `${run.date.slice(0, 16)} at ${run.machine.commit}`).join(', ')}), ${store}, ${first.result.size}; load average ${fixed(Math.min(...loads), 1)}–${fixed(Math.max(...loads), 1)}. Ratio: the median's throughput over mu-cl-resources' (\`bench/reference.ts\`).`,
    '',
    markdownTable(
      [
        'shape',
        `req/s, ${first.run.settings.connections[0] ?? 10} conn (each run)`,
        'median',
        'mu req/s',
        'ratio (target)',
        'server ÷ (floor + hop), each run',
        `median (≤ ${HOP_RATIO_TARGET})`,
        'queries',
      ],
      rows,
    ),
  ].join('\n');
}

/** One shape of one run: its throughput at the peer's connections, the peer's, server ÷ (floor + hop), its queries. */
function figures(result: StoreResult, key: string) {
  const shape = result.shapes.find((s): s is Ok => s.key === key && s.status === 'ok');
  if (shape === undefined) return undefined;
  const compared = compareWithPeer(result).find((c) => c.key === key);
  const first = shape.concurrent[0];
  return {
    requestsPerSecond:
      compared?.ours.requestsPerSecond ??
      (first === undefined || 'skipped' in first ? undefined : first.requestsPerSecond),
    peer: compared?.peer.requestsPerSecond,
    hopRatio: overhead(shape, result.hop)?.hopRatio,
    queries: shape.sequential.queries.max,
  };
}

/** Each run's figure, '–' where a run has none. */
const each = (values: readonly number[]) => values.map((v) => rate(v)).join(' / ');

/**
 * The medians of several runs under the keep-alive client on one store at one size: per shape,
 * this server's and the peer's req/s in each run and their medians, the median of each run's
 * this ÷ peer (the two alternate within a run, so a run's ratio is the fairer one) against its
 * target, autocannon's median beside, and the median CPU µs per request of each process over this
 * server's loop (and the peer's own over its loop).
 *
 * @example console.log(renderKeepAliveMedians(runs.flatMap((r) => r.stores)))
 */
export function renderKeepAliveMedians(results: readonly StoreResult[]): string | undefined {
  const compared = results.map((result) => compareKeepAlive(result));
  const keys = [...new Set(compared.flatMap((list) => list.map((c) => c.key)))];
  if (keys.length === 0) return undefined;
  const rows = keys.map((key) => {
    const shape = compared.map((list) => list.find((c) => c.key === key));
    const ours = shape.map((c) => c?.ours.loop.requestsPerSecond ?? Number.NaN);
    const peer = shape.map((c) =>
      c === undefined || 'na' in c.peer
        ? Number.NaN
        : c.peer.source === 'live'
          ? c.peer.figures.loop.requestsPerSecond
          : c.peer.figures.requestsPerSecond,
    );
    const ratio = median(shape.map((c) => c?.ratio ?? Number.NaN));
    const target = PEER_TARGETS[key];
    const cpu = (name: string) => fixed(median(shape.map((c) => c?.ours.cpu?.[name] ?? Number.NaN)), 0);
    const peerCpu = fixed(
      median(
        shape.map((c) =>
          c && !('na' in c.peer) && c.peer.source === 'live' ? (c.peer.figures.cpu?.peer ?? Number.NaN) : Number.NaN,
        ),
      ),
      0,
    );
    const dated = shape.some((c) => c && !('na' in c.peer) && c.peer.source === 'dated');
    return [
      shape.find((c) => c)!.label,
      `${each(ours)} (${rate(median(ours))})`,
      `${each(peer)} (${rate(median(peer))})${dated ? ' dated' : ''}`,
      `${fixed(ratio, 2)}${target === undefined ? '' : ` (≥ ${target})${Number.isFinite(ratio) ? (ratio >= target ? ' ✓' : ' ✗') : ''}`}`,
      fixed(median(shape.map((c) => c?.ours.sequential.p50 ?? Number.NaN))),
      rate(median(shape.map((c) => c?.autocannon ?? Number.NaN))),
      `${cpu('server')} / ${cpu('store')} / ${cpu('client')}`,
      peerCpu,
    ];
  });
  return markdownTable(
    [
      'shape',
      'this req/s, each run (median)',
      'peer req/s, each run (median)',
      'median of this ÷ peer (target)',
      'this p50 ms',
      'autocannon req/s',
      'this loop: server / store / client µs',
      'peer loop: peer µs',
    ],
    rows,
  );
}
