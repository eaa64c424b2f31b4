import type { IncomingMessage } from 'node:http';
import { parsePath, type Route } from '../request/parse-path.js';
import { parsedTarget } from './parsed-target.js';

/** The labels a request is counted under: never the raw path, whose values are unbounded. */
export interface RouteLabel {
  /** A dataset this server has, or `''` (for `/health`, `/metrics`, and unknown datasets). */
  readonly dataset: string;
  /** The URL's shape: `/:type`, `/:type/:id/links/:relationship`, `/health`… or `unmatched`. */
  readonly route: string;
}

/**
 * Labels a request path by its shape, so metrics have one series per shape and dataset whatever
 * clients ask for; the `/api/<dataset>` prefix becomes the dataset label.
 *
 * @example routeLabel('/api/mirror/concepts/0101/links/broader-concepts', new Set(['sample', 'mirror']), 'sample')
 * // { dataset: 'mirror', route: '/:type/:id/links/:relationship' }
 */
export function routeLabel(pathname: string, datasets: ReadonlySet<string>, defaultDataset: string): RouteLabel {
  return label(pathname, () => parseOrUndefined(pathname), datasets, defaultDataset);
}

/**
 * {@link routeLabel} of a request, from its {@link parsedTarget}: the path is not split or parsed
 * again when the handler already did it.
 */
export function requestRouteLabel(
  req: IncomingMessage,
  datasets: ReadonlySet<string>,
  defaultDataset: string,
): RouteLabel {
  const target = parsedTarget(req);
  return label(target.path, () => target.routeOrUndefined(), datasets, defaultDataset);
}

function label(
  pathname: string,
  route: () => Route | undefined,
  datasets: ReadonlySet<string>,
  defaultDataset: string,
): RouteLabel {
  if (pathname === '/health' || pathname === '/metrics') return { dataset: '', route: pathname };
  const parsed = route();
  if (parsed === undefined) return { dataset: '', route: 'unmatched' };
  const dataset = parsed.dataset ?? defaultDataset;
  return { dataset: datasets.has(dataset) ? dataset : '', route: shapeOf(parsed) };
}

/** `/:type[/:id][/links|/relationships][/:relationship]` */
function shapeOf(route: Route): string {
  let shape = '/:type';
  if (route.id !== undefined) shape += '/:id';
  if (route.linkage) shape += `/${route.linkage}`;
  if (route.relationship !== undefined) shape += '/:relationship';
  return shape;
}

function parseOrUndefined(pathname: string): Route | undefined {
  try {
    return parsePath(pathname);
  } catch {
    return undefined;
  }
}
