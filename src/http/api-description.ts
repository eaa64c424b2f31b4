import type { Request, RequestHandler, Response } from 'express';
import fresh from 'fresh';
import { type Dataset, optionsOf } from '../dataset.js';
import { openApiDocument } from '../openapi/openapi-document.js';
import { entityTag } from './conditional.js';
import { parsedTarget } from './parsed-target.js';

/**
 * `application/json` rather than `application/vnd.oai.openapi+json`: browsers show it, and every
 * OpenAPI tool reads it (the document says `openapi: 3.1.0` itself), while the registered type makes
 * a browser download the file and some tools refuse it.
 */
const CONTENT_TYPE = 'application/json';

/** A body served as it stands, with its entity tag, computed once. */
export interface StaticBody {
  readonly body: Buffer;
  readonly etag: string;
  readonly contentType: string;
  readonly cacheControl: string;
}

/**
 * Where a dataset's type-rooted paths are served: its link base when it has one (links point there,
 * so the API does), else `/` for the default dataset and `/api/<name>` for the others.
 *
 * @example serverUrl({ name: 'trade', linkBase: '' }, false) // '/api/trade'
 */
export function serverUrl(dataset: Pick<Dataset, 'name' | 'linkBase'>, isDefault: boolean): string {
  if (dataset.linkBase !== '') return dataset.linkBase;
  return isDefault ? '/' : `/api/${encodeURIComponent(dataset.name)}`;
}

/**
 * The OpenAPI description of a dataset, serialised once, as `/openapi.json` serves it.
 *
 * @example describeDataset(dataset, true).contentType // 'application/json'
 */
export function describeDataset(dataset: Dataset, isDefault: boolean): StaticBody {
  const document = openApiDocument(dataset.mapping, {
    dataset: dataset.name,
    serverUrl: serverUrl(dataset, isDefault),
    plan: optionsOf(dataset),
  });
  const body = Buffer.from(JSON.stringify(document));
  return { body, etag: entityTag(body), contentType: CONTENT_TYPE, cacheControl: 'no-cache' };
}

/** `/openapi.json` or `/api/<dataset>/openapi.json`: the dataset's name (`undefined`: the default). */
const DESCRIPTION_PATH = /^(?:\/api\/([^/]+))?\/openapi\.json$/;

/**
 * `GET /openapi.json` (the default dataset) and `GET /api/<dataset>/openapi.json`: each dataset's
 * OpenAPI 3.1 description, built once here, at start-up. Other methods, and unknown datasets, go on
 * to the JSON:API handler (its 405 and 404). No type name holds a dot, so none is shadowed.
 * `description(name)` gives a dataset's body without a request (`undefined`: the default dataset's).
 *
 * @example app.use(apiDescriptionHandler(datasets, defaultDataset))
 */
export function apiDescriptionHandler(
  datasets: ReadonlyMap<string, Dataset>,
  defaultDataset: Dataset,
): RequestHandler & { readonly description: (dataset?: string) => StaticBody | undefined } {
  const bodies = new Map([...datasets.values()].map((d) => [d, describeDataset(d, d === defaultDataset)]));
  const handler: RequestHandler = (req, res, next) => {
    const match = req.method === 'GET' || req.method === 'HEAD' ? DESCRIPTION_PATH.exec(parsedTarget(req).path) : null;
    const dataset = match && (match[1] === undefined ? defaultDataset : datasets.get(safeDecode(match[1])));
    if (!dataset) return next();
    sendStatic(req, res, bodies.get(dataset)!);
  };
  // What /openapi.json serves, read without a request (tests hold every response to it this way,
  // without adding requests to the metrics and logs they check).
  const description = (name?: string) => {
    const dataset = name === undefined ? defaultDataset : datasets.get(name);
    return dataset && bodies.get(dataset);
  };
  return Object.assign(handler, { description });
}

/** A path segment, percent-decoded; `''` (no dataset has that name) when it is not valid UTF-8. */
export function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return '';
  }
}

/** Sends a {@link StaticBody}: a 304 when If-None-Match matches, no body for HEAD. */
export function sendStatic(req: Request, res: Response, body: StaticBody): void {
  res.setHeader('ETag', body.etag);
  res.setHeader('Cache-Control', body.cacheControl);
  const ifNoneMatch = req.headers['if-none-match'];
  if (ifNoneMatch !== undefined && fresh({ 'if-none-match': ifNoneMatch }, { etag: body.etag })) {
    res.statusCode = 304;
    res.end();
    return;
  }
  res.statusCode = 200;
  res.setHeader('Content-Type', body.contentType);
  res.setHeader('Content-Length', String(body.body.length));
  res.end(req.method === 'HEAD' ? undefined : body.body);
}
