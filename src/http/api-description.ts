import type { IncomingMessage } from 'node:http';
import { type Dataset, optionsOf } from '../dataset.js';
import { openApiDocument } from '../openapi/openapi-document.js';
import { sendVariants, Variants } from './compression.js';
import { type Representation, representBytes } from './conditional.js';
import type { Handler } from './handler.js';
import { parsedTarget } from './parsed-target.js';
import { linkBaseFor, perBase } from './public-base.js';

/**
 * `application/json` rather than `application/vnd.oai.openapi+json`: browsers show it, and every
 * OpenAPI tool reads it (the document says `openapi: 3.1.0` itself), while the registered type makes
 * a browser download the file and some tools refuse it.
 */
const CONTENT_TYPE = 'application/json';

/** Whether a dataset is the server's default one, served at `/` rather than under `/api/<name>`. */
export interface DatasetRole {
  readonly isDefault: boolean;
}

/**
 * Where a dataset's type-rooted paths are served: its link base when it has one (links point there,
 * so the API does), else `/` for the default dataset and `/api/<name>` for the others.
 *
 * @example serverUrl({ name: 'trade', linkBase: '' }, { isDefault: false }) // '/api/trade'
 */
export function serverUrl(dataset: Pick<Dataset, 'name' | 'linkBase'>, { isDefault }: DatasetRole): string {
  if (dataset.linkBase !== '') return dataset.linkBase;
  return isDefault ? '/' : `/api/${encodeURIComponent(dataset.name)}`;
}

/** The OpenAPI description of a dataset, serialised once, as `/openapi.json` serves it. */
function describeDataset(dataset: Dataset, { isDefault }: DatasetRole): Representation {
  const document = openApiDocument(dataset.mapping, {
    dataset: dataset.name,
    serverUrl: serverUrl(dataset, { isDefault }),
    plan: optionsOf(dataset),
    explain: optionsOf(dataset).explain,
    root: isDefault,
  });
  return representBytes(Buffer.from(JSON.stringify(document)), CONTENT_TYPE);
}

/**
 * The dataset and name of a GET or HEAD of `/<name>` or `/api/<dataset>/<name>`, the shape of a
 * collection's URL, which the description and the docs page share with JSON:API's types; `undefined`
 * for any other request, and for an unknown dataset (the JSON:API handler's 404). Read from the
 * request's parsed route, as the JSON:API handler reads it. A trailing slash is no such request:
 * the docs page's relative URLs (`scalar.js`, `openapi.json`) would resolve under it.
 *
 * @example staticTarget(req, datasets, fallback) // { dataset, name: 'openapi.json' } for GET /openapi.json
 */
export function staticTarget(
  req: IncomingMessage,
  datasets: ReadonlyMap<string, Dataset>,
  defaultDataset: Dataset,
): { readonly dataset: Dataset; readonly name: string } | undefined {
  if (req.method !== 'GET' && req.method !== 'HEAD') return undefined;
  const target = parsedTarget(req);
  if (target.path.endsWith('/')) return undefined;
  const route = target.routeOrUndefined();
  if (route === undefined || route.id !== undefined || route.relationship !== undefined) return undefined;
  const dataset = route.dataset === undefined ? defaultDataset : datasets.get(route.dataset);
  return dataset && { dataset, name: route.type };
}

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
): Handler & { readonly description: (dataset?: string) => Representation | undefined } {
  const bodies = new Map(
    [...datasets.values()].map((d) => [d, new Variants(describeDataset(d, { isDefault: d === defaultDataset }))]),
  );
  // Behind a trusted proxy, one description per base the forwarding headers give (a few at most).
  const forwarded = new Map(
    [...datasets.values()].map((d) => [
      d,
      perBase((linkBase) => new Variants(describeDataset({ ...d, linkBase }, { isDefault: d === defaultDataset }))),
    ]),
  );
  const bodyFor = (req: IncomingMessage, dataset: Dataset): Variants => {
    const linkBase = linkBaseFor(req, dataset);
    return linkBase === dataset.linkBase ? bodies.get(dataset)! : forwarded.get(dataset)!(linkBase);
  };
  const handler: Handler = async (req, res, next) => {
    const target = staticTarget(req, datasets, defaultDataset);
    if (target?.name !== 'openapi.json') return next();
    // Every request gets the same bytes, compressed or not: Vary names Accept-Encoding alone.
    await sendVariants(req, res, bodyFor(req, target.dataset), { cacheControl: 'no-cache', varyOn: [] });
  };
  // What /openapi.json serves, read without a request (tests hold every response to it this way,
  // without adding requests to the metrics and logs they check).
  const description = (name?: string) => {
    const dataset = name === undefined ? defaultDataset : datasets.get(name);
    return dataset && bodies.get(dataset)?.identity;
  };
  return Object.assign(handler, { description });
}
