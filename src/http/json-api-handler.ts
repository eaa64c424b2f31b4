import type { RequestHandler, Response } from 'express';
import { type Dataset, optionsOf } from '../dataset.js';
import { JsonApiError, notFound } from '../errors/json-api-error.js';
import { execute } from '../execute/execute.js';
import { withSignal } from '../execute/run-query.js';
import { planRequest } from '../plan/plan-request.js';
import { CURSOR_PAGINATION_PROFILE, JSON_API } from '../request/media-types.js';
import { negotiate } from '../request/negotiate.js';
import { parsePath, type Route } from '../request/parse-path.js';
import { parseQuery } from '../request/parse-query.js';
import { requestTarget } from '../request/request-target.js';
import { requestLink } from '../shape/page-links.js';
import { QueryRecorder } from '../store/query-recorder.js';
import { represent, sendRepresentation } from './conditional.js';
import { ALLOW } from './cors.js';
import type { ResponseCache } from './response-cache.js';

/**
 * Serves every JSON:API URL: `/api/<dataset>/<type>[/<id>[/<relationship> | /links/<relationship>]]`,
 * and the same without the `/api/<dataset>` prefix for the default dataset. The pipeline, in order:
 * negotiate → parse path → response cache → parse query and plan → execute (SPARQL) → cache → send
 * (a 304 when If-None-Match matches).
 */
export function jsonApiHandler(
  datasets: ReadonlyMap<string, Dataset>,
  defaultDataset: Dataset,
  cache: ResponseCache,
  shutdown?: AbortSignal,
): RequestHandler {
  return async (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      throw new JsonApiError(
        405,
        'Method Not Allowed',
        `This API is read-only; ${req.method} is not allowed. Allowed: ${ALLOW}.`,
        { headers: { Allow: ALLOW } },
      );
    }
    const { profiles } = negotiate(req.get('accept'), req.get('content-type'));
    const url = requestTarget(req.originalUrl);
    const route = parsePath(url.path);
    const dataset = route.dataset === undefined ? defaultDataset : datasets.get(route.dataset);
    if (!dataset)
      throw notFound(`There is no dataset '${route.dataset}'. Datasets: ${[...datasets.keys()].join(', ')}.`);
    const options = optionsOf(dataset);
    // Only 200s are cached, so an entry exists only for a request that plans without error.
    // The cursor profile, when asked for, changes the body: it is part of the negotiated media type.
    const mediaType = profiles.includes(CURSOR_PAGINATION_PROFILE)
      ? `${JSON_API}; profile="${CURSOR_PAGINATION_PROFILE}"`
      : JSON_API;
    const key = { dataset: dataset.name, path: canonicalPath(route), query: url.query, mediaType };
    const cached = cache.get(key, options.cacheTtlSeconds);
    if (cached) {
      sendRepresentation(req, res.set('Server-Timing', 'cache;desc=hit'), cached, options.cacheControl);
      return;
    }
    const plan = planRequest(dataset.mapping, route, parseQuery(key.query), options, profiles);
    const recorder = new QueryRecorder(dataset.store);
    const page = { path: dataset.linkBase + key.path, query: key.query };
    // The store's work stops when the deadline passes, the client goes away, or the server stops.
    const deadline = AbortSignal.timeout(options.timeoutMs);
    const signal = AbortSignal.any([deadline, clientGone(res), ...(shutdown ? [shutdown] : [])]);
    try {
      const document = await execute(dataset.mapping, plan, withSignal(recorder, signal), {
        linkBase: dataset.linkBase,
        self: requestLink(page),
        related: dataset.linkBase + canonicalPath({ ...route, linkage: undefined }),
        page,
      });
      const representation = cache.set(key, represent(document), options.cacheTtlSeconds);
      const timing = recorder.serverTiming() + (options.cacheTtlSeconds > 0 ? ', cache;desc=miss' : '');
      sendRepresentation(req, res.set('Server-Timing', timing), representation, options.cacheControl);
    } catch (error) {
      res.set('Server-Timing', recorder.serverTiming());
      if (!signal.aborted) throw error;
      if (deadline.aborted || shutdown?.aborted) throw timedOut(options.timeoutMs, shutdown?.aborted ?? false, error);
      throw new ClientGone('the client closed the connection', { cause: error });
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

/** A signal that aborts when the response's connection closes before the response was sent in full. */
function clientGone(res: Response): AbortSignal {
  const gone = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) gone.abort(new ClientGone('the client closed the connection'));
  });
  return gone.signal;
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

/** The type-rooted path of a route (`/trade-activities/5a3f/links/concerns`). */
function canonicalPath(route: Route): string {
  const segments = [route.type, route.id, route.linkage, route.relationship].filter(
    (s): s is string => s !== undefined,
  );
  return `/${segments.map(encodeURIComponent).join('/')}`;
}
