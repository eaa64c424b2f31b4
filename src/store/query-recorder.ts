import type { Row, SelectOptions, Store } from './store.js';

/**
 * A store that counts the queries one request sends through it and the time the store takes, for
 * the `Server-Timing` header (`sparql;dur=12.3;desc="2 queries"`). It wraps the dataset's store
 * for one request, so the executor sees a plain {@link Store}.
 */
export class QueryRecorder implements Store {
  queries = 0;
  milliseconds = 0;

  constructor(private readonly store: Store) {}

  get description(): string {
    return this.store.description;
  }

  get oneGraph(): boolean {
    return this.store.oneGraph;
  }

  async select(query: string, options?: SelectOptions): Promise<Row[]> {
    const start = performance.now();
    this.queries += 1;
    try {
      return await this.store.select(query, options);
    } finally {
      this.milliseconds += performance.now() - start;
    }
  }

  ping(options?: SelectOptions): Promise<void> {
    return this.store.ping(options);
  }

  /** The wrapped store belongs to the dataset, not to the request: closing a recorder closes nothing. */
  close(): Promise<void> {
    return Promise.resolve();
  }

  serverTiming(): string {
    return `sparql;dur=${this.milliseconds.toFixed(1)};desc="${this.queries} ${this.queries === 1 ? 'query' : 'queries'}"`;
  }
}
