import type { Logger } from 'pino';
import { generationStore } from './generation-store.js';
import { GraphNotFoundError, SHOWN_GRAPHS } from './graph-not-found-error.js';
import { type LaneLimits, type LaneLimitsInput, laneLimits } from './lane-gate.js';
import { OxigraphPool, type WorkerInfo } from './oxigraph-pool.js';
import type { Store } from './store.js';

export { GraphNotFoundError } from './graph-not-found-error.js';

export interface OxigraphStoreOptions {
  /** RDF files to load: `.ttl`, `.nt`, `.nq` or `.trig` (format from the extension). */
  files: string[];
  /**
   * The named graph to serve (an IRI): queries see it alone as their default graph. Without it,
   * they see the union of every graph of the files: the default graph of `.ttl`/`.nt` (and of
   * N-Quads/TriG lines without a graph) and every named graph. A graph that none of the files
   * has is a {@link GraphNotFoundError}.
   */
  graph?: string;
  /**
   * Worker threads, each holding its own copy of the data (memory grows with each: about 65 MB
   * per 100k triples). Default: `queries.light + queries.heavy + 1`, so that one loaded worker is
   * always spare. Fewer than that: the lanes share workers (a light query may wait for a heavy
   * one), and without a spare a stopped worker's lane is short of one until its replacement has
   * loaded the data.
   */
  workers?: number;
  /** Queries of each lane that run at once, and how many may wait per lane. Default {@link EMBEDDED_QUERIES}. */
  queries?: LaneLimitsInput;
  /** Longest a query may take, waiting for a worker included; past it its worker is stopped. Default 10 000. */
  timeoutMs?: number;
  logger?: Logger;
}

/**
 * The embedded store's default lanes: one light and one heavy query at a time (Oxigraph runs a
 * query on one core, and with the spare that makes three workers, the most that a 2-core machine
 * runs without queries slowing each other much). 64 light queries may wait, since they take
 * milliseconds and a page with `include` sends two at once (its fetch and its first level: 10
 * such requests are 20 queries); 16 heavy ones, since a heavy query deeper in the queue would
 * rarely start before a request's 10 s deadline.
 */
export const EMBEDDED_QUERIES: LaneLimits = Object.freeze({ light: 1, heavy: 1, queue: { light: 64, heavy: 16 } });
const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * Starts the embedded store: a pool of `workers` threads, each loading every file into its own
 * in-memory Oxigraph store. Queries are synchronous WASM calls, so they run on the pool and a
 * slow one occupies one worker instead of the event loop. Resolves once every worker has loaded;
 * rejects with `<file>: <parser message>` when a file cannot be parsed.
 *
 * Admission: each lane has its own limit (`LaneGate`), and a query starts only when a loaded worker
 * is idle, so it never waits for a load. A running WASM query can only be stopped with its thread:
 * when a query runs on for a second after its signal aborted (the caller is answered at once,
 * run-oxigraph-task.ts), or past `timeoutMs`, its worker is terminated, the spare takes the next
 * query at once, and piscina starts a replacement that loads the data in the background
 * (oxigraph-pool.ts). A query Oxigraph panics on (e.g. an ORDER BY that mixes out-of-range
 * decimals and doubles: "user-provided comparison function does not correctly implement a total
 * order") is `query` with that message, and its worker is replaced the same way.
 *
 * Errors are `StoreError`s: `query` (a syntax error, a query Oxigraph failed on), `timeout`,
 * `overloaded` (the lane's queue is full), `unavailable` (closed, or no worker left), `unexpected`.
 */
export async function createOxigraphStore(options: OxigraphStoreOptions): Promise<Store> {
  const limits = laneLimits(EMBEDDED_QUERIES, options.queries);
  const workers = options.workers ?? limits.light + limits.heavy + 1;
  if (!Number.isInteger(workers) || workers < 1) throw new Error(`workers must be a positive integer, got ${workers}`);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const { files, graph, logger } = options;
  const started = performance.now();
  const pool = new OxigraphPool({ files, graph, workers, limits, logger });
  const loaded = await pool.start(timeoutMs);
  const triples = loaded[0]?.triples ?? 0;
  const graphTriples = loaded[0]?.graphTriples ?? null;
  if (graph !== undefined && graphTriples === 0) {
    const graphs = { op: 'graphs', limit: SHOWN_GRAPHS + 1, generation: 0 } as const;
    const available = (await pool.piscina.run(graphs).catch(() => [])) as string[];
    await pool.piscina.destroy();
    throw new GraphNotFoundError(graph, available, files);
  }
  Atomics.store(pool.startedUp, 0, 1);
  logStart(options, { loaded, workers, limits, readyMs: Math.round(performance.now() - started) });
  const context = { pool, files, graph, workers, timeoutMs, logger, open: new Set([0]), latest: 0 };
  return generationStore(context, { generation: 0, triples, graphTriples });
}

/** Says what the store loaded and serves, and warns when its workers are too few for its lanes. */
function logStart(
  { files, graph, logger }: OxigraphStoreOptions,
  { loaded, workers, limits, readyMs }: { loaded: WorkerInfo[]; workers: number; limits: LaneLimits; readyMs: number },
): void {
  const triples = loaded[0]?.triples ?? 0;
  const graphTriples = loaded[0]?.graphTriples ?? null;
  const loadMs = Math.max(...loaded.map((info) => info.loadMs));
  const spare = Math.max(0, workers - limits.light - limits.heavy);
  logger?.info(
    {
      files: files.length,
      triples,
      workers,
      ...limits,
      loadMs,
      readyMs,
      ...(graph === undefined ? { graph: 'union' } : { graph, graphTriples }),
    },
    `oxigraph loaded ${triples} triples from ${files.length} files in ${loadMs} ms; ${
      graph === undefined
        ? 'serving the union of all their graphs'
        : `serving graph <${graph}> alone (${graphTriples} triples)`
    }`,
  );
  if (workers < limits.light + limits.heavy)
    logger?.warn(
      { workers, ...limits },
      'fewer oxigraph workers than queries.light + queries.heavy: light queries may wait for heavy ones',
    );
  else if (spare === 0)
    logger?.warn(
      { workers, ...limits },
      'no spare oxigraph worker: after a stopped query its lane is short of a worker until the replacement has loaded the data',
    );
}
