import type { Row, Store } from './store.js';

/**
 * Counts the queries one request sends and the time the store takes, for the `Server-Timing`
 * header (`sparql;dur=12.3;desc="2 queries"`).
 */
export class QueryRecorder {
  queries = 0;
  milliseconds = 0;

  constructor(private readonly store: Store) {}

  async select(query: string, signal?: AbortSignal): Promise<Row[]> {
    const start = performance.now();
    this.queries += 1;
    try {
      return await this.store.select(query, signal ? { signal } : {});
    } finally {
      this.milliseconds += performance.now() - start;
    }
  }

  serverTiming(): string {
    return `sparql;dur=${this.milliseconds.toFixed(1)};desc="${this.queries} ${this.queries === 1 ? 'query' : 'queries'}"`;
  }
}
