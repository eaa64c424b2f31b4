import type { Logger } from 'pino';
import SimpleClient from 'sparql-http-client/SimpleClient.js';
import { describeFetchError as describe, retryStaleSocket } from './fetch-retry.js';
import { parseSelectResults } from './parse-select-results.js';
import { type Row, type SelectOptions, type Store, StoreError } from './store.js';

export interface HttpStoreOptions {
  /** SPARQL 1.1 query endpoint, e.g. `http://localhost:8890/sparql`. */
  endpointUrl: string;
  /** Named graph to query, sent as the protocol's `default-graph-uri`; absent: the store's default graph. */
  graph?: string;
  /** Basic authentication, used when both are given. */
  user?: string;
  password?: string;
  /** Per-request limit, including the one retry. Default 30 000. */
  timeoutMs?: number;
  logger?: Logger;
}

/** Longer queries are POSTed (form-encoded): URLs past a few KB are refused by some servers and proxies. */
const MAX_GET_QUERY_LENGTH = 1500;

/**
 * Creates a store for any SPARQL 1.1 endpoint. SELECT results are requested as
 * `application/sparql-results+json` over keep-alive connections (Node's fetch); each request is
 * bounded by `timeoutMs` and the caller's signal. Errors are {@link StoreError}s: `unavailable`
 * (refused, reset, DNS: no HTTP answer), `timeout`, `query` (HTTP error or unreadable body, with the store's
 * message) and `truncated` (Virtuoso cut the result at its `ResultSetMaxRows`).
 */
export function createHttpStore(options: HttpStoreOptions): Store {
  const { endpointUrl, graph, user, password, logger } = options;
  const timeoutMs = options.timeoutMs ?? 30_000;
  // For messages and logs: never show credentials someone put in the URL.
  const shown = new URL(endpointUrl);
  shown.username = shown.password = '';
  const where = graph === undefined ? shown.href : `${shown.href} <${graph}>`;

  /** One attempt; rejects with fetch's own error (classified by the caller). */
  const send = (query: string, signal: AbortSignal): Promise<Response> => {
    // sparql-http-client builds the protocol request but passes no signal to fetch: add it here.
    const client = new SimpleClient({
      endpointUrl,
      ...(user !== undefined && password !== undefined ? { user, password } : {}),
      fetch: (input, init) => fetch(input, { ...init, signal }),
    });
    return client.query.select(query, {
      operation: query.length > MAX_GET_QUERY_LENGTH ? 'postUrlencoded' : 'get',
      ...(graph !== undefined ? { defaultGraph: graph } : {}),
    });
  };

  const select = async (query: string, { signal: callerSignal }: SelectOptions = {}): Promise<Row[]> => {
    callerSignal?.throwIfAborted();
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = callerSignal ? AbortSignal.any([callerSignal, timeout]) : timeout;
    const fail = (error: unknown): never => {
      callerSignal?.throwIfAborted();
      if (timeout.aborted)
        throw new StoreError('timeout', `no answer from ${where} within ${timeoutMs} ms`, { cause: error });
      // fetch rejects only when no HTTP answer came (refused, reset, DNS, TLS, forbidden port).
      throw new StoreError('unavailable', `cannot reach ${where}: ${describe(error)}`, { cause: error });
    };

    const onRetry = (error: unknown) =>
      logger?.debug({ err: error }, `retrying SPARQL request to ${where} after a closed connection`);
    const response = await retryStaleSocket(() => send(query, signal), { signal, onRetry }).catch(fail);

    // Virtuoso answers 200 with the first ResultSetMaxRows rows and this header: never serve that as complete.
    // (It also sends it when a query's own LIMIT reaches the cap and exactly that many rows come back.)
    const maxRows = response.headers.get('x-sparql-maxrows');
    if (maxRows !== null) {
      await response.body?.cancel().catch(() => undefined);
      throw new StoreError('truncated', `${where} cut the result at its limit of ${maxRows} rows (X-SPARQL-MaxRows)`);
    }
    const body = await response.text().catch(fail);
    if (!response.ok) {
      throw new StoreError('query', `${where} answered HTTP ${response.status}: ${body.slice(0, 300).trim()}`);
    }
    try {
      return parseSelectResults(body);
    } catch (error) {
      throw new StoreError(
        'query',
        `unreadable SPARQL results from ${where}: ${describe(error)}: ${body.slice(0, 300).trim()}`,
        { cause: error },
      );
    }
  };

  return {
    description: `sparql ${where}`,
    select,
    async ping(): Promise<void> {
      // Not ASK: Virtuoso answers ASK in JSON as a one-row SELECT, so use the path every query takes.
      await select('SELECT * WHERE {} LIMIT 1');
    },
    async close(): Promise<void> {
      // Nothing to free: keep-alive sockets belong to Node's global dispatcher and time out on their own.
    },
  };
}
