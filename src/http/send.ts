import vary from 'vary';
import { JSON_API } from '../request/media-types.js';
import type { Response } from './handler.js';
import { setHeaders } from './static-headers.js';

/**
 * Sends a JSON:API document that no cache may keep: errors and `/health`. They carry no ETag and
 * `Cache-Control: no-store`, so a 502 from a store hiccup is never replayed by a cache (dataset
 * responses go through `sendRepresentation` in conditional.ts instead). `headers` are set first (an
 * error's `Allow`, `Retry-After`). A HEAD gets the headers, Content-Length included, and no body
 * (Node leaves it out).
 *
 * @example send(res, 503, errorDocument([{ status: '503', title: 'Service Unavailable' }]))
 */
export function send(
  res: Response,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): void {
  const bytes = Buffer.from(JSON.stringify(body));
  setHeaders(res, Object.entries(headers));
  res.removeHeader('ETag');
  res.statusCode = status;
  res.setHeader('Content-Type', JSON_API);
  res.setHeader('Cache-Control', 'no-store');
  vary(res, 'Accept');
  res.setHeader('Content-Length', bytes.length);
  res.end(bytes);
}
