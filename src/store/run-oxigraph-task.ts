import { isFailure, type OxigraphPool, type Task } from './oxigraph-pool.js';
import { type Lane, StoreError } from './store.js';

/**
 * How long a query may run on for a caller that went away before its worker is stopped. Stopping
 * one costs its replacement a load of the data (10 s of a core at 1M triples), far more than a
 * query of a few milliseconds that finishes for nobody: an end of load that dropped 10 requests
 * in flight used to stop every worker at once, and no request was answered until they reloaded.
 */
const ABANDONED_GRACE_MS = 1_000;

export interface TaskOptions {
  readonly lane: Lane;
  /** The caller's signal: it is answered at once when it aborts. */
  readonly signal: AbortSignal | undefined;
  /** Longest the task may take, waiting for a worker included; past it its worker is stopped. */
  readonly timeoutMs: number;
  /** Whether the task's generation of the data has been closed. */
  readonly closed: () => boolean;
}

/**
 * Runs one task of the embedded store in its lane under the caller's signal and the deadline;
 * failures become {@link StoreError}s: `unavailable` (closed, no worker left, a worker being
 * replaced), `query` (Oxigraph failed or panicked on it), `timeout`.
 *
 * @example
 *   const json = await runOxigraphTask(pool, { op: 'select', query, generation: 0 },
 *     { lane: 'light', signal, timeoutMs: 10_000, closed: () => false });
 */
export async function runOxigraphTask(pool: OxigraphPool, task: Task, options: TaskOptions): Promise<unknown> {
  const { signal: callerSignal, timeoutMs, closed } = options;
  if (closed()) throw new StoreError('unavailable', 'the oxigraph store is closed');
  callerSignal?.throwIfAborted();
  if (pool.piscina.threads.length === 0) {
    const why = pool.lastWorkerError instanceof Error ? `: ${pool.lastWorkerError.message}` : '';
    throw new StoreError('unavailable', `no oxigraph worker is left${why}`);
  }
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = callerSignal ? AbortSignal.any([callerSignal, timeout]) : timeout;
  try {
    const answer = pool.gate.run(options.lane, signal, () => runOnWorker(pool, task, { timeout, callerSignal }));
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
}

/**
 * Runs the task on a worker, once the lane has admitted it. The worker stops at the deadline, or
 * ABANDONED_GRACE_MS after the caller went away; the caller is answered at once, and the lane's
 * slot stays taken until the worker is free.
 */
async function runOnWorker(
  pool: OxigraphPool,
  task: Task,
  { timeout, callerSignal }: { timeout: AbortSignal; callerSignal: AbortSignal | undefined },
): Promise<unknown> {
  const abandoned = new AbortController();
  let grace: NodeJS.Timeout | undefined;
  const stopLater = () => {
    grace = setTimeout(() => abandoned.abort(callerSignal?.reason), ABANDONED_GRACE_MS).unref();
  };
  const workerSignal = AbortSignal.any([timeout, abandoned.signal]);
  // Checked as the answer arrives, before the lane's slot is given to the next query, so that
  // no task is sent to a worker that has panicked.
  const attempt = () =>
    pool.piscina.run(task, { signal: workerSignal }).then((result) => {
      if (isFailure(result)) pool.retire(result.threadId);
      return result;
    });
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
