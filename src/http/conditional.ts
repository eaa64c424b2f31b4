import { hash } from 'node:crypto';
import { format as formatMediaType } from 'content-type';
import fresh from 'fresh';
import vary from 'vary';
import { JSON_API } from '../request/media-types.js';
import { APPLIED_PROFILES, type Document } from '../shape/documents.js';
import type { Request, Response } from './handler.js';

/** A 200's body as it goes on the wire, with the strong entity tag of exactly those bytes. */
export interface Representation {
  readonly body: Buffer;
  readonly etag: string;
  /**
   * The body's media type: for a JSON:API document, the JSON:API media type with the profiles the
   * document applies (JSON:API 1.1 §profiles).
   */
  readonly contentType: string;
  /** `body.length` as the Content-Length header's value, written once. */
  readonly contentLength: string;
}

/**
 * Serialises a JSON:API document once. The ETag is a hash of the body bytes, never a counter or a
 * time: replicas behind a load balancer that produce the same body produce the same ETag, so a
 * client can revalidate against any of them. It is computed once per body (a cached representation
 * keeps it), in the `etag` package's format, which Express uses: `"<length in hex>-<SHA-1, base64,
 * 27 characters>"`, so ETags stay what they were before this module hashed on its own.
 *
 * @example represent({ jsonapi: { version: '1.1' }, data: null }).etag // '"2b-…"'
 */
export function represent(document: Document): Representation {
  const body = Buffer.from(JSON.stringify(document));
  const profiles = document[APPLIED_PROFILES] ?? [];
  const contentType =
    profiles.length > 0 ? formatMediaType({ type: JSON_API, parameters: { profile: profiles.join(' ') } }) : JSON_API;
  return representBytes(body, contentType);
}

/**
 * A representation of bytes served as they stand (the OpenAPI description, the docs page, Scalar's
 * bundle), with their entity tag, computed once.
 *
 * @example representBytes(Buffer.from('{}'), 'application/json').contentLength // '2'
 */
export function representBytes(body: Buffer, contentType: string): Representation {
  return { body, etag: entityTag(body), contentType, contentLength: String(body.length) };
}

/**
 * The strong entity tag of `body`: its length and the first 27 base64 characters of its SHA-1, as
 * the `etag` package writes it (one native call, no Hash object). Not a security measure: SHA-1 is
 * only a fast, deterministic digest here.
 *
 * @example entityTag(Buffer.from('')) // '"0-2jmj7l5rSw0yVb/vlWAYkK/YBwk"'
 */
export function entityTag(body: Buffer): string {
  return `"${body.length.toString(16)}-${hash('sha1', body, 'base64').slice(0, 27)}"`;
}

/**
 * Whether the request's `If-None-Match` matches `etag` (a list, `*`, and `W/` tags compared
 * weakly): the precondition fails, and the answer is a 304.
 *
 * @example isFresh(req, '"2b-…"') // true for If-None-Match: "2b-…"
 */
export function isFresh(req: Request, etag: string): boolean {
  const ifNoneMatch = req.headers['if-none-match'];
  return ifNoneMatch !== undefined && fresh({ 'if-none-match': ifNoneMatch }, { etag });
}

/** The headers an answer carries beside its representation's own. */
export interface SendOptions {
  readonly cacheControl: string;
  /** The request headers the representation was chosen by (`Vary`); default `Accept`. */
  readonly varyOn?: readonly string[];
}

/**
 * Answers a GET or HEAD with a representation: 304 with no body when the request's
 * `If-None-Match` matches its ETag (a list, `*`, and `W/` tags compared weakly, as RFC 9110
 * §13.1.2 asks), the 200 otherwise. Both carry ETag, Cache-Control and Vary; a HEAD gets the
 * GET's headers, Content-Length included, and no body (Node leaves it out). `varyOn` names the request
 * headers the representation was chosen by: `Accept` for a negotiated JSON:API document, none for
 * bytes every request gets alike (so no cache is told to key on a header that changes nothing).
 *
 * The precondition is evaluated here, once: the response is ended directly rather than through
 * Express's `res.send`, whose own freshness check could never change the outcome (it is stricter:
 * it also needs no `Cache-Control: no-cache`), and whose other work (ETag generation, Content-Type
 * defaults, Content-Length) a representation has already done.
 *
 * @example sendRepresentation(req, res, represent(document), { cacheControl: 'no-cache' })
 */
export function sendRepresentation(
  req: Request,
  res: Response,
  representation: Representation,
  { cacheControl, varyOn = ['Accept'] }: SendOptions,
): void {
  res.setHeader('ETag', representation.etag);
  res.setHeader('Cache-Control', cacheControl);
  for (const field of varyOn) vary(res, field);
  // Only If-None-Match is a precondition here: no Last-Modified is sent, so If-Modified-Since has
  // nothing to compare with. The request's Cache-Control is left out on purpose: `fresh` treats
  // `no-cache` as a forced reload, a rule for caches, while an origin server evaluates the
  // precondition regardless (RFC 9110 §13.2.2).
  if (isFresh(req, representation.etag)) {
    // A 304 keeps ETag, Cache-Control and Vary and no representation metadata (RFC 9110 §15.4.5).
    res.statusCode = 304;
    res.end();
    return;
  }
  res.statusCode = 200;
  res.setHeader('Content-Type', representation.contentType);
  res.setHeader('Content-Length', representation.contentLength);
  // A HEAD response has no body: Node drops what is passed to end(), and keeps Content-Length.
  res.end(req.method === 'HEAD' ? undefined : representation.body);
}
