import type { ErrorObject } from '../errors/json-api-error.js';
import type { PageLinks } from './page-links.js';
import type { ResourceObject } from './resource-objects.js';

const JSONAPI = { version: '1.1' } as const;

export type Linkage = { type: string; id: string };

export interface Document {
  jsonapi: typeof JSONAPI;
  data?: ResourceObject | ResourceObject[] | Linkage | Linkage[] | null;
  included?: ResourceObject[];
  errors?: ErrorObject[];
  links?: Record<string, string | null>;
  meta?: Record<string, unknown>;
}

/** What a paged document adds: pagination links and `meta` (the total count). */
export interface PageParts {
  readonly links: PageLinks;
  readonly meta?: Record<string, unknown>;
}

/**
 * A collection, single-resource or related-resource document: `data` plus `links.self`, a page's
 * links and meta, and `included` when the request asked for related resources (even when none).
 */
export function dataDocument(data: ResourceObject | ResourceObject[] | null, self: string, page?: PageParts, included?: ResourceObject[]): Document {
  const document = withPage({ jsonapi: JSONAPI, links: { self }, data }, page);
  if (included) document.included = included;
  return document;
}

/** A relationship document: resource linkage plus `links.self` and `links.related`, and a page's links and meta. */
export function linkageDocument(data: Linkage | Linkage[] | null, self: string, related: string, page?: PageParts): Document {
  return withPage({ jsonapi: JSONAPI, links: { self, related }, data }, page);
}

export function errorDocument(errors: readonly ErrorObject[]): Document {
  return { jsonapi: JSONAPI, errors: [...errors] };
}

function withPage(document: Document, page: PageParts | undefined): Document {
  if (!page) return document;
  Object.assign(document.links!, page.links);
  if (page.meta) document.meta = page.meta;
  return document;
}
