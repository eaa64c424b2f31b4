import { parseMetrics } from '../test/support/metrics-text.js';
import type { ChangeKind } from './delta-changes.js';
import type { ConcurrentResult, SkippedRun } from './measure.js';
import type { Size } from './options.js';
import { fastestPeer, MU_CL_RESOURCES } from './reference.js';
import { fixed, machineLine, markdownTable } from './report.js';
import type { MachineInfo } from './results.js';
import { type LatencySummary, median, summarize } from './stats.js';

/**
 * The targets of issue 26 under a stream of deltas, as multiples of mu-cl-resources' reference
 * throughput: repeated list pages 10×, a single resource (and what hangs off one: its related
 * list, its linkage) 3×.
 */
export const DELTA_TARGETS: Readonly<Record<string, number>> = {
  collection: 10,
  sorted: 10,
  'deep-offset': 10,
  include: 10,
  'sorted-to-many': 10,
  filtered: 10,
  'never-seen': 10,
  single: 3,
  related: 3,
  relationship: 3,
};

/** What `/metrics` said at one moment, of the figures the deltas bench reads. */
export interface MetricsSnapshot {
  readonly responseHits: number;
  readonly responseMisses: number;
  readonly windowHits: number;
  readonly windowMisses: number;
  /** `delta_duration_seconds` of applied messages: count, sum and cumulative buckets (`le` in seconds). */
  readonly deltaCount: number;
  readonly deltaSeconds: number;
  readonly deltaBuckets: readonly (readonly [number, number])[];
}

/**
 * The figures of a Prometheus text exposition of the server (`/metrics`) that the deltas bench
 * reads.
 *
 * @example metricsSnapshot(await (await fetch(`${base}/metrics`)).text()).responseHits
 */
export function metricsSnapshot(text: string): MetricsSnapshot {
  const samples = parseMetrics(text);
  const sum = (name: string, labels: Record<string, string> = {}) =>
    samples
      .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
      .reduce((total, s) => total + s.value, 0);
  const applied = { outcome: 'applied' };
  return {
    responseHits: sum('response_cache_hits_total'),
    responseMisses: sum('response_cache_misses_total'),
    windowHits: sum('window_cache_hits_total'),
    windowMisses: sum('window_cache_misses_total'),
    deltaCount: sum('delta_duration_seconds_count', applied),
    deltaSeconds: sum('delta_duration_seconds_sum', applied),
    deltaBuckets: samples
      .filter((s) => s.name === 'delta_duration_seconds_bucket' && s.labels.outcome === 'applied')
      .map((s) => [Number(s.labels.le), s.value] as const)
      .sort((a, b) => a[0] - b[0]),
  };
}

/** One message of the driver (`delta-driver.ts`): when its delta was posted (epoch ms), what each step took, and the listener's status. */
export interface DeltaSample {
  readonly at: number;
  readonly readMs: number;
  readonly updateMs: number;
  /** From the POST of the delta until its answer: the notifier's view of arrival → 2xx. */
  readonly deltaMs: number;
  /** The listener's status, or 0 when the UPDATE failed and no delta was sent. */
  readonly status: number;
  readonly triples: number;
  readonly kinds: readonly ChangeKind[];
}

/** Hits and misses of one cache over a stretch of time. */
export interface Lookups {
  readonly hits: number;
  readonly misses: number;
}

/** What the server counted between two snapshots. */
export interface ServerFigures {
  readonly response: Lookups;
  readonly window: Lookups;
  /** Applied deltas, their mean time from arrival to answer, and the bucket bound their p95 is under (ms). */
  readonly deltas: number;
  readonly deltaMeanMs: number;
  readonly deltaP95AtMostMs: number;
}

/**
 * What the server counted from `before` to `after`: lookups of each cache, and the applied
 * deltas' times (the p95 as the upper bound of the histogram bucket it falls in).
 *
 * @example between(metricsSnapshot(a), metricsSnapshot(b)).response.hits
 */
export function between(before: MetricsSnapshot, after: MetricsSnapshot): ServerFigures {
  const deltas = after.deltaCount - before.deltaCount;
  const buckets = after.deltaBuckets.map(
    ([le, n]) => [le, n - (before.deltaBuckets.find(([l]) => l === le)?.[1] ?? 0)] as const,
  );
  const p95 = buckets.find(([, n]) => n >= 0.95 * deltas)?.[0];
  return {
    response: { hits: after.responseHits - before.responseHits, misses: after.responseMisses - before.responseMisses },
    window: { hits: after.windowHits - before.windowHits, misses: after.windowMisses - before.windowMisses },
    deltas,
    deltaMeanMs: deltas > 0 ? ((after.deltaSeconds - before.deltaSeconds) / deltas) * 1000 : Number.NaN,
    deltaP95AtMostMs: deltas > 0 && p95 !== undefined ? p95 * 1000 : Number.NaN,
  };
}

