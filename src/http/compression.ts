import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import Negotiator from 'negotiator';
import { isFresh, type Representation, type SendOptions, sendRepresentation } from './conditional.js';
import type { Request, Response } from './handler.js';

/** The content codings the server applies: brotli and gzip, or none. */
export type Encoding = 'br' | 'gzip' | 'identity';

/**
 * Bodies smaller than this go as they are: below about a kilobyte the codings' headers and a
 * round trip to zlib's thread pool cost more than the bytes they save (the `compression`
 * middleware's threshold too). Every list page is above it; a single resource often is not.
 */
export const COMPRESSION_THRESHOLD = 1024;

/**
 * Levels for bodies made per request: brotli's quality 4 compresses JSON:API pages smaller than gzip
 * does, at about gzip's speed (brotli's default, 11, is tuned for static files: tens of times
 * slower); gzip's default level, 6. docs/performance.md has the figures.
 */
export const BROTLI_OPTIONS = {
  params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
};
const compressBrotli = promisify(brotliCompress);
const compressGzip = promisify(gzip);

/** Preferred on a tie: brotli is smaller, gzip is what every client takes. */
const CODINGS = ['br', 'gzip', 'identity'];

/**
 * The coding to send `body` with: what the request's Accept-Encoding prefers among brotli, gzip
 * and none (negotiated by `negotiator`, as Express does; brotli first when the client weighs them
 * alike), or none below {@link COMPRESSION_THRESHOLD}. A client that refuses every coding
 * (`identity;q=0` and nothing else) gets the body as it is: a 406 would help nobody.
 *
 * @example chooseEncoding({ 'accept-encoding': 'gzip, deflate, br' }, 64_000) // 'br'
 */
export function chooseEncoding(headers: Request['headers'], bytes: number): Encoding {
  if (bytes < COMPRESSION_THRESHOLD || headers['accept-encoding'] === undefined) return 'identity';
  const negotiator = new Negotiator({ headers });
  // @types/negotiator leaves out the `preferred` option (negotiator ≥ 0.6.4), which breaks ties.
  const encodings = negotiator.encodings as (available: string[], options: { preferred: string[] }) => string[];
  return (encodings.call(negotiator, CODINGS, { preferred: CODINGS })[0] as Encoding | undefined) ?? 'identity';
}

/**
 * One response body and its compressed forms, each made once, when first asked for (the response
 * cache keeps this object, so a hit never compresses again). A compressed form is another
 * representation, so it has another strong ETag (RFC 9110 §8.8.3): the identity one with the
 * coding appended inside the quotes (`"2b-…-br"`), known before compressing, so a matching
 * If-None-Match is answered 304 without compressing anything. Equal on every replica, as the
 * identity tag is.
 *
 * @example const variants = new Variants(represent(document)); await variants.get('gzip')
 */
export class Variants {
  private readonly encoded = new Map<Exclude<Encoding, 'identity'>, Promise<Representation>>();
  private encodedBytes = 0;

  constructor(readonly identity: Representation) {}

  /** The ETag of the body in `encoding`. */
  etag(encoding: Encoding): string {
    return encoding === 'identity' ? this.identity.etag : `${this.identity.etag.slice(0, -1)}-${encoding}"`;
  }

  /** Every byte held: the body, its compressed forms made so far, and their tags (for the cache's bound). */
  get bytes(): number {
    return this.identity.body.length + this.identity.etag.length + this.encodedBytes;
  }

  /** Whether `encoding`'s form is made (or being made). */
  has(encoding: Encoding): boolean {
    return encoding === 'identity' || this.encoded.has(encoding);
  }

  /** The body in `encoding`, compressed on first use (on zlib's thread pool, off the event loop). */
  get(encoding: Encoding): Promise<Representation> {
    if (encoding === 'identity') return Promise.resolve(this.identity);
    let made = this.encoded.get(encoding);
    if (made === undefined) {
      const { body, contentType } = this.identity;
      const etag = this.etag(encoding);
      made = (encoding === 'br' ? compressBrotli(body, BROTLI_OPTIONS) : compressGzip(body)).then((bytes) => {
        this.encodedBytes += bytes.length + etag.length;
        return { body: bytes, etag, contentType, contentLength: String(bytes.length) };
      });
      this.encoded.set(encoding, made);
    }
    return made;
  }
}

/**
 * {@link sendRepresentation} for a body that may go compressed: negotiates the coding, answers a
 * matching If-None-Match with 304 before compressing, and sends `Content-Encoding` with the
 * compressed bytes. Every answer for a body above the threshold carries `Vary: Accept-Encoding`
 * beside `varyOn`. `made` is told when a compressed form was made by this call (the response cache
 * then counts its bytes).
 *
 * @example await sendVariants(req, res, new Variants(represent(document)), { cacheControl: 'no-cache' })
 */
export async function sendVariants(
  req: Request,
  res: Response,
  variants: Variants,
  { cacheControl, varyOn: vary = ['Accept'], made }: SendOptions & { readonly made?: () => void },
): Promise<void> {
  const compressible = variants.identity.body.length >= COMPRESSION_THRESHOLD;
  const encoding = chooseEncoding(req.headers, variants.identity.body.length);
  const varyOn = compressible ? [...vary, 'Accept-Encoding'] : vary;
  const etag = variants.etag(encoding);
  if (!variants.has(encoding) && isFresh(req, etag)) {
    // The 304 a compressed form would get, without making it.
    sendRepresentation(req, res, { ...variants.identity, etag }, { cacheControl, varyOn });
    return;
  }
  const fresh = !variants.has(encoding);
  const representation = await variants.get(encoding);
  if (fresh) made?.();
  if (encoding !== 'identity') res.setHeader('Content-Encoding', encoding);
  sendRepresentation(req, res, representation, { cacheControl, varyOn });
}
