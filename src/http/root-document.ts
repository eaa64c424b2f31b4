import type { IncomingMessage } from 'node:http';
import { type Dataset, optionsOf } from '../dataset.js';
import { negotiate } from '../request/negotiate.js';
import { serverUrl } from './api-description.js';
import { sendVariants, Variants } from './compression.js';
import { represent } from './conditional.js';
import type { Handler } from './handler.js';
import { parsedTarget } from './parsed-target.js';
import { perBase, rootBaseFor, withBase } from './public-base.js';

/**
 * Where a dataset's URLs are: its description, its docs page, and one link per type, to the type's
 * collection, named by the type.
 */
export interface DatasetLinks {
  readonly describedby: string;
  readonly docs: string;
  readonly [type: string]: string;
}

/**
 * The links of one dataset, under the URL its type-rooted paths are served at (`/` for the
 * default dataset, `/api/<name>` for the others, or the link base).
 *
 * @example datasetLinks(sample, { isDefault: true }) // { describedby: '/openapi.json', docs: '/docs', concepts: '/concepts', … }
 */
export function datasetLinks(dataset: Dataset, { isDefault }: { isDefault: boolean }): DatasetLinks {
  const base = serverUrl(dataset, { isDefault }).replace(/\/+$/, '');
  const types = [...dataset.mapping.types.keys()].map((type) => [type, `${base}/${encodeURIComponent(type)}`]);
  return { describedby: `${base}/openapi.json`, docs: `${base}/docs`, ...Object.fromEntries(types) };
}

/**
 * The root document: where a client (or a person with curl) starts. JSON:API 1.1 lets a document's
 * top-level `links` hold `self`, `describedby` (the OpenAPI description) and pagination links only,
 * so the collections of each dataset are links objects in `meta.datasets.<name>.links`.
 *
 * @example rootDocument(datasets, fallback).meta.datasets.sample.links.concepts // '/concepts'
 */
export function rootDocument(
  datasets: ReadonlyMap<string, Dataset>,
  defaultDataset: Dataset,
  base: LinkBases = { root: defaultDataset.publicBase ?? '', of: (d) => d.linkBase },
) {
  const shown = (d: Dataset) => ({ ...d, linkBase: base.of(d) });
  const entries = [...datasets.values()].map((dataset) => {
    const isDefault = dataset === defaultDataset;
    const links = datasetLinks(shown(dataset), { isDefault });
    return [dataset.name, { ...(isDefault && { default: true }), links }] as const;
  });
  return {
    jsonapi: { version: '1.1' as const },
    links: { self: `${base.root}/`, describedby: datasetLinks(shown(defaultDataset), { isDefault: true }).describedby },
    meta: { datasets: Object.fromEntries(entries) },
  };
}

/** Where the root document's links point: the server's `/` (without its slash), and each dataset's link base. */
export interface LinkBases {
  readonly root: string;
  readonly of: (dataset: Dataset) => string;
}

/**
 * `GET /` (and HEAD): the {@link rootDocument}, built once, negotiated as every JSON:API response
 * (406 and 415 alike). A browser, which prefers HTML, gets the docs page instead
 * (`docs-page.ts`, before this handler). Any other path goes on.
 *
 * @example app.use(rootDocumentHandler(datasets, defaultDataset))
 */
export function rootDocumentHandler(datasets: ReadonlyMap<string, Dataset>, defaultDataset: Dataset): Handler {
  const body = new Variants(represent(rootDocument(datasets, defaultDataset)));
  const { cacheControl } = optionsOf(defaultDataset);
  // Behind a trusted proxy, one document per base the forwarding headers give (a few at most).
  // Every dataset's links follow the same forwarded base, so the root's names the whole document.
  const forwarded = perBase((root) => {
    const of = (d: Dataset) => withBase(d, root);
    return new Variants(represent(rootDocument(datasets, defaultDataset, { root, of })));
  });
  const bodyFor = (req: IncomingMessage): Variants => {
    const root = rootBaseFor(req, defaultDataset);
    return root === (defaultDataset.publicBase ?? '') ? body : forwarded(root);
  };
  return async (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || parsedTarget(req).path !== '/') return next();
    negotiate(req.headers.accept, req.headers['content-type']);
    await sendVariants(req, res, bodyFor(req), { cacheControl });
  };
}
