import type { Logger } from 'pino';
import { type Dispatcher, Pool } from 'undici';
import { deadlineSignal } from './deadline-signal.js';
import { endpointDescription } from './endpoint-description.js';
import { describeFetchError as describe, retryStaleSocket } from './fetch-retry.js';
import { LaneGate, type LaneLimits, type LaneLimitsInput, laneLimits } from './lane-gate.js';
import { isLoopback, LargeAnswers } from './large-answers.js';
import { parseSelectResults } from './parse-select-results.js';
import { type ProtocolRequest, protocolRequests } from './protocol-request.js';
import { type Row, type SelectOptions, type Store, StoreError } from './store.js';

export interface HttpStoreOptions {
  /** SPARQL 1.1 query endpoint, e.g. `http://localhost:8890/sparql`. */
  endpointUrl: string;
  /** Named graph to query, sent as the protocol's `default-graph-uri`; absent: the store's default graph. */
  graph?: string;
  /** Basic authentication, used when both are given. */
  user?: string;
  password?: string;
  /** Per-request limit: waiting for a slot, the request and its one retry. Default 10 000. */
  timeoutMs?: number;
  /**
   * Requests of each lane sent at once (each on a keep-alive connection of its own) and how many
   * may wait per lane; past that, `overloaded`. Default {@link HTTP_QUERIES}.
   */
  queries?: LaneLimitsInput;
  logger?: Logger;
}

/**
 * The HTTP store's default lanes: 8 light and 4 heavy requests at once, 64 waiting per lane. Light
 * queries take milliseconds, so 8 connections carry hundreds of requests a second; 4 heavy ones
 * keep a 2-core store busy without starving it. For the light lane never to wait behind heavy
 * queries inside the store too, `heavy` should stay below the store's request threads (Virtuoso:
 * `[HTTPServer] ServerThreads`, 8 in scripts/virtuoso-local.ts, 10 in its stock ini).
 */
export const HTTP_QUERIES: LaneLimits = Object.freeze({ light: 8, heavy: 4, queue: 64 });
const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * How long an idle pooled connection is kept open: below Virtuoso's 10 s, after which it closes
 * idle connections itself (a request that still meets one is sent again, {@link retryStaleSocket}).
 */
export const KEEP_ALIVE_TIMEOUT_MS = 4_000;

/**
 * The most connections a store with these lanes opens to its endpoint: one per query that may
 * run at once, `light + heavy` (12 by default), so that no admitted query waits for a connection
 * and none is opened that the lanes could not fill.
 */
export const httpConnections = (limits: LaneLimits): number => limits.light + limits.heavy;

/** An HTTP store, with the bounds it was opened with. */
export interface HttpStore extends Store {
  /** Queries of each lane sent at once, and how many may wait per lane. */
  readonly limits: LaneLimits;
  /** The connection pool's bound: {@link httpConnections} of `limits`. */
  readonly connections: number;
}

/**
 * Creates a store for any SPARQL 1.1 endpoint. SELECT results are requested as
 * `application/sparql-results+json` (the protocol request built by sparql-http-client,
 * `protocol-request.ts`) over a pool
 * of keep-alive connections (undici's request() on an undici Pool), at most {@link httpConnections}
 * (`queries.light + queries.heavy`) of them, admitted per lane by a {@link LaneGate}; the store
 * shows both bounds ({@link HttpStore}). An idle connection is closed after
 * {@link KEEP_ALIVE_TIMEOUT_MS}, before Virtuoso drops it (10 s); a request that still meets a
 * connection the server has just closed is sent once more ({@link retryStaleSocket}). `close()`
 * destroys the pool, so no socket keeps the process alive. Each request is bounded by `timeoutMs`
 * and by the caller's signal, which cancels it (the connection is closed, so the store sees the
 * client go). Errors are {@link StoreError}s: `unavailable` (refused, reset,
 * DNS: no HTTP answer), `timeout`, `query` (HTTP error, with the store's message), `truncated`
 * (Virtuoso cut the result at its `ResultSetMaxRows`), `overloaded` (the lane's queue is full;
 * nothing is sent) and `unexpected` (an answer that is not SPARQL JSON results). Over loopback, a
 * kind of query whose last answer was large goes on a connection that closes after its answer
 * ({@link LargeAnswers}: a keep-alive one would wait 40 ms for a delayed acknowledgement).
 */
export function createHttpStore(options: HttpStoreOptions): HttpStore {
  const { graph, logger } = options;
  const { endpointUrl, user, password } = credentialsOf(options);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const limits = laneLimits(HTTP_QUERIES, options.queries);
  const target = new URL(endpointUrl);
  const connections = httpConnections(limits);
  const pool = new Pool(target.origin, {
    connections,
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    keepAliveMaxTimeout: KEEP_ALIVE_TIMEOUT_MS, // even if the endpoint's Keep-Alive header offers longer
  });
  // For messages and logs: never show credentials someone put in the URL.
  const where = endpointDescription(endpointUrl, graph);
  const endpoint: Endpoint = {
    pool,
    gate: new LaneGate(limits),
    where,
    timeoutMs,
    logger,
    largeAnswers: new LargeAnswers({ loopback: isLoopback(target) }),
    // sparql-http-client builds the protocol request (GET, or a POSTed form past a few KB;
    // default-graph-uri; Basic auth), which is sent on the pool with undici's request() (sendOnPool):
    // a third of the CPU of undici's fetch per query (its WHATWG Request, Response and streams),
    // which a single-resource request pays once per query.
    requestFor: protocolRequests({
      endpointUrl,
      ...(graph !== undefined && { graph }),
      ...(user !== undefined && password !== undefined && { user, password }),
    }),
    closed: false,
  };
  const select = (query: string, selectOptions: SelectOptions = {}) => admitted(endpoint, query, selectOptions);

  return {
    description: `sparql ${where}`,
    // Virtuoso, Fuseki and the rest serve a union of graphs, or one, as their default graph.
    oneGraph: graph !== undefined,
    limits,
    connections,
    select,
    async ping({ signal, lane = 'light' }: SelectOptions = {}): Promise<void> {
      // Not ASK: Virtuoso answers ASK in JSON as a one-row SELECT, so use the path every query takes.
      await select('SELECT * WHERE {} LIMIT 1', { lane, ...(signal && { signal }) });
    },
    async close(): Promise<void> {
      if (endpoint.closed) return;
      endpoint.closed = true;
      endpoint.gate.close(new StoreError('unavailable', `the store for ${where} is closed`));
      await pool.destroy();
    },
  };
}

