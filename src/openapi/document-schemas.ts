import type { Mapping, ResourceType } from '../mapping/model.js';
import { reachableTypes } from './field-paths.js';
import { type Json, names, orNull, ref } from './json-schema.js';
import { EXAMPLE_ID, link, nullableLink } from './words.js';

/** Shared component names (with a dot, like every non-resource component). */
export const SHARED = {
  jsonapi: 'jsonapi.object',
  error: 'jsonapi.error',
  errors: 'jsonapi.error-document',
  pageLinks: 'jsonapi.page-links',
  pageMeta: 'jsonapi.page-meta',
  linkageLinks: 'jsonapi.linkage-links',
  itemMeta: 'jsonapi.item-meta',
} as const;

/** The schemas every type's documents share: the `jsonapi` object, error documents, page links and meta, linkage links, item meta. */
export function sharedSchemas(exampleType = 'things'): Record<string, Json> {
  return {
    [SHARED.jsonapi]: {
      type: 'object',
      required: ['version'],
      additionalProperties: false,
      properties: { version: { type: 'string', const: '1.1' } },
    },
    ...errorSchemas(),
    [SHARED.pageLinks]: pageLinks(exampleType),
    [SHARED.pageMeta]: PAGE_META,
    [SHARED.linkageLinks]: {
      type: 'object',
      required: ['self', 'related'],
      additionalProperties: false,
      // A linkage URL is its source's (any type that points here): the example leaves it open.
      properties: { self: link(`/…/${EXAMPLE_ID}/links/…`), related: link(`/…/${EXAMPLE_ID}/…`) },
    },
    [SHARED.itemMeta]: {
      type: 'object',
      properties: {
        page: {
          type: 'object',
          properties: {
            cursor: { type: 'string', description: 'Where to page on from this item (page[after], page[before]).' },
          },
        },
      },
    },
  };
}

/** An error object, and the error document. */
function errorSchemas(): Record<string, Json> {
  return {
    [SHARED.error]: {
      type: 'object',
      required: ['status', 'title'],
      additionalProperties: false,
      properties: {
        status: { type: 'string', pattern: '^[45][0-9]{2}$', description: 'The HTTP status, as a string.' },
        title: { type: 'string' },
        detail: { type: 'string', description: 'What was wrong, and what was expected.' },
        source: {
          type: 'object',
          additionalProperties: false,
          properties: {
            parameter: { type: 'string', description: 'The query parameter that caused the error, as sent.' },
            header: { type: 'string', description: 'The request header that caused the error.' },
            pointer: { type: 'string' },
          },
        },
        meta: {
          type: 'object',
          description: 'For a page[size] past the maximum: page.maxSize (the cursor pagination profile).',
        },
      },
    },
    [SHARED.errors]: {
      type: 'object',
      title: 'Error document',
      required: ['jsonapi', 'errors'],
      additionalProperties: false,
      properties: {
        jsonapi: ref(SHARED.jsonapi),
        errors: { type: 'array', minItems: 1, items: ref(SHARED.error) },
      },
    },
  };
}

function pageLinks(exampleType: string): Json {
  const page = (n: number) => `/${exampleType}?page%5Bnumber%5D=${n}`;
  return {
    type: 'object',
    description:
      'A page’s links: each keeps the request’s other query parameters. prev is null on the first page and next on the last; last is left out when the dataset does not count, and on cursor pages (where prev and next carry cursors and first none).',
    required: ['self', 'first', 'prev', 'next'],
    properties: {
      self: link(page(1)),
      first: link(page(0)),
      prev: nullableLink(page(0)),
      next: nullableLink(page(2)),
      last: link(page(4)),
    },
  };
}

const PAGE_META: Json = {
  type: 'object',
  additionalProperties: false,
  properties: {
    count: {
      type: 'integer',
      minimum: 0,
      description: 'Offset pages: the number of resources in the whole (filtered) list.',
    },
    page: {
      type: 'object',
      additionalProperties: false,
      properties: {
        total: {
          type: 'integer',
          minimum: 0,
          description: 'Cursor pages: the number of resources in the whole list.',
        },
        rangeTruncated: {
          type: 'boolean',
          const: true,
          description: 'A range (page[after] and page[before]) held more than page[size] resources.',
        },
      },
    },
  },
};

/**
 * The documents that answer for a type: single resource, nullable resource (a to-one related URL),
 * collection, relationship linkage (to-one and to-many), and the `included` array, each by
 * component name. `includeDepth` bounds which types `included` can hold.
 */
export function documentSchemas(mapping: Mapping, type: ResourceType, includeDepth: number): Record<string, Json> {
  const resource = ref(names.resource(type.name));
  const identifier = ref(names.identifier(type.name));
  const jsonapi = ref(SHARED.jsonapi);
  const included = { ...ref(names.included(type.name)) };
  const at = `/${type.name}/${EXAMPLE_ID}`;
  const self = { type: 'object', required: ['self'], additionalProperties: false, properties: { self: link(at) } };
  const linkageLinks = ref(SHARED.linkageLinks);
  const reachable = reachableTypes(mapping, type, includeDepth);
  const document = (title: string, data: Json, links: Json, extra: Json = {}) => ({
    type: 'object',
    title,
    required: ['jsonapi', 'links', 'data'],
    additionalProperties: false,
    properties: { jsonapi, links, data, ...extra },
  });
  return {
    [names.included(type.name)]: {
      type: 'array',
      description:
        'Compound document: the resources an `include` reached, each once, never one that is primary data. There whenever the request has `include` (`[]` when nothing is reached).',
      ...(reachable.length === 0
        ? { maxItems: 0 }
        : { items: { oneOf: reachable.map((t) => ref(names.resource(t.name))) } }),
    },
    [names.single(type.name)]: document(`One ${type.name}`, resource, self, { included }),
    [names.related(type.name)]: document(`One ${type.name} or null`, orNull(resource), self, { included }),
    [names.collection(type.name)]: document(
      `A page of ${type.name}`,
      { type: 'array', items: resource },
      { ...ref(SHARED.pageLinks), unevaluatedProperties: false },
      { included, meta: ref(SHARED.pageMeta) },
    ),
    [names.toOneLinkage(type.name)]: document(`Linkage to one ${type.name} or null`, orNull(identifier), linkageLinks),
    [names.toManyLinkage(type.name)]: document(
      `A page of linkage to ${type.name}`,
      { type: 'array', items: identifier },
      {
        ...ref(SHARED.pageLinks),
        properties: { related: link(`/…/${EXAMPLE_ID}/…`) },
        required: ['related'],
        unevaluatedProperties: false,
      },
      { meta: ref(SHARED.pageMeta) },
    ),
  };
}
