import { parsePath, type Route } from '../request/parse-path.js';

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
  if (pathname === '/health' || pathname === '/metrics') return { dataset: '', route: pathname };
  let route: Route;
  try {
    route = parsePath(pathname);
  } catch {
    return { dataset: '', route: 'unmatched' };
  }
  const dataset = route.dataset ?? defaultDataset;
  const shape = [
    '/:type',
    route.id !== undefined && '/:id',
    route.linkage && `/${route.linkage}`,
    route.relationship !== undefined && '/:relationship',
  ];
  return { dataset: datasets.has(dataset) ? dataset : '', route: shape.filter(Boolean).join('') };
}