/**
 * The endpoint URL without credentials, and the credentials: a user:password@ in the URL is taken
 * as them (as the loader does), since fetch refuses such a URL and its error would print the password.
 */
function credentialsOf(options: HttpStoreOptions): { endpointUrl: string; user?: string; password?: string } {
  const given = new URL(options.endpointUrl);
  const credentials = given.username !== '' || given.password !== '';
  const user = options.user ?? (credentials ? decodeURIComponent(given.username) : undefined);
  const password = options.password ?? (credentials ? decodeURIComponent(given.password) : undefined);
  given.username = given.password = '';
  return { endpointUrl: credentials ? given.href : options.endpointUrl, user, password };
}

/** What one HTTP store's queries share. */
interface Endpoint {
  readonly pool: Pool;
  readonly gate: LaneGate;
  /** The endpoint (and graph) as messages show it, without credentials. */
  readonly where: string;
  readonly timeoutMs: number;
  readonly logger: Logger | undefined;
  readonly largeAnswers: LargeAnswers;
  readonly requestFor: (query: string) => Promise<ProtocolRequest>;
  closed: boolean;
}

/** A query admitted by its lane and bounded by `timeoutMs` and the caller's signal; failures become StoreErrors. */
async function admitted(
  endpoint: Endpoint,
  query: string,
  { signal: callerSignal, lane = 'heavy', label }: SelectOptions,
): Promise<Row[]> {
  const { where, timeoutMs } = endpoint;
  if (endpoint.closed) throw new StoreError('unavailable', `the store for ${where} is closed`);
  callerSignal?.throwIfAborted();
  const stop = deadlineSignal(timeoutMs, callerSignal);
  try {
    return await endpoint.gate.run(lane, stop.signal, () => exchange(endpoint, query, { signal: stop.signal, label }));
  } catch (error) {
    callerSignal?.throwIfAborted();
    if (error instanceof StoreError) throw error;
    if (stop.expired())
      throw new StoreError('timeout', `no answer from ${where} within ${timeoutMs} ms`, { cause: error });
    if (endpoint.closed) throw new StoreError('unavailable', `the store for ${where} is closed`, { cause: error });
    // Everything else is a failure with no HTTP answer: refused, reset, DNS, TLS, a closed pool.
    throw new StoreError('unavailable', `cannot reach ${where}: ${describe(error)}`, { cause: error });
  } finally {
    stop.dispose();
  }
}

/** The request and its answer's body, read whole: the connection is the lane's until then. */
async function exchange(
  endpoint: Endpoint,
  query: string,
  { signal, label }: { signal: AbortSignal; label: string | undefined },
): Promise<Row[]> {
  const { where, largeAnswers } = endpoint;
  const onRetry = (error: unknown) =>
    endpoint.logger?.debug({ err: error }, `retrying SPARQL request to ${where} after a closed connection`);
  const ownConnection = largeAnswers.ownConnection(label);
  const request = await endpoint.requestFor(query);
  const response = await retryStaleSocket(() => sendOnPool(endpoint.pool, request, { signal, ownConnection }), {
    signal,
    onRetry,
  });
  // Virtuoso answers 200 with the first ResultSetMaxRows rows and this header: never serve that as complete.
  // (It also sends it when a query's own LIMIT reaches the cap and exactly that many rows come back.)
  const maxRows = response.headers['x-sparql-maxrows'];
  if (maxRows !== undefined) {
    await response.body.dump().catch(() => undefined);
    throw new StoreError('truncated', `${where} cut the result at its limit of ${maxRows} rows (X-SPARQL-MaxRows)`, {
      limit: Number(maxRows),
    });
  }
  const body = await response.body.text();
  largeAnswers.answered(label, body.length);
  if (response.statusCode < 200 || response.statusCode > 299) {
    throw new StoreError('query', `${where} answered HTTP ${response.statusCode}: ${body.slice(0, 300).trim()}`);
  }
  try {
    return parseSelectResults(body);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new StoreError('unexpected', `${where} answered with ${message}: ${body.slice(0, 300).trim()}`, {
      cause: error,
    });
  }
}

/** An answer of undici's request(): status, headers (lower-case names) and the body to read. */
type Answer = Dispatcher.ResponseData;

/**
 * Sends a protocol request on `pool`, with undici's request(); with `ownConnection`, on a
 * connection that closes after the answer (`Connection: close`). One attempt: it rejects with
 * undici's own error, which the caller classifies.
 */
function sendOnPool(
  pool: Pool,
  request: ProtocolRequest,
  { signal, ownConnection }: { signal: AbortSignal; ownConnection: boolean },
): Promise<Answer> {
  return pool.request({
    path: request.path,
    method: request.method,
    headers: request.headers,
    ...(request.body !== undefined && { body: request.body }),
    ...(ownConnection && { reset: true }),
    signal,
  });
}
