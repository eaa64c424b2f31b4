import type { Term } from '@rdfjs/types';
import type { TextOrder } from '../rdf/text-order.js';

/** One solution of a SELECT: variable name (without `?`) → RDF/JS term; unbound variables are absent. */
export type Row = Readonly<Record<string, Term>>;

/**
 * The admission lane of a query. Each lane has its own capacity at the store, so that light
 * queries never wait behind heavy ones.
 * - `light`: lookups of known resources, bounded by a page: a single resource, linkage of one
 *   resource, the fetch of a page's members, include levels, the health check
 * - `heavy`: queries over a whole list, whose cost grows with the data: list and count queries
 */
export type Lane = 'light' | 'heavy';

export interface SelectOptions {
  /**
   * Aborts the query: the client went away, or the request's deadline passed. The store stops
   * the query's work (an HTTP request is cancelled, an embedded query's worker is stopped) and
   * rejects with the signal's reason, so the caller tells the two apart.
   */
  signal?: AbortSignal;
  /** Default `heavy`. */
  lane?: Lane;
  /** What the query is for (`list`, `count`, `fetch`, `include-1`, …): explain and the debug log show it. */
  label?: string;
}

/**
 * The one interface between the server and a triplestore. Two adapters implement it
 * (embedded Oxigraph, SPARQL 1.1 protocol over HTTP) and pass one shared contract suite.
 */
export interface Store {
  /** Runs a SPARQL 1.1 SELECT query and resolves its rows, in the order the store returned them. */
  select(query: string, options?: SelectOptions): Promise<Row[]>;
  /** Resolves when the store answers a trivial query; rejects with a {@link StoreError} otherwise. */
  ping(options?: SelectOptions): Promise<void>;
  /** Frees workers, sockets and memory. */
  close(): Promise<void>;
  /**
   * The embedded store only (`serve --watch`): a store on the files as they are now, loaded beside
   * this one's data by the same workers; this store answers from its own data until it is closed.
   * Rejects, keeping this store as it is, when a file cannot be loaded.
   */
  reload?(): Promise<Store>;
  /** Human-readable description for logs, e.g. `oxigraph (3 files, 1234 triples)` or the endpoint URL. */
  readonly description: string;
  /**
   * True when queries read one graph (an endpoint's or the embedded files' configured `graph`), so
   * that a triple pattern matches each triple once. Over a union of graphs a triple held in two
   * matches twice, and a count of members needs DISTINCT (`list-query.ts` buildCountQuery).
   */
  readonly oneGraph: boolean;
  /**
   * How the engine orders text, once the start-up engine check found it (`store/probes/engine-check.ts`):
   * queries are written for it (`sparql/to-text.ts`). Unset: by code point, as most engines do.
   */
  readonly textOrder?: TextOrder;
}

/**
 * Why a store could not answer.
 * - `unavailable`: the store could not be reached (connection refused, DNS, reset) → HTTP 502
 * - `timeout`: no answer within the configured time → HTTP 504
 * - `query`: the store answered with an error (HTTP 4xx/5xx, unparsable results, a query the
 *   embedded engine failed on) → HTTP 502; retrying the same request will not help
 * - `truncated`: the store cut the result short (Virtuoso's `X-SPARQL-MaxRows`) → HTTP 502
 * - `overloaded`: the lane's queue is full; nothing was sent → HTTP 503 with `Retry-After`
 * - `unexpected`: an answer of the wrong shape (a variable missing, a literal where an IRI must
 *   be) → HTTP 502 "unexpected answer from the triplestore"
 */
export type StoreErrorKind = 'unavailable' | 'timeout' | 'query' | 'truncated' | 'overloaded' | 'unexpected';

export class StoreError extends Error {
  /** For `truncated`: the store's row limit, when it said (Virtuoso's `X-SPARQL-MaxRows`). */
  readonly limit?: number;

  constructor(
    readonly kind: StoreErrorKind,
    message: string,
    options?: { cause?: unknown; limit?: number },
  ) {
    super(message, options);
    this.name = 'StoreError';
    if (options?.limit !== undefined) this.limit = options.limit;
  }
}
