import type { Logger } from 'pino';
import { GraphNotFoundError } from './graph-not-found-error.js';
import type { OxigraphPool, WorkerInfo } from './oxigraph-pool.js';
import { parseSelectResults } from './parse-select-results.js';
import { runOxigraphTask } from './run-oxigraph-task.js';
import { type Row, type SelectOptions, type Store, StoreError } from './store.js';

/** What every generation of the embedded store shares: its pool, its options, which generations are open. */
export interface OxigraphContext {
  readonly pool: OxigraphPool;
  readonly files: string[];
  readonly graph: string | undefined;
  readonly workers: number;
  readonly timeoutMs: number;
  readonly logger: Logger | undefined;
  /** Generations of the data whose `Store` is open; the pool stops with the last. */
  readonly open: Set<number>;
  /** The newest generation loaded, or being loaded. */
  latest: number;
}

/** One generation of the data, as the workers loaded it. */
export interface Generation {
  readonly generation: number;
  readonly triples: number;
  readonly graphTriples: number | null;
}

/**
 * The embedded store of one generation of the data: queries read it until it is closed, and
 * `reload` loads the next one, worker by worker, while this one goes on serving.
 */
export function generationStore(context: OxigraphContext, { generation, triples, graphTriples }: Generation): Store {
  const { pool, files, graph, workers, open } = context;
  const run = (task: Parameters<typeof runOxigraphTask>[1], { signal, lane }: SelectOptions) =>
    runOxigraphTask(pool, task, {
      lane: lane ?? 'heavy',
      signal,
      timeoutMs: context.timeoutMs,
      closed: () => !open.has(task.generation),
    });
  return {
    description: `oxigraph (${files.length} files, ${triples} triples${
      graph === undefined ? '' : `, graph <${graph}>: ${graphTriples} triples`
    }, ${workers} workers)`,
    oneGraph: graph !== undefined,

    async select(query: string, { signal, lane = 'heavy' }: SelectOptions = {}): Promise<Row[]> {
      const json = await run({ op: 'select', query, generation }, { signal, lane });
      if (typeof json !== 'string') throw new StoreError('unexpected', 'an oxigraph worker answered with no results');
      return parseSelectResults(json);
    },

    /** Asks a worker for its figures, on the light lane unless told otherwise. */
    async ping({ signal, lane = 'light' }: SelectOptions = {}): Promise<void> {
      await run({ op: 'info', generation }, { signal, lane });
    },

    reload: () => reload(context, generation),

    async close(): Promise<void> {
      if (!open.delete(generation)) return;
      if (open.size > 0) {
        await pool.everyWorker({ op: 'drop', generation }).catch(() => undefined);
        return;
      }
      pool.gate.close(new StoreError('unavailable', 'the oxigraph store is closed'));
      await pool.piscina.destroy();
    },
  };
}

/** Loads the files again as the next generation, on each worker in turn, and answers its store. */
async function reload(context: OxigraphContext, generation: number): Promise<Store> {
  const { pool, files, graph, open, logger } = context;
  if (!open.has(generation)) throw new StoreError('unavailable', 'the oxigraph store is closed');
  const next = ++context.latest;
  const started = performance.now();
  const read = pool.readStamps();
  open.add(next);
  let infos: WorkerInfo[];
  try {
    infos = (await pool.everyWorker({ op: 'load', generation: next })) as WorkerInfo[];
    if (graph !== undefined && infos[0]?.graphTriples === 0) throw new GraphNotFoundError(graph, [], files);
    // The workers read one after the other: a file written meanwhile may differ between them.
    if (pool.readStamps().some((stamp, index) => stamp !== read[index]))
      throw new Error('the files changed while they were loaded; load them again once they are written');
  } catch (error) {
    open.delete(next);
    await pool.everyWorker({ op: 'drop', generation: next }).catch(() => undefined);
    // Rebuild the error: the one cloned from the worker carries a worker-side stack.
    throw error instanceof GraphNotFoundError
      ? error
      : new Error(error instanceof Error ? error.message : String(error));
  }
  // Replacements load this generation from now on, and check the files against these stamps.
  pool.stamps.set(read);
  Atomics.store(pool.current, 0, next);
  const loaded = infos[0];
  logger?.info(
    {
      generation: next,
      triples: loaded?.triples,
      loadMs: Math.max(...infos.map((i) => i.loadMs)),
      readyMs: Math.round(performance.now() - started),
    },
    `oxigraph reloaded ${loaded?.triples} triples from ${files.length} files, worker by worker`,
  );
  return generationStore(context, {
    generation: next,
    triples: loaded?.triples ?? 0,
    graphTriples: loaded?.graphTriples ?? null,
  });
}
