import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Trace, TraceStep } from '../execute/trace.js';
import type { QueryRecorder, RecordedQuery } from '../store/query-recorder.js';
import type { Request } from './handler.js';

/** What `meta.explain` holds: the steps the request took and why, and each query it sent. */
export interface Explanation {
  /** The steps' names, as `Server-Timing`'s `path` gives them (`histogram+fetch`). */
  readonly path: string;
  readonly steps: readonly TraceStep[];
  readonly queryCount: number;
  /** The store's time, all queries together (queries sent side by side each count whole). */
  readonly storeMs: number;
  /** In the order they ended: label, lane, start and time (ms), rows, text. */
  readonly queries: readonly RecordedQuery[];
}

/**
 * The explanation of a request that ran: its trace (`execute/trace.ts`) and its queries (the
 * request's {@link QueryRecorder}), for `meta.explain`.
 *
 * @example explanation(trace, recorder).path // 'histogram+fetch'
 */
export function explanation(trace: Trace, recorder: QueryRecorder): Explanation {
  return {
    path: trace.name(),
    steps: trace.steps,
    queryCount: recorder.queries,
    storeMs: Math.round(recorder.milliseconds * 100) / 100,
    queries: recorder.recorded,
  };
}

/**
 * At debug level, a log line per query as it ends (its label, lane, time, rows and text), with
 * the request's id (pino-http's when the access log gave it one), so that the queries of one
 * request can be found together; `undefined` above debug, which costs nothing per query.
 *
 * @example new QueryRecorder(store, queryLog(logger, req))
 */
export function queryLog(logger: Logger, req: Request): ((query: RecordedQuery) => void) | undefined {
  if (!logger.isLevelEnabled('debug')) return undefined;
  const reqId = (req as { id?: unknown }).id ?? randomUUID();
  const log = logger.child({ reqId });
  return ({ label, lane, ms, rows, error, text }) =>
    log.debug({ label, lane, ms, rows, ...(error && { error }), query: text }, `sparql ${label}: ${ms} ms`);
}
