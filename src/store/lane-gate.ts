import { type Lane, StoreError } from './store.js';

/** How many queries may wait: one length for each lane, or a length per lane. */
export type QueueLimit = number | Readonly<Record<Lane, number>>;

/** How many queries of each lane run at once, and how many may wait (per lane). */
export interface LaneLimits {
  readonly light: number;
  readonly heavy: number;
  readonly queue: QueueLimit;
}

/** Lane limits as a configuration gives them: any key may be left out, a lane's queue too. */
export interface LaneLimitsInput {
  readonly light?: number | undefined;
  readonly heavy?: number | undefined;
  readonly queue?: number | Readonly<Partial<Record<Lane, number>>> | undefined;
}

/** How many queries may wait in `lane`. */
export const queueLength = (queue: QueueLimit, lane: Lane): number => (typeof queue === 'number' ? queue : queue[lane]);

/**
 * `limits` with `defaults` for what it leaves out (a key given as undefined included, and a lane
 * a queue object leaves out).
 *
 * @example laneLimits(EMBEDDED_QUERIES, { queue: { heavy: 4 } }) // { light: 1, heavy: 1, queue: { light: 64, heavy: 4 } }
 */
export function laneLimits(defaults: LaneLimits, limits: LaneLimitsInput = {}): LaneLimits {
  const { queue } = limits;
  return {
    light: limits.light ?? defaults.light,
    heavy: limits.heavy ?? defaults.heavy,
    queue:
      queue === undefined || typeof queue === 'number'
        ? (queue ?? defaults.queue)
        : {
            light: queue.light ?? queueLength(defaults.queue, 'light'),
            heavy: queue.heavy ?? queueLength(defaults.queue, 'heavy'),
          },
  };
}

/** What runs and waits in each lane now. */
export type LaneLoad = Readonly<Record<Lane, { readonly running: number; readonly waiting: number }>>;

const LANES: readonly Lane[] = ['light', 'heavy'];

interface Waiter {
  /** Starts the query (synchronously); called once, when the waiter leaves the queue for a slot. */
  start(): void;
  /** Takes the waiter out of the queue with an error (closed store); its abort listener goes too. */
  fail(error: unknown): void;
}

/**
 * Admission control for one store: at most `limits.light` light and `limits.heavy` heavy queries
 * run at once, so light queries never wait behind heavy ones; up to `limits.queue` more wait per
 * lane (one length for both, or one each), in order of arrival; past that, {@link StoreError} `overloaded` at once, with nothing sent
 * to the store.
 *
 * `canStart` gates every start on a resource the lanes share (the embedded store: an idle, loaded
 * worker). It is asked right before a task starts, and the task starts synchronously, so that the
 * resource is claimed before the next question; call {@link wake} when it may have freed up. When
 * it is scarce, the waiting lane with the smaller share of its limit in use goes first (light on a
 * tie), so neither lane starves the other.
 *
 * @example const rows = await gate.run('light', signal, () => sendQuery(query, signal))
 */
export class LaneGate {
  private readonly running: Record<Lane, number> = { light: 0, heavy: 0 };
  private readonly waiting: Record<Lane, Waiter[]> = { light: [], heavy: [] };
  private closedWith: Error | undefined;

  constructor(
    readonly limits: LaneLimits,
    private readonly canStart: () => boolean = () => true,
  ) {
    for (const lane of LANES) {
      if (!Number.isInteger(limits[lane]) || limits[lane] < 1)
        throw new Error(`queries.${lane} must be a positive integer, got ${limits[lane]}`);
    }
    for (const lane of LANES) {
      const length = queueLength(limits.queue, lane);
      if (!Number.isInteger(length) || length < 0)
        throw new Error(
          `queries.queue${typeof limits.queue === 'number' ? '' : `.${lane}`} must be a non-negative integer, got ${length}`,
        );
    }
  }

  /**
   * Runs `task` in `lane` once a slot is free (at once if one is). Rejects with `overloaded` when
   * the lane's queue is full, with `signal.reason` when the signal aborts while the task waits
   * (once started, stopping it is the task's business), and with the close error after {@link close}.
   */
  run<T>(lane: Lane, signal: AbortSignal | undefined, task: () => Promise<T>): Promise<T> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    if (signal?.aborted) return Promise.reject(signal.reason);
    const queue = this.waiting[lane];
    if (queue.length === 0 && this.running[lane] < this.limits[lane] && this.canStart()) return this.start(lane, task);
    if (queue.length >= queueLength(this.limits.queue, lane)) {
      return Promise.reject(
        new StoreError(
          'overloaded',
          `the ${lane} lane is full: ${this.running[lane]} queries running and ${queue.length} waiting`,
        ),
      );
    }
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => {
        const index = queue.indexOf(waiter);
        if (index !== -1) queue.splice(index, 1);
        reject(signal?.reason);
      };
      const waiter: Waiter = {
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          this.start(lane, task).then(resolve, reject);
        },
        fail: (error) => {
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      queue.push(waiter);
    });
  }

  /** Starts waiting tasks while slots (and the shared resource) allow; call when `canStart` may have turned true. */
  wake(): void {
    for (;;) {
      const lane = this.nextLane();
      if (lane === undefined || !this.canStart()) return;
      this.waiting[lane].shift()!.start();
    }
  }

  /** Queries running and waiting per lane. */
  load(): LaneLoad {
    return {
      light: { running: this.running.light, waiting: this.waiting.light.length },
      heavy: { running: this.running.heavy, waiting: this.waiting.heavy.length },
    };
  }

  /** Rejects every waiting task, and every later one, with `error`; running tasks go on. */
  close(error: Error): void {
    this.closedWith = error;
    for (const lane of LANES) for (const waiter of this.waiting[lane].splice(0)) waiter.fail(error);
  }

  private start<T>(lane: Lane, task: () => Promise<T>): Promise<T> {
    this.running[lane] += 1;
    let settled: Promise<T>;
    try {
      settled = task();
    } catch (error) {
      settled = Promise.reject(error);
    }
    return settled.finally(() => {
      this.running[lane] -= 1;
      this.wake();
    });
  }

  /** The lane whose first waiter starts next: one with a free slot, the less used first (light on a tie). */
  private nextLane(): Lane | undefined {
    let best: Lane | undefined;
    for (const lane of LANES) {
      if (this.waiting[lane].length === 0 || this.running[lane] >= this.limits[lane]) continue;
      if (best === undefined || this.running[lane] / this.limits[lane] < this.running[best] / this.limits[best])
        best = lane;
    }
    return best;
  }
}
