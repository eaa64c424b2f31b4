import { statSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import type { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import { Piscina } from 'piscina';
import { LaneGate, type LaneLimits, type LaneLimitsInput, laneLimits } from './lane-gate.js';
import { parseSelectResults } from './parse-select-results.js';
import { type Lane, type Row, type SelectOptions, type Store, StoreError } from './store.js';

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
 * How long a query may run on for a caller that went away before its worker is stopped. Stopping
 * one costs its replacement a load of the data (10 s of a core at 1M triples), far more than a
 * query of a few milliseconds that finishes for nobody: an end of load that dropped 10 requests
 * in flight used to stop every worker at once, and no request was answered until they reloaded.
 */
const ABANDONED_GRACE_MS = 1_000;

/** A task for the workers; each names the generation of the data it reads (oxigraph-worker.js). */
type Task = (
  | { op: 'info' }
  | { op: 'graphs'; limit: number }
  | { op: 'select'; query: string }
  | { op: 'load' }
  | { op: 'drop' }
) & { generation: number };
/** Where piscina's load balancer finds the thread a task must run on (`everyWorker`). */
const TARGET = Piscina.queueOptionsSymbol;
interface WorkerInfo {
  threadId: number;
  /** Quads in the store, every graph counted. */
  triples: number;
  /** Triples in the `graph` option's graph; null without one. */
  graphTriples: number | null;
  loadMs: number;
}

/** How many of the files' named graphs a {@link GraphNotFoundError} names. */
const SHOWN_GRAPHS = 10;

/** The `graph` option names a graph that none of the files has a quad in: a configuration mistake. */
export class GraphNotFoundError extends Error {
  override name = 'GraphNotFoundError';
  constructor(
    readonly graph: string,
    /** The first named graphs the files do hold (at most {@link SHOWN_GRAPHS}). */
    readonly available: readonly string[],
    files: readonly string[],
  ) {
    const held =
      available.length === 0
        ? 'they hold no named graph'
        : `their named graphs: ${available
            .slice(0, SHOWN_GRAPHS)
            .map((g) => `<${g}>`)
            .join(', ')}${available.length > SHOWN_GRAPHS ? ', …' : ''}`;
    super(`graph <${graph}> has no triple in the data files (${files.join(', ')}); ${held}`);
  }
}
/** What a worker says when Oxigraph panicked on the query (`panic`), or when it panicked before (`refused`). */
type Failure = { panic: string; threadId: number } | { refused: string; threadId: number };
/** What a worker posts once it has loaded the data. */
interface Loaded {
  oxigraphLoaded: WorkerInfo & { replacement: boolean };
}

/**
 * Starts the embedded store: a pool of `workers` threads, each loading every file into its own
 * in-memory Oxigraph store. Queries are synchronous WASM calls, so they run on the pool and a
 * slow one occupies one worker instead of the event loop. Resolves once every worker has loaded;
 * rejects with `<file>: <parser message>` when a file cannot be parsed.
 *
 * Admission: each {@link Lane} has its own limit ({@link LaneGate}), and a query starts only when a
 * loaded worker is idle, so it never waits for a load. A running WASM query can only be stopped
 * with its thread: when a query runs on {@link ABANDONED_GRACE_MS} after its signal aborted (the
 * caller is answered at once), or past `timeoutMs`, its worker is terminated, the spare takes the
 * next query at once, and piscina starts a replacement that loads the data in
 * the background. A query Oxigraph panics on (e.g. an ORDER BY that mixes out-of-range decimals and
 * doubles: "user-provided comparison function does not correctly implement a total order") is
 * `query` with that message, and its worker is replaced the same way.
 *
 * Errors are {@link StoreError}s: `query` (a syntax error, a query Oxigraph failed on), `timeout`,
 * `overloaded` (the lane's queue is full), `unavailable` (closed, or no worker left), `unexpected`.
 */
export async function createOxigraphStore(options: OxigraphStoreOptions): Promise<Store> {
  const limits = laneLimits(EMBEDDED_QUERIES, options.queries);
  const workers = options.workers ?? limits.light + limits.heavy + 1;
  if (!Number.isInteger(workers) || workers < 1) throw new Error(`workers must be a positive integer, got ${workers}`);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const logger = options.logger;
  const started = performance.now();
  // A replacement worker checks that the files are the ones the other workers loaded: each file's
  // size and modification time (-1 when missing: the workers report that with Node's message).
  const stamps = new Float64Array(new SharedArrayBuffer(16 * options.files.length));
  const readStamps = () =>
    options.files.flatMap((file) => {
      const stat = statSync(file, { throwIfNoEntry: false });
      return [stat?.size ?? -1, stat?.mtimeMs ?? -1];
    });
  stamps.set(readStamps());
  /** The generation of the data a replacement worker loads: the latest the store has loaded. */
  const current = new Int32Array(new SharedArrayBuffer(4));
  const startedUp = new Int32Array(new SharedArrayBuffer(4));
  /** How many workers have finished loading their module (the data loaded, or failed to). */
  const evaluated = new Int32Array(new SharedArrayBuffer(4));
  /** Workers that panicked, by thread id, until they are gone: they take no task and are not capacity. */
  const poisoned = new Map<number, Worker>();

  const pool = new Piscina<Task, unknown>({
    filename: new URL('./oxigraph-worker.js', import.meta.url).href,
    minThreads: workers,
    maxThreads: workers,
    idleTimeout: Infinity,
    workerData: { files: options.files, graph: options.graph, stamps, started: startedUp, evaluated, current },
    // An idle worker that has not panicked (`id` is -1 once a thread has exited). A task of
    // `everyWorker` waits for its own thread (any idle one if that thread is gone: `load` and
    // `drop` may run twice on a worker); other tasks leave a thread that one waits for to it when
    // another is idle, but never wait for it: piscina looks at its queue only when a worker frees
    // up, so a task that waits while a worker it could take is idle may wait for ever.
    loadBalancer: (task, candidates) => {
      const idle = candidates.filter((w) => w.currentUsage === 0 && w.id !== -1 && !poisoned.has(w.id));
      const target = ((task as unknown as Record<symbol, unknown>)[TARGET] as { threadId?: number } | null)?.threadId;
      if (target !== undefined)
        return candidates.some((w) => w.id === target)
          ? (idle.find((w) => w.id === target) ?? null)
          : (idle[0] ?? null);
      return idle.find((w) => !reserved.has(w.id)) ?? idle[0] ?? null;
    },
  });
  /** Threads that tasks of `everyWorker` wait for, with how many wait. */
  const reserved = new Map<number, number>();
  // Piscina only dispatches to loaded workers (a replacement is ready once its module has run), so
  // an idle thread is one that can start a query now.
  const gate = new LaneGate(limits, () => pool.idleThreads > poisoned.size);
  /** Generations of the data whose `Store` is open; the pool stops with the last. */
  const open = new Set<number>([0]);
  let lastWorkerError: unknown;

  // Without a listener, a worker crashing while idle would be an uncaught 'error' event.
  pool.on('error', (error: unknown) => {
    lastWorkerError = error;
    logger?.error({ err: error }, 'oxigraph worker failed; the store goes on with the workers it has');
  });
  pool.on('workerDestroy', () => {
    for (const [id, worker] of poisoned) if (worker.threadId === -1) poisoned.delete(id);
  });
  // A replacement is loaded: queries waiting for a worker can start. Piscina emits this just before
  // it counts the worker among the ready ones (in the same turn), hence the microtask.
  pool.on('workerCreate', () => queueMicrotask(() => gate.wake()));
  pool.on('message', (message: unknown) => {
    const loaded = (message as Partial<Loaded> | null)?.oxigraphLoaded;
    if (loaded?.replacement)
      logger?.info({ ...loaded }, `oxigraph worker replaced: ${loaded.triples} triples loaded in ${loaded.loadMs} ms`);
  });

  let loaded: WorkerInfo[];
  try {
    loaded = await waitForAllWorkers(pool, workers, 0);
  } catch (error) {
    // The first worker to fail stops the start, while the others may still be loading their
    // modules: terminating a thread then aborts the process (Node's `module_wrap.cc` assertion,
    // exit 134, about once in 30 failed starts with 8 workers), so wait until each has evaluated.
    await untilEvaluated(evaluated, workers, timeoutMs);
    await pool.destroy();
    // Rebuild the error: the one cloned from the worker carries a worker-side stack the CLI must not print.
    throw new Error(error instanceof Error ? error.message : String(error));
  }

  const triples = loaded[0]?.triples ?? 0;
  const graphTriples = loaded[0]?.graphTriples ?? null;
  if (options.graph !== undefined && graphTriples === 0) {
    const graphs = { op: 'graphs', limit: SHOWN_GRAPHS + 1, generation: 0 } as const;
    const available = (await pool.run(graphs).catch(() => [])) as string[];
    await pool.destroy();
    throw new GraphNotFoundError(options.graph, available, options.files);
  }
  Atomics.store(startedUp, 0, 1);

  const loadMs = Math.max(...loaded.map((info) => info.loadMs));
  const spare = Math.max(0, workers - limits.light - limits.heavy);
  logger?.info(
    {
      files: options.files.length,
      triples,
      workers,
      ...limits,
      loadMs,
      readyMs: Math.round(performance.now() - started),
      ...(options.graph === undefined ? { graph: 'union' } : { graph: options.graph, graphTriples }),
    },
    `oxigraph loaded ${triples} triples from ${options.files.length} files in ${loadMs} ms; ${
      options.graph === undefined
        ? 'serving the union of all their graphs'
        : `serving graph <${options.graph}> alone (${graphTriples} triples)`
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

  /** Takes a worker that panicked out of service: no task goes to it again, and piscina replaces it once it has exited. */
  const retire = (threadId: number) => {
    const worker = pool.threads.find((thread) => thread.threadId === threadId);
    if (worker === undefined) return;
    poisoned.set(threadId, worker);
    void worker.terminate();
  };

  /** Runs one task in `lane` under the caller's signal and `timeoutMs`; failures become StoreErrors. */
  const runTask = async (task: Task, lane: Lane, callerSignal: AbortSignal | undefined): Promise<unknown> => {
    const closed = () => !open.has(task.generation);
    if (closed()) throw new StoreError('unavailable', 'the oxigraph store is closed');
    callerSignal?.throwIfAborted();
    if (pool.threads.length === 0) {
      const why = lastWorkerError instanceof Error ? `: ${lastWorkerError.message}` : '';
      throw new StoreError('unavailable', `no oxigraph worker is left${why}`);
    }
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = callerSignal ? AbortSignal.any([callerSignal, timeout]) : timeout;
    // The worker stops at the deadline, or ABANDONED_GRACE_MS after the caller went away; the
    // caller is answered at once, and the lane's slot stays taken until the worker is free.
    const abandoned = new AbortController();
    let grace: NodeJS.Timeout | undefined;
    const stopLater = () => {
      grace = setTimeout(() => abandoned.abort(callerSignal?.reason), ABANDONED_GRACE_MS).unref();
    };
    const workerSignal = AbortSignal.any([timeout, abandoned.signal]);
    // Checked as the answer arrives, before the lane's slot is given to the next query, so that
    // no task is sent to a worker that has panicked.
    const attempt = () =>
      pool.run(task, { signal: workerSignal }).then((result) => {
        if (isFailure(result)) retire(result.threadId);
        return result;
      });
    try {
      const answer = gate.run(lane, signal, async () => {
        if (callerSignal?.aborted) stopLater();
        else callerSignal?.addEventListener('abort', stopLater, { once: true });
        try {
          const first = await attempt();
          // Sent to a worker in the instant between its panic and its retirement: it never ran there.
          return isFailure(first) && 'refused' in first ? attempt() : first;
        } finally {
          callerSignal?.removeEventListener('abort', stopLater);
          clearTimeout(grace);
        }
      });
      const result = await (callerSignal ? untilAborted(answer, callerSignal) : answer);
      if (isFailure(result)) {
        throw 'panic' in result
          ? new StoreError('query', `the embedded store (Oxigraph) failed on this query: ${result.panic}`)
          : new StoreError('unavailable', `an oxigraph worker failed and is being replaced: ${result.refused}`);
      }
      return result;
    } catch (error) {
      callerSignal?.throwIfAborted();
      if (error instanceof StoreError) throw error;
      if (timeout.aborted)
        throw new StoreError('timeout', `the embedded store did not answer within ${timeoutMs} ms`, { cause: error });
      if (closed()) throw new StoreError('unavailable', 'the oxigraph store is closed', { cause: error });
      throw new StoreError('query', error instanceof Error ? error.message : String(error), { cause: error });
    }
  };

  /** Runs `task` on each worker in turn, so that the others go on serving; resolves their answers. */
  const everyWorker = async (task: Task): Promise<unknown[]> => {
    const answers: unknown[] = [];
    for (const { threadId } of pool.threads) {
      reserved.set(threadId, (reserved.get(threadId) ?? 0) + 1);
      try {
        answers.push(await pool.run({ ...task, [TARGET]: { threadId } }));
      } finally {
        const waiting = reserved.get(threadId)! - 1;
        if (waiting === 0) reserved.delete(threadId);
        else reserved.set(threadId, waiting);
        // The gate counts idle workers: a query may have waited for this one.
        gate.wake();
      }
    }
    return answers;
  };
  let latest = 0;

  /** The store of one generation of the data: queries read it until it is closed. */
  const generationStore = (generation: number, triples: number, graphTriples: number | null): Store => ({
    description: `oxigraph (${options.files.length} files, ${triples} triples${
      options.graph === undefined ? '' : `, graph <${options.graph}>: ${graphTriples} triples`
    }, ${workers} workers)`,
    oneGraph: options.graph !== undefined,

    async select(query: string, { signal, lane = 'heavy' }: SelectOptions = {}): Promise<Row[]> {
      const json = await runTask({ op: 'select', query, generation }, lane, signal);
      if (typeof json !== 'string') throw new StoreError('unexpected', 'an oxigraph worker answered with no results');
      return parseSelectResults(json);
    },

    /** Asks a worker for its figures, on the light lane unless told otherwise. */
    async ping({ signal, lane = 'light' }: SelectOptions = {}): Promise<void> {
      await runTask({ op: 'info', generation }, lane, signal);
    },

    async reload(): Promise<Store> {
      if (!open.has(generation)) throw new StoreError('unavailable', 'the oxigraph store is closed');
      const next = ++latest;
      const started = performance.now();
      const read = readStamps();
      open.add(next);
      let infos: WorkerInfo[];
      try {
        infos = (await everyWorker({ op: 'load', generation: next })) as WorkerInfo[];
        if (options.graph !== undefined && infos[0]?.graphTriples === 0)
          throw new GraphNotFoundError(options.graph, [], options.files);
        // The workers read one after the other: a file written meanwhile may differ between them.
        if (readStamps().some((stamp, index) => stamp !== read[index]))
          throw new Error('the files changed while they were loaded; load them again once they are written');
      } catch (error) {
        open.delete(next);
        await everyWorker({ op: 'drop', generation: next }).catch(() => undefined);
        // Rebuild the error: the one cloned from the worker carries a worker-side stack.
        throw error instanceof GraphNotFoundError
          ? error
          : new Error(error instanceof Error ? error.message : String(error));
      }
      // Replacements load this generation from now on, and check the files against these stamps.
      stamps.set(read);
      Atomics.store(current, 0, next);
      const loaded = infos[0];
      logger?.info(
        {
          generation: next,
          triples: loaded?.triples,
          loadMs: Math.max(...infos.map((i) => i.loadMs)),
          readyMs: Math.round(performance.now() - started),
        },
        `oxigraph reloaded ${loaded?.triples} triples from ${options.files.length} files, worker by worker`,
      );
      return generationStore(next, loaded?.triples ?? 0, loaded?.graphTriples ?? null);
    },

    async close(): Promise<void> {
      if (!open.delete(generation)) return;
      if (open.size > 0) {
        await everyWorker({ op: 'drop', generation }).catch(() => undefined);
        return;
      }
      gate.close(new StoreError('unavailable', 'the oxigraph store is closed'));
      await pool.destroy();
    },
  });
  return generationStore(0, triples, graphTriples);
}

const isFailure = (result: unknown): result is Failure =>
  typeof result === 'object' && result !== null && ('panic' in result || 'refused' in result);

/**
 * Resolves once each of the `count` workers has answered an `info` task. A worker only runs
 * tasks after its module (the load) has finished, and piscina may hand two tasks to the same
 * fast worker, so keep asking until `count` distinct threads have answered.
 */
async function waitForAllWorkers(
  pool: Piscina<Task, unknown>,
  count: number,
  generation: number,
): Promise<WorkerInfo[]> {
  const seen = new Map<number, WorkerInfo>();
  for (let round = 0; seen.size < count; round++) {
    if (round === 50) throw new Error(`only ${seen.size} of ${count} oxigraph workers answered`);
    const answers = await Promise.all(
      Array.from({ length: count }, () => pool.run({ op: 'info', generation }) as Promise<WorkerInfo>),
    );
    const before = seen.size;
    for (const info of answers) seen.set(info.threadId, info);
    // No new worker answered: give a still-starting thread a moment before asking again.
    if (seen.size === before) await delay(20 * round);
  }
  return [...seen.values()];
}

/**
 * Resolves once `count` workers have evaluated their module (the worker counts itself in
 * `evaluated`), or after `timeoutMs` if one never does (a thread that crashed while loading).
 */
async function untilEvaluated(evaluated: Int32Array, count: number, timeoutMs: number): Promise<void> {
  // Polled: this only runs on a failed start, and a few milliseconds of latency don't matter there.
  const deadline = performance.now() + timeoutMs;
  while (Atomics.load(evaluated, 0) < count && performance.now() < deadline) await delay(5);
}

/** `promise`, or a rejection with `signal.reason` as soon as `signal` aborts; `promise` settles unheeded then. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      promise.catch(() => undefined);
      reject(signal.reason);
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
