import type { IncomingMessage } from 'node:http';
import type { Route } from '../request/parse-path.js';
import { parsedTarget } from './parsed-target.js';

/** The labels a request is counted under: never the raw path, whose values are unbounded. */
export interface RouteLabel {
  /** A dataset this server has, or `''` (for `/health`, `/metrics`, and unknown datasets). */
  readonly dataset: string;
  /** The URL's shape: `/:type`, `/:type/:id/links/:relationship`, `/health`… or `unmatched`. */
  readonly route: string;
}

/**
 * Labels a request by its path's shape, so metrics have one series per shape and dataset whatever
 * clients ask for; the `/api/<dataset>` prefix becomes the dataset label. The path comes from the
 * request's {@link parsedTarget}: it is not split or parsed again when the handler already did it.
 *
 * @example routeLabel(req, new Set(['sample', 'mirror']), 'sample') // GET /api/mirror/concepts/0101/links/broader-concepts
 * // { dataset: 'mirror', route: '/:type/:id/links/:relationship' }
 */
export function routeLabel(req: IncomingMessage, datasets: ReadonlySet<string>, defaultDataset: string): RouteLabel {
  const target = parsedTarget(req);
  if (target.path === '/health' || target.path === '/metrics') return { dataset: '', route: target.path };
  const route = target.routeOrUndefined();
  if (route === undefined) return { dataset: '', route: 'unmatched' };
  const dataset = route.dataset ?? defaultDataset;
  return { dataset: datasets.has(dataset) ? dataset : '', route: shapeOf(route) };
}

/** `/:type[/:id][/links|/relationships][/:relationship]` */
function shapeOf(route: Route): string {
  let shape = '/:type';
  if (route.id !== undefined) shape += '/:id';
  if (route.linkage) shape += `/${route.linkage}`;
  if (route.relationship !== undefined) shape += '/:relationship';
  return shape;
}