/** What the driver's messages did over a stretch of time: how many, how many failed, and their times. */
export interface StreamFigures {
  readonly sent: number;
  /** Messages whose UPDATE failed or whose delta got no 2xx. */
  readonly failed: number;
  /** From the POST of the delta to its 2xx, as the notifier sees it. */
  readonly deltaMs: LatencySummary;
  readonly updateMs: LatencySummary;
  /** Messages a second over the stretch. */
  readonly rate: number;
}

/**
 * The driver's samples posted in `[from, to]` (epoch ms), summarised.
 *
 * @example streamFigures(samples, start, Date.now()).deltaMs.p95
 */
export function streamFigures(samples: readonly DeltaSample[], from: number, to: number): StreamFigures {
  const within = samples.filter((s) => s.at >= from && s.at <= to);
  const ok = within.filter((s) => s.status >= 200 && s.status < 300);
  return {
    sent: within.length,
    failed: within.length - ok.length,
    deltaMs: summarize(ok.map((s) => s.deltaMs)),
    updateMs: summarize(within.map((s) => s.updateMs)),
    rate: to > from ? within.length / ((to - from) / 1000) : Number.NaN,
  };
}

/** One shape under the stream: its throughput and latency, beside the peer's, and the caches. */
export type DeltaShapeResult =
  | {
      readonly key: string;
      readonly label: string;
      readonly status: 'ok';
      readonly rotation: number;
      readonly example: string;
      /** Sequential requests while the stream runs (each after the previous answered). */
      readonly sequential: LatencySummary;
      readonly concurrent: ConcurrentResult | SkippedRun;
      readonly server: ServerFigures;
      readonly stream: StreamFigures;
      readonly loadAverage: { readonly start: number; readonly end: number };
    }
  | { readonly key: string; readonly label: string; readonly status: 'n/a'; readonly reason: string };

/** One run of `npm run bench -- --deltas` at one size: the JSON under bench/results/. */
export interface DeltasRun {
  readonly date: string;
  readonly machine: MachineInfo;
  readonly size: Size;
  readonly store: 'virtuoso';
  readonly triples: number;
  readonly settings: {
    readonly durationSeconds: number;
    readonly connections: number;
    readonly iterations: number;
    readonly rate: number;
    /** `--window-cache` as given (0: off, for an A/B), or the listener's default: on without expiry. */
    readonly windowCache: number | string;
    readonly serverProcess: string;
  };
  /** Virtuoso's bulk load, and the server's start with its lists read ahead (ms). */
  readonly loadMs: number;
  readonly startMs: number;
  readonly shapes: readonly DeltaShapeResult[];
  /** The whole stream, from the first shape to the last, and what the server counted meanwhile. */
  readonly stream: StreamFigures & { readonly kinds: Readonly<Record<string, number>> };
  readonly server: ServerFigures;
  readonly loadAverage: { readonly start: number; readonly end: number };
}

/** A shape's ratio to the peer and whether it meets its target; undefined figures where not measured. */
export interface DeltaVerdict {
  readonly peer: number | undefined;
  readonly ratio: number | undefined;
  readonly target: number | undefined;
  readonly met: boolean | undefined;
  /** The shape had no concurrent run: `ratio` is the most its connections could give at its sequential p50. */
  readonly bound: boolean;
}

/**
 * A shape's throughput against mu-cl-resources' reference at the run's size (the faster of its
 * runs there) and against its target ({@link DELTA_TARGETS}). A shape too slow for its concurrent
 * run is judged by the most its connections could give at its sequential p50 (connections ÷ p50):
 * the ratio is then an upper bound (`bound`).
 *
 * @example verdict(run, shape).met
 */
