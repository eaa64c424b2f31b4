import type { Logger } from 'pino';
import SimpleClient from 'sparql-http-client/SimpleClient.js';
import { parseSelectResults } from './parse-select-results.js';
import { StoreError, type Row, type SelectOptions, type Store } from './store.js';

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
/** Failures of a reused keep-alive socket that the server had already closed (Virtuoso drops idle ones after 10 s). */
const STALE_SOCKET_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

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
      if (timeout.aborted) throw new StoreError('timeout', `no answer from ${where} within ${timeoutMs} ms`, { cause: error });
      // fetch rejects only when no HTTP answer came (refused, reset, DNS, TLS, forbidden port).
      throw new StoreError('unavailable', `cannot reach ${where}: ${describe(error)}`, { cause: error });
    };

    let response: Response;
    try {
      response = await send(query, signal);
    } catch (error) {
      // A stale keep-alive socket fails before any response: the query never ran, so one retry is safe.
      if (signal.aborted || !hasCode(error, STALE_SOCKET_CODES)) return fail(error);
      logger?.debug({ err: error }, `retrying SPARQL request to ${where} after a closed connection`);
      response = await send(query, signal).catch(fail);
    }

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
      throw new StoreError('query', `unreadable SPARQL results from ${where}: ${describe(error)}: ${body.slice(0, 300).trim()}`, { cause: error });
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

/** Whether an error or any error in its `cause` chain (or an AggregateError's members) has one of `codes`. */
function hasCode(error: unknown, codes: ReadonlySet<string>): boolean {
  for (let e = error, depth = 0; e !== null && typeof e === 'object' && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && codes.has(code)) return true;
    if (e instanceof AggregateError && e.errors.some((inner) => hasCode(inner, codes))) return true;
  }
  return false;
}

/** `fetch failed` says nothing: append the messages of the causes. */
function describe(error: unknown): string {
  const parts: string[] = [];
  for (let e = error, depth = 0; e !== undefined && e !== null && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    const message = e instanceof Error ? e.message : String(e);
    parts.push(typeof code === 'string' && !message.includes(code) ? `${message} (${code})` : message);
  }
  return parts.filter((part) => part !== '').join(': ');
}
