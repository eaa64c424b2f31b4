import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from 'pino';
import { Piscina } from 'piscina';
import { parseSelectResults } from './parse-select-results.js';
import { type Row, type SelectOptions, type Store, StoreError } from './store.js';

export interface OxigraphStoreOptions {
  /** RDF files to load: `.ttl`, `.nt`, `.nq` or `.trig` (format from the extension). */
  files: string[];
  /** Worker threads, each holding its own copy of the data. Default 2. */
  workers?: number;
  logger?: Logger;
}

type Task = { op: 'info' } | { op: 'select'; query: string };
interface WorkerInfo {
  threadId: number;
  triples: number;
  loadMs: number;
}

/**
 * Starts the embedded store: a pool of `workers` threads, each loading every file into its own
 * in-memory Oxigraph store. Queries are synchronous WASM calls, so they run on the pool and a
 * slow one occupies one worker instead of the event loop. Resolves once every worker has loaded;
 * rejects with `<file>: <parser message>` when a file cannot be parsed.
 */
export async function createOxigraphStore(options: OxigraphStoreOptions): Promise<Store> {
  const workers = options.workers ?? 2;
  if (!Number.isInteger(workers) || workers < 1) throw new Error(`workers must be a positive integer, got ${workers}`);
  const started = performance.now();
  const pool = new Piscina<Task, unknown>({
    filename: new URL('./oxigraph-worker.js', import.meta.url).href,
    minThreads: workers,
    maxThreads: workers,
    idleTimeout: Infinity,
    workerData: { files: options.files },
  });
  // Without a listener, a worker crashing while idle would be an uncaught 'error' event.
  pool.on('error', (error: unknown) => options.logger?.error({ err: error }, 'oxigraph worker failed'));

  let loaded: WorkerInfo[];
  try {
    loaded = await waitForAllWorkers(pool, workers);
  } catch (error) {
    await pool.destroy();
    // Rebuild the error: the one cloned from the worker carries a worker-side stack the CLI must not print.
    throw new Error(error instanceof Error ? error.message : String(error));
  }

  const triples = loaded[0]?.triples ?? 0;
  const loadMs = Math.max(...loaded.map((info) => info.loadMs));
  options.logger?.info(
    { files: options.files.length, triples, workers, loadMs, readyMs: Math.round(performance.now() - started) },
    `oxigraph loaded ${triples} triples from ${options.files.length} files in ${loadMs} ms`,
  );

  let closed = false;
  return {
    description: `oxigraph (${options.files.length} files, ${triples} triples, ${workers} workers)`,

    async select(query: string, { signal }: SelectOptions = {}): Promise<Row[]> {
      if (closed) throw new StoreError('unavailable', 'the oxigraph store is closed');
      signal?.throwIfAborted();
      let json: unknown;
      try {
        // Aborting a task that is already running stops its worker; piscina starts a replacement,
        // which reloads the files before it takes tasks.
        json = await pool.run({ op: 'select', query }, signal ? { signal } : {});
      } catch (error) {
        signal?.throwIfAborted();
        if (closed) throw new StoreError('unavailable', 'the oxigraph store is closed', { cause: error });
        throw new StoreError('query', error instanceof Error ? error.message : String(error), { cause: error });
      }
      try {
        return parseSelectResults(String(json));
      } catch (error) {
        throw new StoreError('query', `unreadable oxigraph result: ${(error as Error).message}`, { cause: error });
      }
    },

    async ping(): Promise<void> {
      if (closed) throw new StoreError('unavailable', 'the oxigraph store is closed');
      await pool.run({ op: 'info' });
    },

    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      await pool.destroy();
    },
  };
}

/**
 * Resolves once each of the `count` workers has answered an `info` task. A worker only runs
 * tasks after its module (the load) has finished, and piscina may hand two tasks to the same
 * fast worker, so keep asking until `count` distinct threads have answered.
 */
async function waitForAllWorkers(pool: Piscina<Task, unknown>, count: number): Promise<WorkerInfo[]> {
  const seen = new Map<number, WorkerInfo>();
  for (let round = 0; seen.size < count; round++) {
    if (round === 50) throw new Error(`only ${seen.size} of ${count} oxigraph workers answered`);
    const answers = await Promise.all(
      Array.from({ length: count }, () => pool.run({ op: 'info' }) as Promise<WorkerInfo>),
    );
    const before = seen.size;
    for (const info of answers) seen.set(info.threadId, info);
    // No new worker answered: give a still-starting thread a moment before asking again.
    if (seen.size === before) await delay(20 * round);
  }
  return [...seen.values()];
}
