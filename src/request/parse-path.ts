import { notFound } from '../errors/json-api-error.js';

/** The four URL shapes the server answers, with names still unchecked against the mapping. */
export interface Route {
  /** Dataset named in an `/api/<dataset>` prefix; `undefined` for the unprefixed (default) form. */
  readonly dataset: string | undefined;
  readonly type: string;
  readonly id?: string;
  readonly relationship?: string;
  /** `links` or `relationships` for a relationship (linkage) URL; absent for a related URL. */
  readonly linkage?: 'links' | 'relationships';
}

/**
 * Splits a request path into a {@link Route}; throws 404 for any other shape.
 *
 * @example parsePath('/api/sample/trade-activities/5a3f/links/concerns')
 * // { dataset: 'sample', type: 'trade-activities', id: '5a3f', relationship: 'concerns', linkage: 'links' }
 */
export function parsePath(pathname: string): Route {
  let segments: string[];
  try {
    segments = pathname.split('/').slice(1).map(decodeURIComponent);
  } catch {
    throw notFound('The path is not valid percent-encoded UTF-8.');
  }
  if (segments.length > 1 && segments.at(-1) === '') segments.pop(); // one trailing slash is forgiven
  let dataset: string | undefined;
  if (segments[0] === 'api') {
    dataset = segments[1];
    segments = segments.slice(2);
  }
  const [type, id, third, fourth, ...rest] = segments;
  if (!type || rest.length > 0 || segments.includes('')) throw notFound(`No resource lives at ${pathname}.`);
  if (fourth !== undefined) {
    if (third !== 'links' && third !== 'relationships') throw notFound(`No resource lives at ${pathname}.`);
    return { dataset, type, id: id!, relationship: fourth, linkage: third };
  }
  return { dataset, type, ...(id !== undefined && { id }), ...(third !== undefined && { relationship: third }) };
}
