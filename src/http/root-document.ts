import { type Dataset, optionsOf } from '../dataset.js';
import { negotiate } from '../request/negotiate.js';
import { serverUrl } from './api-description.js';
import { sendVariants, Variants } from './compression.js';
import { represent } from './conditional.js';
import type { Handler } from './handler.js';
import { parsedTarget } from './parsed-target.js';

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
 * @example datasetLinks(sample, true) // { describedby: '/openapi.json', docs: '/docs', concepts: '/concepts', … }
 */
export function datasetLinks(dataset: Dataset, isDefault: boolean): DatasetLinks {
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
export function rootDocument(datasets: ReadonlyMap<string, Dataset>, defaultDataset: Dataset) {
  const entries = [...datasets.values()].map((dataset) => {
    const isDefault = dataset === defaultDataset;
    return [dataset.name, { ...(isDefault && { default: true }), links: datasetLinks(dataset, isDefault) }] as const;
  });
  return {
    jsonapi: { version: '1.1' as const },
    links: { self: '/', describedby: datasetLinks(defaultDataset, true).describedby },
    meta: { datasets: Object.fromEntries(entries) },
  };
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
  return async (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || parsedTarget(req).path !== '/') return next();
    negotiate(req.headers.accept, req.headers['content-type']);
    await sendVariants(req, res, body, { cacheControl });
  };
}