export function verdict(run: Pick<DeltasRun, 'store' | 'size'>, shape: DeltaShapeResult): DeltaVerdict {
  const peer = fastestPeer(run.store, run.size, shape.key)?.peer.requestsPerSecond;
  const target = DELTA_TARGETS[shape.key];
  const c = shape.status === 'ok' ? shape.concurrent : undefined;
  const bound = c !== undefined && 'skipped' in c;
  const rps =
    c === undefined
      ? undefined
      : 'skipped' in c
        ? c.connections / ((shape as Extract<DeltaShapeResult, { status: 'ok' }>).sequential.p50 / 1000)
        : c.requestsPerSecond;
  const ratio = peer !== undefined && rps !== undefined ? rps / peer : undefined;
  const met = ratio === undefined || target === undefined ? undefined : ratio >= target;
  return { peer, ratio, target, met, bound };
}

const share = ({ hits, misses }: Lookups) =>
  hits + misses === 0 ? '–' : `${((100 * hits) / (hits + misses)).toFixed(0)} % of ${hits + misses}`;

/**
 * The run as markdown: per shape, throughput and p50 beside the peer's, the target, the caches'
 * hit ratios and the deltas' times while it ran; then the whole stream.
 *
 * @example console.log(renderDeltasRun(run))
 */
export function renderDeltasRun(run: DeltasRun): string {
  const { start, end } = run.loadAverage;
  const rows = run.shapes.map((shape) => {
    if (shape.status !== 'ok') return [shape.label, `n/a: ${shape.reason}`, '', '', '', '', '', '', '', ''];
    const v = verdict(run, shape);
    const c = shape.concurrent;
    const throughput =
      'skipped' in c
        ? `skipped: too slow`
        : c.completed === 0
          ? `none completed in ${run.settings.durationSeconds} s${c.failed ? ` ⚠ ${c.failed} failed` : ''}`
          : `${Math.round(c.requestsPerSecond)} (${fixed(c.p50)} / ${fixed(c.p99)})${c.failed ? ` ⚠ ${c.failed} failed` : ''}`;
    const { stream, server } = shape;
    return [
      shape.label,
      throughput,
      fixed(shape.sequential.p50),
      v.peer === undefined ? '–' : String(v.peer),
      v.ratio === undefined ? '–' : `${v.bound ? '≤ ' : ''}${fixed(v.ratio, v.ratio < 0.1 ? 2 : 1)}×`,
      v.target === undefined ? '–' : `${v.target}×: ${v.met === undefined ? 'n/a' : v.met ? 'met' : '**missed**'}`,
      share(server.response),
      share(server.window),
      `${stream.sent} (${fixed(stream.deltaMs.p50)} / ${fixed(stream.deltaMs.p95)})${stream.failed ? ` ⚠ ${stream.failed} failed` : ''}`,
      `${fixed(shape.loadAverage.start)} → ${fixed(shape.loadAverage.end)}`,
    ];
  });
  const s = run.stream;
  const kinds = Object.entries(s.kinds)
    .map(([kind, n]) => `${kind} ${n}`)
    .join(', ');
  return [
    `## Deltas: ${run.store}, ${run.size} (${run.triples.toLocaleString('en')} triples), ${run.settings.rate} messages a second`,
    '',
    machineLine(run.machine, run.date),
    '',
    `Load average (1 min): ${fixed(start)} at the start, ${fixed(end)} at the end${Math.max(start, end) > run.machine.cores ? ` — **above the ${run.machine.cores} cores: other processes shared the CPUs**` : ''}. Bulk load ${fixed(run.loadMs / 1000)} s; the server started (lists read ahead) in ${fixed(run.startMs / 1000)} s.`,
    '',
    `Per shape: ${run.settings.connections} connections for ${run.settings.durationSeconds} s after ${run.settings.iterations} sequential requests, the URLs rotating as in the cold bench, ${typeof run.settings.windowCache === 'number' ? `the response cache on without expiry (a delta listener), the window cache ${run.settings.windowCache === 0 ? 'off' : `at a ${run.settings.windowCache} s TTL`} (--window-cache)` : 'both caches on without expiry (a delta listener)'}, mu-cl-resources' reference from ${MU_CL_RESOURCES.name}'s faster run at this size; cache hits over the shape's requests (a response-cache hit asks no list, so the window cache sees only the response cache's misses); deltas while the shape ran: messages (delta → 2xx p50 / p95 ms, client side).`,
    '',
    markdownTable(
      [
        'shape',
        `req/s, ${run.settings.connections} conn (p50 / p99 ms)`,
        'sequential p50 ms',
        'mu req/s',
        'ratio',
        'target',
        'response cache hits',
        'window cache hits',
        'deltas (p50 / p95 ms)',
        'load',
      ],
      rows,
    ),
    '',
    markdownTable(
      ['the stream', 'value'],
      [
        [
          'messages',
          `${s.sent} in all (${fixed(s.rate)} a second), ${s.failed} failed; activities changed: ${kinds || '–'}`,
        ],
        [
          'delta → 2xx, client side',
          `p50 ${fixed(s.deltaMs.p50)} ms, p95 ${fixed(s.deltaMs.p95)} ms, p99 ${fixed(s.deltaMs.p99)} ms`,
        ],
        [
          "delta → 2xx, the server's own (`delta_duration_seconds`)",
          `${run.server.deltas} applied, mean ${fixed(run.server.deltaMeanMs, 2)} ms, p95 ≤ ${fixed(run.server.deltaP95AtMostMs, 2)} ms (histogram bucket)`,
        ],
        ['SPARQL UPDATE on the store', `p50 ${fixed(s.updateMs.p50)} ms, p95 ${fixed(s.updateMs.p95)} ms`],
        ['response cache over the run', share(run.server.response)],
        ['window cache over the run', share(run.server.window)],
      ],
    ),
  ].join('\n');
}

