import { IncomingMessage, type OutgoingHttpHeader, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { Handler } from './handler.js';

/** Response headers in the order a middleware set them, with their names as it spelled them. */
export type StaticHeaders = readonly (readonly [name: string, value: OutgoingHttpHeader])[];

/**
 * The headers `middleware` sets on a response to a bare request with `method` (no headers, no
 * body), read once so that each request can get them with one `setHeader` apiece instead of
 * running the middleware again. Only for middleware whose headers depend on nothing else in the
 * request (helmet with static directives; CORS with any origin, for a method other than OPTIONS),
 * that calls `next` at once and does nothing but set headers.
 *
 * @example const headers = staticHeaders(helmet()); // then per request: setHeaders(res, headers)
 */
export function staticHeaders(middleware: Handler, method = 'GET'): StaticHeaders {
  const req = Object.assign(new IncomingMessage(new Socket()), { method, url: '/', originalUrl: '/' });
  const res = new ServerResponse(req);
  let outcome: { error: unknown } | undefined;
  void middleware(req, res, (error?: unknown) => {
    outcome = { error };
  });
  if (outcome === undefined || outcome.error !== undefined)
    throw new Error('staticHeaders: the middleware did not call next() at once without an error');
  if (res.headersSent || res.statusCode !== 200) throw new Error('staticHeaders: the middleware answered the request');
  // Node's getRawHeaderNames (since 15.13) keeps the names as set; @types/node 20 leaves it out.
  const names = (res as unknown as { getRawHeaderNames(): string[] }).getRawHeaderNames();
  return names.map((name) => [name, res.getHeader(name) as OutgoingHttpHeader] as const);
}

/** Sets `headers` on `res`, in order. */
export function setHeaders(res: ServerResponse, headers: StaticHeaders): void {
  for (const [name, value] of headers) res.setHeader(name, value);
}
