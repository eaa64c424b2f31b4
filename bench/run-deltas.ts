import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { BenchDataset } from './datasets.js';
import { CHANGE_KINDS } from './delta-changes.js';
import type { DriverArguments } from './delta-driver.js';
import {
  between,
  type DeltaSample,
  type DeltaShapeResult,
  type DeltasRun,
  type MetricsSnapshot,
  metricsSnapshot,
  streamFigures,
} from './deltas-report.js';
import { machineInfo } from './machine.js';
import { concurrencyFits, concurrentServer, get, waitIdle } from './measure.js';
import type { BenchOptions } from './options.js';
import { MAPPING } from './run-store.js';
import { freePort, type ServerProcess, startServer } from './server-process.js';
import { errorDetail, NotAvailable, SHAPES, type Shape, type ShapeContext, sequence, spread } from './shapes.js';
import { percentile, summarize } from './stats.js';
import { BENCH_GRAPH, type BenchStore, virtuosoStore } from './stores.js';

const DRIVER = fileURLToPath(new URL('./delta-driver.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The shapes measured under the stream: those mu-cl-resources was measured on (no cursor page). */
const MEASURED = new Set([
  'collection',
  'sorted',
  'deep-offset',
  'include',
  'sorted-to-many',
  'filtered',
  'never-seen',
  'single',
  'related',
  'relationship',
]);
/** Seconds the stream runs before the first shape, so that the caches meet it in its steady state. */
const LEAD_SECONDS = 3;
/** A shape whose first request takes longer is n/a. */
const REQUEST_LIMIT_MS = 120_000;
/** The stream stops by itself after this long, whatever happens to the bench. */
const STREAM_LIMIT_SECONDS = 3600;

const log = (line: string) => console.error(`[deltas ${(performance.now() / 1000).toFixed(1)}s] ${line}`);

/**
 * The shapes under a steady stream of deltas, on Virtuoso: a fresh Virtuoso with the dataset, the
 * server (a child process, as the other benches run it) with a delta listener, so both caches are
 * on without expiry, and the delta driver (`delta-driver.ts`, another child process) changing a
 * few trade activities and posting each delta at `options.deltaRate` messages a second. Each
 * shape gets sequential requests, then `options.connections[0]` connections for
 * `options.durationSeconds`, with `/metrics` read before and after it.
 *
 * @example const run = await runDeltas(await benchDataset('1m'), options, workDir, tools); console.log(renderDeltasRun(run));
 */
export async function runDeltas(
  dataset: BenchDataset,
  options: BenchOptions,
  workDir: string,
  virtuosoTools: { binary: string; isql: string },
): Promise<DeltasRun> {
  const loadAtStart = loadavg()[0]!;
  let store: BenchStore | undefined;
  let server: ServerProcess | undefined;
  let stream: DeltaStream | undefined;
  try {
    log(`${dataset.size}: starting Virtuoso, loading ${dataset.triples} triples (${options.loader})`);
    store = await virtuosoStore(dataset, virtuosoTools, {
      loader: options.loader,
      muUuids: false,
      ...(options.windowCacheTtlSeconds !== undefined && { windowCacheTtlSeconds: options.windowCacheTtlSeconds }),
    });
    log(`${dataset.size}: loaded in ${store.loadMs} ms`);
    const deltaPort = await freePort();
    const started = performance.now();
    server = await startServer({ mapping: MAPPING, ...store.serverConfig }, workDir, {
      deltas: { listen: `127.0.0.1:${deltaPort}` },
    });
    const startMs = performance.now() - started;
    const base = server.url;
    log(`${dataset.size}: server ${base} ready in ${(startMs / 1000).toFixed(1)} s, delta listener on ${deltaPort}`);

    stream = startStream({
      endpoint: store.serverConfig.endpoint as string,
      graph: BENCH_GRAPH,
      deltaUrl: `http://127.0.0.1:${deltaPort}/.mu/delta`,
      rate: options.deltaRate,
      seed: 26,
      activities: dataset.activities,
      shownIds: dataset.activityIds,
      maxSeconds: STREAM_LIMIT_SECONDS,
    });
    await new Promise((resolve) => setTimeout(resolve, LEAD_SECONDS * 1000));
    const scrape = async () => metricsSnapshot(await (await fetch(`${base}/metrics`)).text());

    const probePath = `/trade-activities/${dataset.activityIds[0]}`;
    const probe = async () => (await get(base, probePath, 'application/vnd.api+json')).ms;
    const idle: number[] = [];
    for (let i = 0; i < 10; i++) idle.push(await probe());
    const idleMs = percentile(idle, 50);
    const context: ShapeContext = {
      dataset,
      get: (path, accept = 'application/vnd.api+json') => get(base, path, accept),
    };

    const runStart = { at: Date.now(), metrics: await scrape() };
    const shapes: DeltaShapeResult[] = [];
    const ordered = SHAPES.filter((s) => MEASURED.has(s.key)).sort(
      (a, b) => Number(a.last ?? false) - Number(b.last ?? false),
    );
    for (const shape of ordered) {
      const result = await measureShape(base, shape, context, options, scrape, stream.samples);
      const said =
        result.status === 'ok'
          ? `${'skipped' in result.concurrent ? 'concurrent skipped' : `${Math.round(result.concurrent.requestsPerSecond)} req/s`}, sequential p50 ${result.sequential.p50.toFixed(1)} ms, response cache ${result.server.response.hits}/${result.server.response.hits + result.server.response.misses} hits, ${result.stream.sent} deltas`
          : `n/a (${result.reason})`;
      log(`${dataset.size}: ${shape.label}: ${said}`);
      shapes.push(result);
      await waitIdle(probe, idleMs, 120_000);
    }
    const runEnd = { at: Date.now(), metrics: await scrape() };
    await stream.stop();
    const whole = streamFigures(stream.samples, runStart.at, runEnd.at);
    const kinds = Object.fromEntries(CHANGE_KINDS.map((k) => [k, 0]));
    for (const sample of stream.samples)
      if (sample.at >= runStart.at && sample.at <= runEnd.at) for (const k of sample.kinds) kinds[k]!++;
    return {
      date: new Date().toISOString(),
      machine: machineInfo(store.version),
      size: dataset.size,
      store: 'virtuoso',
      triples: dataset.triples,
      settings: {
        durationSeconds: options.durationSeconds,
        connections: options.connections[0]!,
        iterations: options.iterations,
        rate: options.deltaRate,
        windowCache: options.windowCacheTtlSeconds ?? 'on, no expiry (a delta listener)',
        serverProcess: 'child process: node --import tsx src/cli/bin.ts serve --config … (deltas.listen set)',
      },
      loadMs: store.loadMs ?? Number.NaN,
      startMs,
      shapes,
      stream: { ...whole, kinds },
      server: between(runStart.metrics, runEnd.metrics),
      loadAverage: { start: loadAtStart, end: loadavg()[0]! },
    };
  } finally {
    await stream?.stop();
    await server?.stop();
    await store?.stop();
  }
}

/**
 * One shape while the stream runs: its rotation as the cold bench sends it, sequential requests
 * (at most `options.iterations`, within the sequential budget), then the concurrent run when the
 * sequential p50 says it fits; `/metrics` and the stream's samples over both.
 */
async function measureShape(
  base: string,
  shape: Shape,
  context: ShapeContext,
  options: BenchOptions,
  scrape: () => Promise<MetricsSnapshot>,
  samples: readonly DeltaSample[],
): Promise<DeltaShapeResult> {
  const { key, label } = shape;
  const na = (reason: string): DeltaShapeResult => ({ key, label, status: 'n/a', reason });
  let all: string[];
  try {
    all = await shape.urls(context);
  } catch (error) {
    if (error instanceof NotAvailable) return na(error.message);
    throw error;
  }
  const urls = shape.fresh ? spread(all, options.maxRotation) : all.slice(0, options.maxRotation);
  const next = shape.fresh ? sequence(all) : undefined;
  const path = (i: number) => next?.() ?? urls[i % urls.length]!;
  const loadStart = loadavg()[0]!;
  const before = { at: Date.now(), metrics: await scrape() };
  const ms: number[] = [];
  const deadline = performance.now() + options.sequentialBudgetSeconds * 1000;
  for (let i = 0; i < options.iterations && (i < 3 || performance.now() < deadline); i++) {
    const fetched = await get(base, path(i), shape.accept, AbortSignal.timeout(REQUEST_LIMIT_MS)).catch(
      (error: Error) => error,
    );
    if (fetched instanceof Error) return na(`a request failed: ${fetched.message}`);
    if (fetched.status !== 200) return na(`HTTP ${fetched.status}${errorDetail(fetched.body)}`);
    ms.push(fetched.ms);
  }
  const sequential = summarize(ms);
  const { durationSeconds: seconds } = options;
  const connections = options.connections[0]!;
  const concurrent = concurrencyFits(sequential.p50, connections, seconds)
    ? await concurrentServer(base, next ?? sequence(urls), shape.accept, connections, seconds)
    : {
        connections,
        skipped: `p50 ${(sequential.p50 / 1000).toFixed(1)} s × ${connections} connections is more than a ${seconds} s run can measure`,
      };
  const after = { at: Date.now(), metrics: await scrape() };
  return {
    key,
    label,
    status: 'ok',
    rotation: next ? all.length : urls.length,
    example: urls[0]!,
    sequential,
    concurrent,
    server: between(before.metrics, after.metrics),
    stream: streamFigures(samples, before.at, after.at),
    loadAverage: { start: loadStart, end: loadavg()[0]! },
  };
}

/** The delta driver while it runs: the samples so far (growing), and how to stop it. */
interface DeltaStream {
  readonly samples: DeltaSample[];
  stop(): Promise<void>;
}

/** Starts `delta-driver.ts` in a process of its own; it stops when its stdin closes. */
function startStream(args: DriverArguments): DeltaStream {
  const child = spawn(process.execPath, ['--import', 'tsx', DRIVER, JSON.stringify(args)], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const kill = () => child.kill('SIGKILL');
  process.once('exit', kill);
  const samples: DeltaSample[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => samples.push(JSON.parse(line) as DeltaSample));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    samples,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.stdin.end();
        const timer = setTimeout(kill, 10_000);
        await exited;
        clearTimeout(timer);
      }
      process.removeListener('exit', kill);
    },
  };
}
