import type { IncomingMessage } from 'node:http';
import { parsePath, type Route } from '../request/parse-path.js';
import { requestTarget } from '../request/request-target.js';

/**
 * A request's target as the pipeline reads it, split and parsed once per request: the handler,
 * the metrics (on `finish`) and the error log all ask for it.
 */
export interface ParsedTarget {
  /** The path as the client sent it (still percent-encoded). */
  readonly path: string;
  /** The raw query string, without the `?`. */
  readonly query: string;
  /** The path's {@link Route}; throws the 404 of {@link parsePath} (the same error each time). */
  route(): Route;
  /** The path's {@link Route}, or `undefined` for a path of no shape the server answers. */
  routeOrUndefined(): Route | undefined;
}

// A WeakMap, not a property: adding one to a request Express has re-prototyped is slower.
const parsedTargets = new WeakMap<IncomingMessage, ParsedTarget>();

/**
 * The parsed target of `req` (Express's `originalUrl`, else Node's `url`), worked out on first use
 * and kept for the request: the path is split once, and parsed once when someone needs its route.
 *
 * @example parsedTarget(req).route() // { dataset: undefined, type: 'concepts', id: '0101' }
 */
export function parsedTarget(req: IncomingMessage): ParsedTarget {
  let parsed = parsedTargets.get(req);
  if (parsed === undefined) {
    parsed = new Target((req as { originalUrl?: string }).originalUrl ?? req.url ?? '/');
    parsedTargets.set(req, parsed);
  }
  return parsed;
}

class Target implements ParsedTarget {
  readonly path: string;
  readonly query: string;
  private parsed: { readonly route: Route } | { readonly error: unknown } | undefined;

  constructor(target: string) {
    const { path, query } = requestTarget(target);
    this.path = path;
    this.query = query;
  }

  route(): Route {
    const parsed = this.parse();
    if ('error' in parsed) throw parsed.error;
    return parsed.route;
  }

  routeOrUndefined(): Route | undefined {
    const parsed = this.parse();
    return 'route' in parsed ? parsed.route : undefined;
  }

  private parse(): { readonly route: Route } | { readonly error: unknown } {
    if (this.parsed === undefined) {
      try {
        this.parsed = { route: parsePath(this.path) };
      } catch (error) {
        this.parsed = { error };
      }
    }
    return this.parsed;
  }
}
