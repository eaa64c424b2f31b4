import type { Logger } from 'pino';
import { type Dataset, type DatasetOptions, optionsOf } from '../dataset.js';
import { badParameter, JsonApiError, notFound } from '../errors/json-api-error.js';
import { execute } from '../execute/execute.js';
import { withSignal } from '../execute/run-query.js';
import { Trace } from '../execute/trace.js';
import type { WindowCache } from '../execute/window-cache.js';
import { planReads } from '../plan/plan-reads.js';
import { planRequest } from '../plan/plan-request.js';
import { CURSOR_PAGINATION_MEDIA_TYPE, CURSOR_PAGINATION_PROFILE, JSON_API } from '../request/media-types.js';
import { negotiate } from '../request/negotiate.js';
import type { Route } from '../request/parse-path.js';
import { EXPLAIN_PARAMETER, parseQuery } from '../request/parse-query.js';
import { requestLink } from '../shape/page-links.js';
import { type DeadlineSignal, deadlineSignal } from '../store/deadline-signal.js';
import { QueryRecorder } from '../store/query-recorder.js';
import { sendVariants, Variants } from './compression.js';
import { represent } from './conditional.js';
import { ALLOW } from './cors.js';
import { explanation, queryLog } from './explain.js';
import type { Handler, Response } from './handler.js';
import { parsedTarget } from './parsed-target.js';
import type { ResponseCache } from './response-cache.js';

/**
 * Serves every JSON:API URL: `/api/<dataset>/<type>[/<id>[/<relationship> | /links/<relationship>]]`,
 * and the same without the `/api/<dataset>` prefix for the default dataset. The pipeline, in order:
 * negotiate → parse path → response cache → parse query and plan → execute (SPARQL) → cache → send
 * (a 304 when If-None-Match matches). `Server-Timing` gives the queries, the store's time and the
 * steps the request took; with `explain-plan` (where the dataset allows it) `meta.explain` shows
 * them with each query (`explain.ts`).
 */
export function jsonApiHandler(
  datasets: ReadonlyMap<string, Dataset>,
  defaultDataset: Dataset,
  cache: ResponseCache,
  windows: WindowCache,
  logger: Logger,
  shutdown?: AbortSignal,
): Handler {
  // A dataset's options with their defaults, merged once rather than per request.
  const optionsByDataset = new Map<Dataset, DatasetOptions>();
  const optionsFor = (dataset: Dataset): DatasetOptions => {
    let options = optionsByDataset.get(dataset);
    if (options === undefined) {
      options = optionsOf(dataset);
      optionsByDataset.set(dataset, options);
    }
    return options;
  };
  return async (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      throw new JsonApiError(
        405,
        'Method Not Allowed',
        `This API is read-only; ${req.method} is not allowed. Allowed: ${ALLOW}.`,
        { headers: { Allow: ALLOW } },
      );
    }
    const { profiles } = negotiate(req.headers.accept, req.headers['content-type']);
    const url = parsedTarget(req); // split and parsed once: the metrics and the error log read it too
    const route = url.route();
    const dataset = route.dataset === undefined ? defaultDataset : datasets.get(route.dataset);
    if (!dataset)
      throw notFound(`There is no dataset '${route.dataset}'. Datasets: ${[...datasets.keys()].join(', ')}.`);
    const options = optionsFor(dataset);
    // Only 200s are cached, so an entry exists only for a request that plans without error.
    // The cursor profile, when asked for, changes the body: it is part of the negotiated media type.
    const mediaType = profiles.includes(CURSOR_PAGINATION_PROFILE) ? CURSOR_PAGINATION_MEDIA_TYPE : JSON_API;
    const key = { dataset: dataset.name, path: canonicalPath(route), query: url.query, mediaType };
    const cached = cache.get(key, options.cacheTtlSeconds);
    if (cached) {
      res.setHeader('Server-Timing', 'cache;desc=hit');
      await sendVariants(req, res, cached, { cacheControl: options.cacheControl, made: () => cache.grown(key) });
      return;
    }
    // Before anything is read: a change announced from now on makes this answer stale.
    const stamp = cache.now();
    const parameters = parseQuery(key.query, options.filterSyntax);
    if (parameters.explain && !options.explain) throw explainOff();
    const plan = planRequest(dataset.mapping, route, parameters, options, profiles);
    const recorder = new QueryRecorder(dataset.store, queryLog(logger, req));
    const trace = new Trace();
    const page = { path: dataset.linkBase + key.path, query: key.query };
    // The store's work stops when the deadline passes, the client goes away, or the server stops.
    const stop = requestSignal(res, options.timeoutMs, shutdown);
    const { signal } = stop;
    try {
      const document = await execute(
        dataset.mapping,
        plan,
        withSignal(recorder, signal),
        {
          linkBase: dataset.linkBase,
          self: requestLink(page),
          related: dataset.linkBase + canonicalPath({ ...route, linkage: undefined }),
          page,
        },
        windows.forDataset(dataset.name, options.windowCacheTtlSeconds),
        trace,
      );
      const timing = recorder.serverTiming(trace.name());
      if (parameters.explain) {
        // An explanation is of this one run: never cached, here or by anyone.
        document.meta = { ...document.meta, explain: explanation(trace, recorder) };
        res.setHeader('Server-Timing', timing);
        await sendVariants(req, res, new Variants(represent(document)), { cacheControl: 'no-store' });
        return;
      }
      const reads = options.cacheTtlSeconds > 0 ? planReads(dataset.mapping, plan, trace.found, trace.shown) : [];
      const reading = { dataset: dataset.name, reads, stamp };
      const variants = cache.set(key, new Variants(represent(document)), options.cacheTtlSeconds, reading);
      res.setHeader('Server-Timing', timing + (options.cacheTtlSeconds > 0 ? ', cache;desc=miss' : ''));
      await sendVariants(req, res, variants, { cacheControl: options.cacheControl, made: () => cache.grown(key) });
    } catch (error) {
      res.setHeader('Server-Timing', recorder.serverTiming(trace.name()));
      if (!signal.aborted) throw error;
      if (stop.expired() || shutdown?.aborted) throw timedOut(options.timeoutMs, shutdown?.aborted ?? false, error);
      throw new ClientGone('the client closed the connection', { cause: error });
    } finally {
      stop.dispose();
    }
  };
}

