import { type Lane, StoreError } from './store.js';

/** How many queries of each lane run at once, and how many may wait (per lane). */
export interface LaneLimits {
  readonly light: number;
  readonly heavy: number;
  readonly queue: number;
}

/** `limits` with `defaults` for what it leaves out (a key given as undefined included). */
export function laneLimits(defaults: LaneLimits, limits: Partial<LaneLimits> = {}): LaneLimits {
  return {
    light: limits.light ?? defaults.light,
    heavy: limits.heavy ?? defaults.heavy,
    queue: limits.queue ?? defaults.queue,
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
 * lane, in order of arrival; past that, {@link StoreError} `overloaded` at once, with nothing sent
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
    if (!Number.isInteger(limits.queue) || limits.queue < 0)
      throw new Error(`queries.queue must be a non-negative integer, got ${limits.queue}`);
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
    if (queue.length >= this.limits.queue) {
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
