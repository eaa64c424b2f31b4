import type { Term } from '@rdfjs/types';

/** One solution of a SELECT: variable name (without `?`) → RDF/JS term; unbound variables are absent. */
export type Row = Readonly<Record<string, Term>>;

export interface SelectOptions {
  /** Aborts the query (the HTTP request, or waiting for a worker). */
  signal?: AbortSignal;
}

/**
 * The one interface between the server and a triplestore. Two adapters implement it
 * (embedded Oxigraph, SPARQL 1.1 protocol over HTTP) and pass one shared contract suite.
 */
export interface Store {
  /** Runs a SPARQL 1.1 SELECT query and resolves its rows, in the order the store returned them. */
  select(query: string, options?: SelectOptions): Promise<Row[]>;
  /** Resolves when the store answers a trivial query; rejects with a {@link StoreError} otherwise. */
  ping(): Promise<void>;
  /** Frees workers, sockets and memory. */
  close(): Promise<void>;
  /** Human-readable description for logs, e.g. `oxigraph (3 files, 1234 triples)` or the endpoint URL. */
  readonly description: string;
}

/**
 * Why a store could not answer.
 * - `unavailable`: the store could not be reached (connection refused, DNS, reset) → HTTP 502
 * - `timeout`: no answer within the configured time → HTTP 504
 * - `query`: the store answered with an error (HTTP 4xx/5xx, unparsable results) → HTTP 502
 * - `truncated`: the store cut the result short (Virtuoso's `X-SPARQL-MaxRows`) → HTTP 502
 */
export type StoreErrorKind = 'unavailable' | 'timeout' | 'query' | 'truncated';

export class StoreError extends Error {
  constructor(
    readonly kind: StoreErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'StoreError';
  }
}
