import type { RequestHandler } from 'express';
import { type Dataset, optionsOf } from '../dataset.js';
import { JsonApiError, notFound } from '../errors/json-api-error.js';
import { execute } from '../execute/execute.js';
import { planRequest } from '../plan/plan-request.js';
import { CURSOR_PAGINATION_PROFILE, JSON_API } from '../request/media-types.js';
import { negotiate } from '../request/negotiate.js';
import { parsePath, type Route } from '../request/parse-path.js';
import { parseQuery } from '../request/parse-query.js';
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
    const url = new URL(req.originalUrl, 'http://localhost');
    const route = parsePath(url.pathname);
    const dataset = route.dataset === undefined ? defaultDataset : datasets.get(route.dataset);
    if (!dataset)
      throw notFound(`There is no dataset '${route.dataset}'. Datasets: ${[...datasets.keys()].join(', ')}.`);
    const options = optionsOf(dataset);
    // Only 200s are cached, so an entry exists only for a request that plans without error.
    // The cursor profile, when asked for, changes the body: it is part of the negotiated media type.
    const mediaType = profiles.includes(CURSOR_PAGINATION_PROFILE)
      ? `${JSON_API}; profile="${CURSOR_PAGINATION_PROFILE}"`
      : JSON_API;
    const key = { dataset: dataset.name, path: canonicalPath(route), query: url.search.slice(1), mediaType };
    const cached = cache.get(key, options.cacheTtlSeconds);
    if (cached) {
      sendRepresentation(req, res.set('Server-Timing', 'cache;desc=hit'), cached, options.cacheControl);
      return;
    }
    const plan = planRequest(dataset.mapping, route, parseQuery(key.query), options, profiles);
    const recorder = new QueryRecorder(dataset.store);
    const page = { path: dataset.linkBase + key.path, query: key.query };
    try {
      const document = await execute(dataset.mapping, plan, recorder, {
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
      throw error;
    }
  };
}

/** The type-rooted path of a route (`/trade-activities/5a3f/links/concerns`). */
function canonicalPath(route: Route): string {
  const segments = [route.type, route.id, route.linkage, route.relationship].filter(
    (s): s is string => s !== undefined,
  );
  return `/${segments.map(encodeURIComponent).join('/')}`;
}
