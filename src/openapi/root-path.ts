import { JSON_API } from '../request/media-types.js';
import { type Json, ref } from './json-schema.js';

const LINK = { type: 'string', format: 'uri-reference' } as const;

/** The root document's schema (`http/root-document.ts`), by component name. */
export const ROOT_DOCUMENT = 'jsonapi.root-document';

/**
 * `GET /` of the default dataset's description: the root document, whose `meta.datasets` holds a
 * links object per dataset (its description, its docs page, and each type's collection by the
 * type's name), or, for an Accept that prefers HTML, the docs page.
 *
 * @example rootPath()['/'].get.operationId // 'root'
 */
export function rootPath(): { readonly path: Record<string, Json>; readonly schemas: Record<string, Json> } {
  return { schemas: { [ROOT_DOCUMENT]: rootDocumentSchema() }, path: { '/': { get: ROOT_OPERATION } } };
}

const ROOT_OPERATION: Json = {
  operationId: 'root',
  tags: ['API'],
  summary: 'Start here: every dataset’s collections',
  description:
    'The root document: links to each dataset’s collections, its OpenAPI description and its docs page. A browser (an Accept that prefers text/html) gets the docs page.',
  parameters: [ref('if-none-match', 'parameters')],
  responses: {
    '200': {
      description: 'OK',
      headers: {
        ETag: ref('etag', 'headers'),
        'Cache-Control': ref('cache-control', 'headers'),
        Vary: ref('vary', 'headers'),
        'Content-Encoding': ref('content-encoding', 'headers'),
      },
      content: {
        [JSON_API]: { schema: ref(ROOT_DOCUMENT) },
        'text/html': { schema: { type: 'string', description: 'The docs page.' } },
      },
    },
    '304': ref('not-modified', 'responses'),
    '406': ref('error.406', 'responses'),
    '415': ref('error.415', 'responses'),
    default: ref('error.other', 'responses'),
  },
};

function rootDocumentSchema(): Json {
  const datasetLinks = {
    type: 'object',
    required: ['describedby', 'docs'],
    properties: { describedby: LINK, docs: LINK },
    additionalProperties: { ...LINK, description: 'A type’s collection, by the type’s name.' },
    examples: [{ describedby: '/openapi.json', docs: '/docs', articles: '/articles', people: '/people' }],
  };
  return {
    type: 'object',
    title: 'The root document',
    required: ['jsonapi', 'links', 'meta'],
    additionalProperties: false,
    properties: {
      jsonapi: ref('jsonapi.object'),
      links: {
        type: 'object',
        required: ['self', 'describedby'],
        additionalProperties: false,
        properties: { self: LINK, describedby: LINK },
      },
      meta: {
        type: 'object',
        required: ['datasets'],
        additionalProperties: false,
        properties: {
          datasets: {
            type: 'object',
            description: 'Each dataset by name: default (the one served without /api/<name>), and its links.',
            additionalProperties: {
              type: 'object',
              required: ['links'],
              additionalProperties: false,
              properties: { default: { type: 'boolean', const: true }, links: datasetLinks },
            },
          },
        },
      },
    },
  };
}