/**
 * The client closed the connection before its answer: nothing can be sent, and its store work
 * has been stopped. The error middleware logs it at info and sends nothing.
 */
export class ClientGone extends Error {
  override name = 'ClientGone';
}

/**
 * The signal of one request: it aborts when its deadline passes, when the server stops (the
 * shutdown signal's reason), or when the response's connection closes before the response was
 * sent in full ({@link ClientGone}).
 */
function requestSignal(res: Response, timeoutMs: number, shutdown: AbortSignal | undefined): DeadlineSignal {
  const deadline = deadlineSignal(timeoutMs, shutdown);
  res.once('close', () => {
    if (!res.writableFinished) deadline.abort(new ClientGone('the client closed the connection'));
  });
  return deadline;
}

/** The 504 of a request that outlasted its deadline (or was still running when the server stopped). */
function timedOut(timeoutMs: number, stopping: boolean, cause: unknown): JsonApiError {
  return new JsonApiError(
    stopping ? 503 : 504,
    stopping ? 'Server stopping' : 'Request timeout',
    stopping
      ? 'The server is shutting down; try again.'
      : `The request took longer than its limit of ${timeoutMs} ms; ask for less (a smaller page, fewer includes) or try again later.`,
    { cause, ...(stopping && { headers: { 'Retry-After': '1' } }) },
  );
}

/** The 400 of `explain-plan` on a dataset that does not explain. */
const explainOff = () =>
  badParameter(
    EXPLAIN_PARAMETER,
    `Explain is off for this dataset: turn it on with 'explain: true' in its configuration, or serve --explain.`,
  );

/** The type-rooted path of a route (`/trade-activities/5a3f/links/concerns`). */
function canonicalPath(route: Route): string {
  let path = `/${encodeURIComponent(route.type)}`;
  if (route.id !== undefined) path += `/${encodeURIComponent(route.id)}`;
  if (route.linkage !== undefined) path += `/${route.linkage}`; // `links` or `relationships`: nothing to encode
  if (route.relationship !== undefined) path += `/${encodeURIComponent(route.relationship)}`;
  return path;
}