const ratioOf = ({ hits, misses }: Lookups) => (hits + misses === 0 ? Number.NaN : hits / (hits + misses));

/**
 * Several runs at one size as one markdown table of medians per shape: throughput (or its bound),
 * sequential p50, ratio to the peer against the target, the caches' hit ratios, the deltas' p95,
 * and the range of load averages.
 *
 * @example console.log(renderDeltasMedians(runs))
 */
export function renderDeltasMedians(runs: readonly DeltasRun[]): string {
  const first = runs[0];
  if (first === undefined) return 'no run';
  const keys = [...new Set(runs.flatMap((r) => r.shapes.map((s) => s.key)))];
  const rows = keys.map((key) => {
    const shapes = runs.flatMap((run) => {
      const shape = run.shapes.find((s) => s.key === key);
      return shape?.status === 'ok' ? [{ run, shape, v: verdict(run, shape) }] : [];
    });
    const label = runs.flatMap((r) => r.shapes).find((s) => s.key === key)!.label;
    if (shapes.length === 0) return [label, 'n/a', '', '', '', '', '', '', ''];
    const rps = median(
      shapes.map(({ shape: s }) => ('skipped' in s.concurrent ? Number.NaN : s.concurrent.requestsPerSecond)),
    );
    const ratio = median(shapes.map(({ v }) => v.ratio ?? Number.NaN));
    const bound = shapes.some(({ v }) => v.bound);
    const { peer, target } = shapes[0]!.v;
    const percent = (values: number[]) => {
      const m = median(values);
      return Number.isFinite(m) ? `${(100 * m).toFixed(0)} %` : '–';
    };
    const loads = shapes.flatMap(({ shape: s }) => [s.loadAverage.start, s.loadAverage.end]);
    return [
      label,
      Number.isFinite(rps) ? String(Math.round(rps)) : 'too slow',
      fixed(median(shapes.map(({ shape: s }) => s.sequential.p50))),
      peer === undefined ? '–' : String(peer),
      Number.isFinite(ratio) ? `${bound ? '≤ ' : ''}${fixed(ratio, ratio < 0.1 ? 2 : 1)}×` : '–',
      target === undefined
        ? '–'
        : `${target}×: ${Number.isFinite(ratio) ? (ratio >= target ? 'met' : '**missed**') : 'n/a'}`,
      percent(shapes.map(({ shape: s }) => ratioOf(s.server.response))),
      percent(shapes.map(({ shape: s }) => ratioOf(s.server.window))),
      fixed(median(shapes.map(({ shape: s }) => s.stream.deltaMs.p95))),
      `${fixed(Math.min(...loads))}–${fixed(Math.max(...loads))}`,
    ];
  });
  return [
    `Median of ${runs.length} runs (${runs.map((r) => r.date.slice(0, 16)).join(', ')}), ${first.store}, ${first.size}, ${first.settings.rate} messages a second; "≤": no concurrent run (too slow), the ratio is connections ÷ sequential p50.`,
    '',
    markdownTable(
      [
        'shape',
        `req/s, ${first.settings.connections} conn`,
        'sequential p50 ms',
        'mu req/s',
        'ratio',
        'target',
        'response cache hits',
        'window cache hits',
        'delta → 2xx p95 ms',
        'load',
      ],
      rows,
    ),
  ].join('\n');
}
