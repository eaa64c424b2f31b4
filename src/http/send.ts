import type { Response } from 'express';
import { JSON_API } from '../request/media-types.js';

/**
 * Sends a JSON:API document that no cache may keep: errors and `/health`. They carry no ETag and
 * `Cache-Control: no-store`, so a 502 from a store hiccup is never replayed by a cache (dataset
 * responses go through `sendRepresentation` in conditional.ts instead).
 *
 * The body goes as a Buffer, not a string: for strings Express adds `; charset=utf-8`, and
 * JSON:API 1.1 allows no media type parameters but `ext` and `profile`.
 *
 * @example send(res, 503, errorDocument([{ status: '503', title: 'Service Unavailable' }]))
 */
export function send(res: Response, status: number, body: unknown): void {
  res.removeHeader('ETag');
  res
    .status(status)
    .set('Content-Type', JSON_API)
    .set('Cache-Control', 'no-store')
    .vary('Accept')
    .send(Buffer.from(JSON.stringify(body)));
}
