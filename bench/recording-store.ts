import type { Lane, Row, SelectOptions, Store } from '../src/store/store.js';

/** One query a request sent: its text, its lane, and when it ran (performance.now() ms). */
export interface RecordedQuery {
  readonly query: string;
  /** The admission lane the server asked for (the stores' default, `heavy`, when it named none). */
  readonly lane: Lane;
  /** What the server said the query is for (`fetch`, `include-1`, …), when it said. */
  readonly label?: string;
  readonly start: number;
  readonly end: number;
}

/**
 * Queries that ran at the same time: the server sends some side by side (a page's list and
 * count queries), so the floor replays each wave with `Promise.all` and the waves one after another,
 * each query in its lane (an embedded store's heavy lane queues fewer queries than its light one).
 */
export type Wave = readonly Pick<RecordedQuery, 'query' | 'lane' | 'label'>[];

/**
 * Wraps a store so that every query that goes through it is appended to `log`, with its start
 * and end times. The bench serves each request shape once through an app on this store to learn
 * the exact SPARQL the server sends.
 *
 * @example const log: RecordedQuery[] = []; const store = recordingStore(inner, log);
 */
export function recordingStore(inner: Store, log: RecordedQuery[]): Store {
  return {
    description: `recording ${inner.description}`,
    oneGraph: inner.oneGraph,
    async select(query: string, options?: SelectOptions): Promise<Row[]> {
      const start = performance.now();
      try {
        return await inner.select(query, options);
      } finally {
        const label = options?.label;
        log.push({
          query,
          lane: options?.lane ?? 'heavy',
          ...(label !== undefined && { label }),
          start,
          end: performance.now(),
        });
      }
    },
    ping: () => inner.ping(),
    close: () => inner.close(),
  };
}

/**
 * Groups recorded queries into waves: a query that started before every query of the current
 * wave had ended ran alongside them; one that started after they all ended waited for them.
 *
 * @example groupWaves([{ query: 'a', start: 0, end: 5 }, { query: 'b', start: 1, end: 4 }, { query: 'c', start: 6, end: 8 }]) // [['a', 'b'], ['c']]
 */
export function groupWaves(queries: readonly RecordedQuery[]): Wave[] {
  const byStart = [...queries].sort((a, b) => a.start - b.start);
  const waves: Pick<RecordedQuery, 'query' | 'lane' | 'label'>[][] = [];
  let waveEnd = Number.NEGATIVE_INFINITY;
  for (const { query, lane, label, start, end } of byStart) {
    const sent = { query, lane, ...(label !== undefined && { label }) };
    if (waves.length > 0 && start < waveEnd) {
      waves[waves.length - 1]!.push(sent);
      waveEnd = Math.max(waveEnd, end);
    } else {
      waves.push([sent]);
      waveEnd = end;
    }
  }
  return waves;
}
