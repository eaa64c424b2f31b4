import type { TextOrder } from '../rdf/text-order.js';
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
 * A store that records the queries one request sends through it (label, lane, text, rows) and
 * the time the store takes: the `Server-Timing` header (`sparql;dur=12.3;desc="2 queries"`),
 * explain, and the debug log (`onQuery`, called as each query ends). It wraps the dataset's store
 * for one request, so the executor sees a plain {@link Store}.
 */
export class QueryRecorder implements Store {
  queries = 0;
  milliseconds = 0;
  readonly recorded: RecordedQuery[] = [];
  private readonly start = performance.now();

  constructor(
    private readonly store: Store,
    private readonly onQuery?: (query: RecordedQuery) => void,
  ) {}

  get description(): string {
    return this.store.description;
  }

  get oneGraph(): boolean {
    return this.store.oneGraph;
  }

  get textOrder(): TextOrder | undefined {
    return this.store.textOrder;
  }

  async select(query: string, options?: SelectOptions): Promise<Row[]> {
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
      const rows = await this.store.select(query, options);
      record({ rows: rows.length });
      return rows;
    } catch (error) {
      record({ error: error instanceof Error ? error.message : String(error) });
      throw error;
    }
  }

  ping(options?: SelectOptions): Promise<void> {
    return this.store.ping(options);
  }

  /** The wrapped store belongs to the dataset, not to the request: closing a recorder closes nothing. */
  close(): Promise<void> {
    return Promise.resolve();
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
