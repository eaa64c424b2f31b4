import type { RequestHandler } from 'express';
import { JsonApiError, notFound } from '../errors/json-api-error.js';
import { execute } from '../execute.js';
import { planRequest } from '../plan/plan-request.js';
import { negotiate } from '../request/negotiate.js';
import { parsePath, type Route } from '../request/parse-path.js';
import { parseQuery } from '../request/parse-query.js';
import { requestLink } from '../shape/page-links.js';
import { QueryRecorder } from '../store/query-recorder.js';
import { optionsOf, type Dataset } from './dataset.js';
import { send } from './send.js';

const ALLOW = 'GET, HEAD';

/**
 * Serves every JSON:API URL: `/api/<dataset>/<type>[/<id>[/<relationship> | /links/<relationship>]]`,
 * and the same without the `/api/<dataset>` prefix for the default dataset. The pipeline, in order:
 * negotiate → parse path and query → plan → execute (SPARQL) → send.
 */
export function jsonApiHandler(datasets: ReadonlyMap<string, Dataset>, defaultDataset: Dataset): RequestHandler {
  return async (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      throw new JsonApiError(405, 'Method Not Allowed', `This API is read-only; ${req.method} is not allowed. Allowed: ${ALLOW}.`, { headers: { Allow: ALLOW } });
    }
    const { profiles } = negotiate(req.get('accept'), req.get('content-type'));
    const url = new URL(req.originalUrl, 'http://localhost');
    const route = parsePath(url.pathname);
    const dataset = route.dataset === undefined ? defaultDataset : datasets.get(route.dataset);
    if (!dataset) throw notFound(`There is no dataset '${route.dataset}'. Datasets: ${[...datasets.keys()].join(', ')}.`);
    const plan = planRequest(dataset.mapping, route, parseQuery(url.search.slice(1)), optionsOf(dataset), profiles);
    const recorder = new QueryRecorder(dataset.store);
    const page = { path: dataset.linkBase + canonicalPath(route), query: url.search.slice(1) };
    try {
      const document = await execute(dataset.mapping, plan, recorder, {
        linkBase: dataset.linkBase,
        self: requestLink(page),
        related: dataset.linkBase + canonicalPath({ ...route, linkage: undefined }),
        page,
      });
      send(res.set('Server-Timing', recorder.serverTiming()), 200, document);
    } catch (error) {
      res.set('Server-Timing', recorder.serverTiming());
      throw error;
    }
  };
}

/** The type-rooted path of a route (`/trade-activities/5a3f/links/concerns`). */
function canonicalPath(route: Route): string {
  const segments = [route.type, route.id, route.linkage, route.relationship].filter((s): s is string => s !== undefined);
  return `/${segments.map(encodeURIComponent).join('/')}`;
}

