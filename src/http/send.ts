import type { Response } from 'express';
import { JSON_API } from '../request/negotiate.js';

/**
 * Sends a JSON:API document. The body goes as a Buffer, not a string: for strings Express adds
 * `; charset=utf-8`, and JSON:API 1.1 allows no media type parameters but `ext` and `profile`.
 */
export function send(res: Response, status: number, body: unknown): void {
  res.status(status).set('Content-Type', JSON_API).set('Vary', 'Accept').send(Buffer.from(JSON.stringify(body)));
}
