import { timingSafeEqual } from 'node:crypto';
import { JsonApiError } from '../errors/json-api-error.js';
import type { Handler, Request } from './handler.js';

/**
 * Lets through only requests with `Authorization: Bearer <token>` (compared in constant time), or
 * every request when there is no token. Any other gets 401 with `WWW-Authenticate: Bearer`, a
 * JSON:API error naming `what`; `refused` hears of it first (a metric).
 *
 * @example app.post('/.mu/delta', bearerOnly(process.env.DELTA_TOKEN, '/.mu/delta'), apply)
 */
export function bearerOnly(token: string | undefined, what: string, refused?: (req: Request) => void): Handler {
  if (token === undefined) return (_req, _res, next) => next();
  const expected = Buffer.from(`Bearer ${token}`);
  return (req, res, next) => {
    const given = Buffer.from(req.headers.authorization ?? '');
    if (given.length === expected.length && timingSafeEqual(given, expected)) return next();
    refused?.(req);
    res.setHeader('WWW-Authenticate', 'Bearer');
    next(new JsonApiError(401, 'Unauthorized', `${what} needs Authorization: Bearer <token>.`));
  };
}
