import { Counter, Histogram, type Registry } from 'prom-client';

/** How a message at the delta listener ended. */
export type DeltaOutcome = 'applied' | 'invalid' | 'oversized' | 'unauthorized';

/** Why cache entries were dropped: a delta's triples, or a body that was not a delta. */
export type DropReason = 'delta' | 'invalid-body';

/** Seconds: dropping entries takes microseconds; a scan of a full cache a few milliseconds. */
const DELTA_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];

/**
 * What `/metrics` shows of live data (`live-data.ts`): messages received and their triples, cache
 * entries dropped by cache and reason, whole drops, and the time from a message's arrival to its
 * answer (the moment the notifier may go on: every stale entry is gone by then).
 *
 * @example const deltas = new DeltaMetrics(metrics.registry); deltas.received('applied', 0.0004);
 */
export class DeltaMetrics {
  private readonly messages: Counter<'outcome'>;
  private readonly triples: Counter<'rule'>;
  private readonly dropped: Counter<'cache' | 'reason'>;
  private readonly wholeDrops: Counter<'dataset' | 'reason'>;
  private readonly seconds: Histogram<'outcome'>;

  constructor(registry: Registry) {
    const registers = [registry];
    this.messages = new Counter({
      name: 'delta_messages_total',
      help: 'Messages received at the delta listener, by outcome (applied, invalid, oversized, unauthorized)',
      labelNames: ['outcome'],
      registers,
    });
    this.triples = new Counter({
      name: 'delta_triples_total',
      help: 'Changed triples received, by the invalidation rule each fell under in each dataset (docs/live-data.md)',
      labelNames: ['rule'],
      registers,
    });
    this.dropped = new Counter({
      name: 'cache_entries_dropped_total',
      help: 'Cache entries dropped because what they read changed, by cache (response, window) and reason',
      labelNames: ['cache', 'reason'],
      registers,
    });
    this.wholeDrops = new Counter({
      name: 'cache_whole_drops_total',
      help: "Times a dataset's caches were dropped whole, by dataset and reason",
      labelNames: ['dataset', 'reason'],
      registers,
    });
    this.seconds = new Histogram({
      name: 'delta_duration_seconds',
      help: 'Time from a delta message’s arrival to its answer, by outcome',
      labelNames: ['outcome'],
      buckets: DELTA_BUCKETS,
      registers,
    });
  }

  received(outcome: DeltaOutcome, seconds: number): void {
    this.messages.inc({ outcome });
    this.seconds.observe({ outcome }, seconds);
  }

  triplesUnder(rule: string, count: number): void {
    if (count > 0) this.triples.inc({ rule }, count);
  }

  droppedEntries(cache: 'response' | 'window', reason: DropReason, count: number): void {
    if (count > 0) this.dropped.inc({ cache, reason }, count);
  }

  droppedWhole(dataset: string, reason: DropReason): void {
    this.wholeDrops.inc({ dataset, reason });
  }
}
