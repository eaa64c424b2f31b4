import { decorateStore } from './decorate-store.js';
import type { Lane, Row, SelectOptions, Store } from './store.js';

/** One query a request sent: what explain shows, and what the debug log writes. */
export interface RecordedQuery {
  /** What it was for (`histogram`, `list`, `count`, `fetch`, `include-1`, …; `SelectOptions.label`). */
  readonly label: string;
  readonly lane: Lane;
  readonly text: string;
  /** When it was sent, from the recorder's start, and how long the store took. */
  readonly startMs: number;
  readonly ms: number;
  /** Rows of its answer; absent when it failed. */
  readonly rows?: number;
  /** Why it failed. */
  readonly error?: string;
}

/**
 * Records the queries one request sends through its {@link QueryRecorder.store} (label, lane,
 * text, rows) and the time the store takes: the `Server-Timing` header
 * (`sparql;dur=12.3;desc="2 queries"`), explain, and the debug log (`onQuery`, called as each query
 * ends). Its store wraps the dataset's for one request (`decorate-store.ts`), so the executor
 * sees a plain {@link Store}; closing it closes nothing, the store being the dataset's.
 *
 * @example const recorder = new QueryRecorder(store); await execute(mapping, plan, { store: recorder.store, links }); recorder.queries
 */
export class QueryRecorder {
  queries = 0;
  milliseconds = 0;
  readonly recorded: RecordedQuery[] = [];
  readonly store: Store;
  private readonly start = performance.now();

  constructor(
    store: Store,
    private readonly onQuery?: (query: RecordedQuery) => void,
  ) {
    this.store = decorateStore(store, {
      select: (query, options, next) => this.select(query, options, next),
      close: () => Promise.resolve(),
    });
  }

  private async select(query: string, options: SelectOptions | undefined, next: Store['select']): Promise<Row[]> {
    const start = performance.now();
    this.queries += 1;
    const record = (outcome: { rows: number } | { error: string }) => {
      const ms = performance.now() - start;
      this.milliseconds += ms;
      const recorded: RecordedQuery = {
        label: options?.label ?? 'query',
        lane: options?.lane ?? 'heavy',
        text: query,
        startMs: round(start - this.start),
        ms: round(ms),
        ...outcome,
      };
      this.recorded.push(recorded);
      this.onQuery?.(recorded);
    };
    try {
      const rows = await next(query, options);
      record({ rows: rows.length });
      return rows;
    } catch (error) {
      record({ error: error instanceof Error ? error.message : String(error) });
      throw error;
    }
  }

  /**
   * The `Server-Timing` metrics: the queries and the store's time, and with `path` the steps the
   * request took (`path;desc="histogram+fetch"`, `execute/trace.ts`).
   *
   * @example recorder.serverTiming('histogram+fetch') // 'sparql;dur=12.3;desc="3 queries", path;desc="histogram+fetch"'
   */
  serverTiming(path?: string): string {
    const sparql = `sparql;dur=${this.milliseconds.toFixed(1)};desc="${this.queries} ${this.queries === 1 ? 'query' : 'queries'}"`;
    return path === undefined ? sparql : `${sparql}, path;desc="${path}"`;
  }
}

const round = (ms: number) => Math.round(ms * 100) / 100;
