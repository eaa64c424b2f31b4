import type { ErrorObject } from '../errors/json-api-error.js';
import type { PageLinks } from './page-links.js';
import type { Linkage, ResourceObject } from './resource-objects.js';

const JSONAPI = { version: '1.1' } as const;

/**
 * The profiles a document applies. `send` names them in the Content-Type, as JSON:API 1.1 requires;
 * they stay out of the body (`jsonapi.profile` is optional in 1.1, and the JSON:API response
 * schema the tests hold responses to allows only `version` and `meta` there).
 */
export const APPLIED_PROFILES = Symbol('applied profiles');

export interface Document {
  jsonapi: typeof JSONAPI;
  data?: ResourceObject | ResourceObject[] | Linkage | Linkage[] | null;
  included?: ResourceObject[];
  errors?: ErrorObject[];
  links?: Record<string, string | null>;
  meta?: Record<string, unknown>;
  /** A symbol key: JSON.stringify leaves it out. */
  [APPLIED_PROFILES]?: readonly string[];
}

/**
 * What a paged document adds: pagination links and `meta` (the total count); for a cursor page,
 * the profile it applies and each item's cursor (`meta.page.cursor` of each item of `data`).
 */
export interface PageParts {
  readonly links: PageLinks;
  readonly meta?: Record<string, unknown>;
  readonly profile?: string;
  readonly cursors?: readonly string[];
}

/**
 * A collection, single-resource or related-resource document: `data` plus `links.self`, a page's
 * links and meta, and `included` when the request asked for related resources (even when none).
 */
export function dataDocument(
  data: ResourceObject | ResourceObject[] | null,
  self: string,
  page?: PageParts,
  included?: ResourceObject[],
): Document {
  const document = withPage({ jsonapi: JSONAPI, links: { self }, data }, page);
  if (included) document.included = included;
  return document;
}

/** A relationship document: resource linkage plus `links.self` and `links.related`, and a page's links and meta. */
export function linkageDocument(
  data: Linkage | Linkage[] | null,
  self: string,
  related: string,
  page?: PageParts,
): Document {
  return withPage({ jsonapi: JSONAPI, links: { self, related }, data }, page);
}

export function errorDocument(errors: readonly ErrorObject[]): Document {
  return { jsonapi: JSONAPI, errors: [...errors] };
}

function withPage(document: Document, page: PageParts | undefined): Document {
  if (!page) return document;
  Object.assign(document.links!, page.links);
  if (page.meta) document.meta = page.meta;
  if (page.profile) document[APPLIED_PROFILES] = [page.profile];
  if (page.cursors && Array.isArray(document.data)) {
    for (const [i, item] of document.data.entries()) item.meta = { ...item.meta, page: { cursor: page.cursors[i] } };
  }
  return document;
}
