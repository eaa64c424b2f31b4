import cors from 'cors';
import type { Handler } from './handler.js';
import { setHeaders, staticHeaders } from './static-headers.js';

/** The methods every URL answers; the 405's `Allow` and an OPTIONS request's say the same. */
export const ALLOW = 'GET, HEAD, OPTIONS';

export interface CorsOptions {
  /**
   * Origins whose scripts may read responses: `'*'` (the default: a public read-only API needs no
   * credentials, so any page may read it), or a list of exact origins (`https://app.example.org`).
   * An empty list lets no other origin read.
   */
  readonly origins: '*' | readonly string[];
  /** Request headers a preflight may ask for; {@link DEFAULT_ALLOWED_HEADERS} when absent. */
  readonly allowHeaders?: readonly string[];
}

/**
 * Response headers a script on another origin may read (the CORS-safelisted ones need no mention):
 * every header this server sends that a client acts on. `Date`, so that a client ages what it
 * caches by the server's clock, not its own; `Retry-After` of a 503; `Content-Encoding`, to tell
 * a compressed body's ETag from the plain one's. No response carries `Location` (no redirects).
 */
const EXPOSED = [
  'ETag',
  'Server-Timing',
  'Date',
  'Content-Type',
  'Content-Length',
  'Content-Encoding',
  'Vary',
  'Allow',
  'Cache-Control',
  'Retry-After',
];
/**
 * Request headers a script may send by default: JSON:API negotiation, conditional requests, and
 * the two that client libraries and API gateways commonly add (a read-only public API ignores them).
 */
export const DEFAULT_ALLOWED_HEADERS: readonly string[] = [
  'Accept',
  'Content-Type',
  'If-None-Match',
  'Authorization',
  'X-Requested-With',
];

/**
 * CORS for every response (errors, `/health` and `/metrics` included), with the `cors` package.
 * Any OPTIONS request is answered here with 204 and `Allow`: a preflight also gets the
 * `Access-Control-Allow-*` headers when its origin is allowed. With a list of origins the allowed
 * one is echoed back and responses carry `Vary: Origin`. `Timing-Allow-Origin` follows
 * `Access-Control-Allow-Origin`, so a browser shows `Server-Timing` to the page that asked.
 *
 * @example app.use(corsHandler({ origins: ['https://app.example.org'] }))
 */
export function corsHandler({ origins, allowHeaders = DEFAULT_ALLOWED_HEADERS }: CorsOptions): Handler {
  const handle = cors({
    origin: origins === '*' ? '*' : [...origins],
    methods: ['GET', 'HEAD'],
    allowedHeaders: [...allowHeaders],
    exposedHeaders: EXPOSED,
    maxAge: 86_400,
    optionsSuccessStatus: 204,
  });
  const full: Handler = (req, res, next) => {
    if (req.method === 'OPTIONS') res.setHeader('Allow', ALLOW);
    handle(req, res, (error?: unknown) => {
      const allowed = res.getHeader('Access-Control-Allow-Origin');
      if (allowed) res.setHeader('Timing-Allow-Origin', allowed);
      next(error);
    });
  };
  if (origins !== '*') return full;
  // With any origin, what every request but OPTIONS gets depends on nothing in it: read it once.
  const simple = staticHeaders(full, 'GET');
  return (req, res, next) => {
    if (req.method === 'OPTIONS') return full(req, res, next);
    setHeaders(res, simple);
    next();
  };
}
