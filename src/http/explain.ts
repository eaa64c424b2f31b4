import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { PlanNode } from '../execute/describe-list.js';
import type { Trace, TraceStep } from '../execute/trace.js';
import type { Document } from '../shape/documents.js';
import type { QueryRecorder, RecordedQuery } from '../store/query-recorder.js';
import type { Request } from './handler.js';

/** What `meta.explain` holds: the plan, the steps the request took and why, and each query it sent. */
export interface Explanation {
  /** The request's whole plan, as `explain-plan=dry` shows it: the steps taken are a path through it. */
  readonly plan: readonly PlanNode[];
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
 * @example explanation(describePlan(mapping, plan, context), trace, recorder).path // 'histogram+fetch'
 */
export function explanation(plan: readonly PlanNode[], trace: Trace, recorder: QueryRecorder): Explanation {
  return {
    plan,
    path: trace.name(),
    steps: trace.steps,
    queryCount: recorder.queries,
    storeMs: Math.round(recorder.milliseconds * 100) / 100,
    queries: recorder.recorded,
  };
}

/**
 * The document of `explain-plan=dry`: the request's plan (`meta.explain.plan`), every node with its
 * SPARQL where no earlier answer decides it, and nothing run (no query is sent). `dry: true` tells
 * it from an analysed explanation, which holds the same plan beside the steps the request took.
 *
 * @example dryDocument(describePlan(mapping, plan, context), links.self).meta.explain.dry // true
 */
export function dryDocument(plan: readonly PlanNode[], self: string): Document {
  return { jsonapi: { version: '1.1' }, links: { self }, meta: { explain: { dry: true, plan } } };
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
