import { format as formatMediaType } from 'content-type';
import entityTag from 'etag';
import type { Request, Response } from 'express';
import fresh from 'fresh';
import { JSON_API } from '../request/media-types.js';
import { APPLIED_PROFILES, type Document } from '../shape/documents.js';

/** A 200's body as it goes on the wire, with the strong entity tag of exactly those bytes. */
export interface Representation {
  readonly body: Buffer;
  readonly etag: string;
  /** The JSON:API media type, with the profiles the document applies (JSON:API 1.1 §profiles). */
  readonly contentType: string;
}

/**
 * Serialises a JSON:API document once. The ETag is a hash of the body bytes (the `etag` package,
 * as Express uses), never a counter or a time: replicas behind a load balancer that produce the
 * same body produce the same ETag, so a client can revalidate against any of them.
 *
 * @example represent({ jsonapi: { version: '1.1' }, data: null }).etag // '"2b-…"'
 */
export function represent(document: Document): Representation {
  const body = Buffer.from(JSON.stringify(document));
  const profiles = document[APPLIED_PROFILES] ?? [];
  const contentType =
    profiles.length > 0 ? formatMediaType({ type: JSON_API, parameters: { profile: profiles.join(' ') } }) : JSON_API;
  return { body, etag: entityTag(body), contentType };
}

/**
 * Answers a GET or HEAD with a representation: 304 with no body when the request's
 * `If-None-Match` matches its ETag (a list, `*`, and `W/` tags compared weakly, as RFC 9110
 * §13.1.2 asks), the 200 otherwise. Both carry ETag, Cache-Control and Vary; a HEAD gets the
 * GET's headers, Content-Length included, and no body (Express leaves it out).
 *
 * @example sendRepresentation(req, res, represent(document), 'no-cache')
 */
export function sendRepresentation(
  req: Request,
  res: Response,
  representation: Representation,
  cacheControl: string,
): void {
  res.set('ETag', representation.etag).set('Cache-Control', cacheControl).vary('Accept');
  // Only If-None-Match is a precondition here: no Last-Modified is sent, so If-Modified-Since has
  // nothing to compare with. The request's Cache-Control is left out on purpose: `fresh` treats
  // `no-cache` as a forced reload, a rule for caches, while an origin server evaluates the
  // precondition regardless (RFC 9110 §13.2.2).
  if (fresh({ 'if-none-match': req.get('if-none-match') }, { etag: representation.etag })) {
    // A 304 keeps ETag, Cache-Control and Vary and no representation metadata (RFC 9110 §15.4.5).
    res.status(304).end();
    return;
  }
  res.status(200).set('Content-Type', representation.contentType).send(representation.body);
}
