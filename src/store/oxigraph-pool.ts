import { statSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import type { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import { Piscina } from 'piscina';
import { LaneGate, type LaneLimits } from './lane-gate.js';

/** A task for the workers; each names the generation of the data it reads (oxigraph-worker.js). */
export type Task = (
  | { op: 'info' }
  | { op: 'graphs'; limit: number }
  | { op: 'select'; query: string }
  | { op: 'load' }
  | { op: 'drop' }
) & { generation: number };

/** What a worker says about itself and the data it loaded. */
export interface WorkerInfo {
  threadId: number;
  /** Quads in the store, every graph counted. */
  triples: number;
  /** Triples in the `graph` option's graph; null without one. */
  graphTriples: number | null;
  loadMs: number;
}

/** What a worker says when Oxigraph panicked on the query (`panic`), or when it panicked before (`refused`). */
export type Failure = { panic: string; threadId: number } | { refused: string; threadId: number };

/** What a worker posts once it has loaded the data. */
interface Loaded {
  oxigraphLoaded: WorkerInfo & { replacement: boolean };
}

export const isFailure = (result: unknown): result is Failure =>
  typeof result === 'object' && result !== null && ('panic' in result || 'refused' in result);

/** Where piscina's load balancer finds the thread a task must run on (`everyWorker`). */
const TARGET = Piscina.queueOptionsSymbol;
type LoadBalancer = NonNullable<NonNullable<ConstructorParameters<typeof Piscina>[0]>['loadBalancer']>;

export interface OxigraphPoolOptions {
  readonly files: string[];
  readonly graph: string | undefined;
  readonly workers: number;
  readonly limits: LaneLimits;
  readonly logger: Logger | undefined;
}

/**
 * The embedded store's worker threads (piscina), each holding its own copy of the data, and the
 * {@link LaneGate} that admits queries to them. It knows which workers can take a task (loaded,
 * idle, not panicked), runs a task on every worker in turn, and shares with the workers what a
 * replacement needs: the files' stamps and the current generation of the data.
 */
export class OxigraphPool {
  /**
   * A replacement worker checks that the files are the ones the other workers loaded: each file's
   * size and modification time (-1 when missing: the workers report that with Node's message).
   */
  readonly stamps: Float64Array;
  /** The generation of the data a replacement worker loads: the latest the store has loaded. */
  readonly current = new Int32Array(new SharedArrayBuffer(4));
  readonly startedUp = new Int32Array(new SharedArrayBuffer(4));
  /** How many workers have finished loading their module (the data loaded, or failed to). */
  readonly evaluated = new Int32Array(new SharedArrayBuffer(4));
  readonly piscina: Piscina<Task, unknown>;
  readonly gate: LaneGate;
  /** The last error a worker failed with, for the message once none is left. */
  lastWorkerError: unknown;
  /** Workers that panicked, by thread id, until they are gone: they take no task and are not capacity. */
  private readonly poisoned = new Map<number, Worker>();
  /** Threads that tasks of `everyWorker` wait for, with how many wait. */
  private readonly reserved = new Map<number, number>();

  constructor(private readonly options: OxigraphPoolOptions) {
    const { files, graph, workers } = options;
    this.stamps = new Float64Array(new SharedArrayBuffer(16 * files.length));
    this.stamps.set(this.readStamps());
    const { stamps, startedUp: started, evaluated, current } = this;
    this.piscina = new Piscina<Task, unknown>({
      filename: new URL('./oxigraph-worker.js', import.meta.url).href,
      minThreads: workers,
      maxThreads: workers,
      idleTimeout: Infinity,
      workerData: { files, graph, stamps, started, evaluated, current },
      loadBalancer: this.idleWorker,
    });
    // Piscina only dispatches to loaded workers (a replacement is ready once its module has run), so
    // an idle thread is one that can start a query now.
    this.gate = new LaneGate(options.limits, () => this.piscina.idleThreads > this.poisoned.size);
    this.listen();
  }

  /** Each file's size and modification time, as the workers compare them. */
  readStamps(): number[] {
    return this.options.files.flatMap((file) => {
      const stat = statSync(file, { throwIfNoEntry: false });
      return [stat?.size ?? -1, stat?.mtimeMs ?? -1];
    });
  }

  // An idle worker that has not panicked (`id` is -1 once a thread has exited). A task of
  // `everyWorker` waits for its own thread (any idle one if that thread is gone: `load` and
  // `drop` may run twice on a worker); other tasks leave a thread that one waits for to it when
  // another is idle, but never wait for it: piscina looks at its queue only when a worker frees
  // up, so a task that waits while a worker it could take is idle may wait for ever.
  private readonly idleWorker: LoadBalancer = (task, candidates) => {
    const idle = candidates.filter((w) => w.currentUsage === 0 && w.id !== -1 && !this.poisoned.has(w.id));
    const target = ((task as unknown as Record<symbol, unknown>)[TARGET] as { threadId?: number } | null)?.threadId;
    if (target !== undefined)
      return candidates.some((w) => w.id === target) ? (idle.find((w) => w.id === target) ?? null) : (idle[0] ?? null);
    return idle.find((w) => !this.reserved.has(w.id)) ?? idle[0] ?? null;
  };

  private listen(): void {
    const { piscina } = this;
    const { logger } = this.options;
    // Without a listener, a worker crashing while idle would be an uncaught 'error' event.
    piscina.on('error', (error: unknown) => {
      this.lastWorkerError = error;
      logger?.error({ err: error }, 'oxigraph worker failed; the store goes on with the workers it has');
    });
    piscina.on('workerDestroy', () => {
      for (const [id, worker] of this.poisoned) if (worker.threadId === -1) this.poisoned.delete(id);
    });
    // A replacement is loaded: queries waiting for a worker can start. Piscina emits this just before
    // it counts the worker among the ready ones (in the same turn), hence the microtask.
    piscina.on('workerCreate', () => queueMicrotask(() => this.gate.wake()));
    piscina.on('message', (message: unknown) => {
      const loaded = (message as Partial<Loaded> | null)?.oxigraphLoaded;
      if (loaded?.replacement)
        logger?.info(
          { ...loaded },
          `oxigraph worker replaced: ${loaded.triples} triples loaded in ${loaded.loadMs} ms`,
        );
    });
  }

  /**
   * Resolves once every worker has loaded the data (generation 0), with what each says. When one
   * fails, waits until each has evaluated its module, stops the pool and rejects with its message.
   */
  async start(timeoutMs: number): Promise<WorkerInfo[]> {
    try {
      return await waitForAllWorkers(this.piscina, this.options.workers, 0);
    } catch (error) {
      // The first worker to fail stops the start, while the others may still be loading their
      // modules: terminating a thread then aborts the process (Node's `module_wrap.cc` assertion,
      // exit 134, about once in 30 failed starts with 8 workers), so wait until each has evaluated.
      await untilEvaluated(this.evaluated, this.options.workers, timeoutMs);
      await this.piscina.destroy();
      // Rebuild the error: the one cloned from the worker carries a worker-side stack the CLI must not print.
      throw new Error(error instanceof Error ? error.message : String(error));
    }
  }

  /** Takes a worker that panicked out of service: no task goes to it again, and piscina replaces it once it has exited. */
  retire(threadId: number): void {
    const worker = this.piscina.threads.find((thread) => thread.threadId === threadId);
    if (worker === undefined) return;
    this.poisoned.set(threadId, worker);
    void worker.terminate();
  }

  /** Runs `task` on each worker in turn, so that the others go on serving; resolves their answers. */
  async everyWorker(task: Task): Promise<unknown[]> {
    const answers: unknown[] = [];
    for (const { threadId } of this.piscina.threads) {
      this.reserved.set(threadId, (this.reserved.get(threadId) ?? 0) + 1);
      try {
        answers.push(await this.piscina.run({ ...task, [TARGET]: { threadId } }));
      } finally {
        const waiting = this.reserved.get(threadId)! - 1;
        if (waiting === 0) this.reserved.delete(threadId);
        else this.reserved.set(threadId, waiting);
        // The gate counts idle workers: a query may have waited for this one.
        this.gate.wake();
      }
    }
    return answers;
  }
}

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
