import { format as formatMediaType } from 'content-type';
import type { Response } from 'express';
import { JSON_API } from '../request/negotiate.js';
import { APPLIED_PROFILES, type Document } from '../shape/documents.js';

/**
 * Sends a JSON:API document. The body goes as a Buffer, not a string: for strings Express adds
 * `; charset=utf-8`, and JSON:API 1.1 allows no media type parameters but `ext` and `profile`.
 * The profiles the document applies go in the Content-Type, as the spec asks.
 */
export function send(res: Response, status: number, body: unknown): void {
  const profiles = (body as Partial<Document>)[APPLIED_PROFILES] ?? [];
  const contentType = profiles.length > 0 ? formatMediaType({ type: JSON_API, parameters: { profile: profiles.join(' ') } }) : JSON_API;
  res.status(status).set('Content-Type', contentType).set('Vary', 'Accept').send(Buffer.from(JSON.stringify(body)));
}
