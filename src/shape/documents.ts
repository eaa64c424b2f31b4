import type { ErrorObject } from '../errors/json-api-error.js';
import type { ResourceObject } from './resource-objects.js';

const JSONAPI = { version: '1.1' } as const;

export type Linkage = { type: string; id: string };

export interface Document {
  jsonapi: typeof JSONAPI;
  data?: ResourceObject | ResourceObject[] | Linkage | Linkage[] | null;
  errors?: ErrorObject[];
  links?: Record<string, string>;
}

/** A collection, single-resource or related-resource document: `data` plus `links.self`. */
export function dataDocument(data: ResourceObject | ResourceObject[] | null, self: string): Document {
  return { jsonapi: JSONAPI, links: { self }, data };
}

/** A relationship document: resource linkage plus `links.self` and `links.related`. */
export function linkageDocument(data: Linkage | Linkage[] | null, self: string, related: string): Document {
  return { jsonapi: JSONAPI, links: { self, related }, data };
}

export function errorDocument(errors: readonly ErrorObject[]): Document {
  return { jsonapi: JSONAPI, errors: [...errors] };
}
