/**
 * The lists whose whole reading is paused: they change faster than they are read, or their last
 * reading in the background failed. A pause only picks how a page is read, never what it says.
 */
import { LRUCache } from 'lru-cache';

/**
 * How long a list whose reading went stale (a change to what it reads came while it was read) is
 * not read whole again: twice as long as that reading had run, and twice the last pause when it
 * churned again since, within these bounds. Under a stream of changes, reading a big list whole
 * again and again, each reading thrown away, would cost every page the whole list; its pages are
 * read from the store instead.
 */
export const CHURN_BACKOFF_MS = { min: 1_000, max: 30_000 } as const;
/** Bound on the lists remembered as churning (least recently churned forgotten first). */
const CHURNING_MAX = 10_000;

/**
 * The window cache's paused lists, by key, on its clock.
 *
 * @example if (!churning.paused(key)) read(); … churning.churned(key, started)
 */
export class Churning {
  /** Until when each list is not read whole, and that pause's length. */
  private readonly pauses = new LRUCache<string, { until: number; pause: number }>({ max: CHURNING_MAX });

  constructor(private readonly clock: { now(): number }) {}

  /** Whether the list's whole reading is paused now. */
  paused(key: string): boolean {
    return (this.pauses.get(key)?.until ?? 0) > this.clock.now();
  }

  /** Pauses whole readings of a list whose reading that started at `started` went stale (once per reading). */
  churned(key: string, started: number): void {
    const now = this.clock.now();
    const last = this.pauses.get(key);
    if (last !== undefined && last.until > now) return;
    const pause = Math.min(
      CHURN_BACKOFF_MS.max,
      Math.max(CHURN_BACKOFF_MS.min, 2 * (now - started), 2 * (last?.pause ?? 0)),
    );
    this.pauses.set(key, { until: now + pause, pause });
  }

  /** The list was read whole and kept: it no longer churns. */
  settled(key: string): void {
    this.pauses.delete(key);
  }
}
