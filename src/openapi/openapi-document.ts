import { hash } from 'node:crypto';
import { createRequire } from 'node:module';
import { describeIds } from '../mapping/ids.js';
import type { Mapping } from '../mapping/model.js';
import type { PlanOptions } from '../plan/plan.js';
import { JSON_API } from '../request/media-types.js';
import { documentSchemas, SHARED, sharedSchemas } from './document-schemas.js';
import { withExplain } from './explain-schemas.js';
import { type Json, ref } from './json-schema.js';
import { parameterComponents } from './parameters.js';
import { type ERROR_STATUSES, okResponses, pathItems } from './paths.js';
import { resourceSchemas } from './resource-schemas.js';
import { rootPath } from './root-path.js';

/** The server's version (package.json, beside `src/` and `dist/` alike): the API's version in `info`. */
const SERVER_VERSION = (createRequire(import.meta.url)('../../package.json') as { version: string }).version;

/** What the description needs besides the mapping: the dataset's name, where it is served, its limits. */
export interface ApiDescriptionOptions {
  /** The dataset's name (its `/api/<name>` prefix), for the title. */
  readonly dataset: string;
  /**
   * Where the type-rooted paths live: the dataset's link base, or its URL prefix (`/api/<name>`);
   * `/` (or `''`) for the root, which the document leaves to OpenAPI's default.
   */
  readonly serverUrl: string;
  /** Page sizes, include depth and request limits: what the parameters allow. */
  readonly plan: PlanOptions;
  /** The dataset answers `explain-plan` (docs/api.md "Explain"): every operation lists it. */
  readonly explain?: boolean;
  /** Describes `GET /`, the root document (the default dataset's description only: the root is the server's). */
  readonly root?: boolean;
}

const ERRORS: Record<(typeof ERROR_STATUSES)[number] | 'other', string> = {
  '400':
    'Bad Request: a query parameter the server cannot honour; source.parameter names it, detail says what was expected.',
  '404': 'Not Found: no such type, relationship or resource, or an id that cannot be an id of its type.',
  '406':
    'Not Acceptable: Accept names JSON:API only with parameters other than profile, or nothing this server produces.',
  '414': 'URI Too Long.',
  '415': 'Unsupported Media Type: Content-Type application/vnd.api+json with parameters other than profile.',
  '502': 'Bad Gateway: the triplestore is unreachable, failed, or answered something of the wrong shape.',
  '503': 'Service Unavailable: too many queries wait for the store (Retry-After: 1), or the server is stopping.',
  '504': 'Gateway Timeout: the request outlasted its deadline.',
  other:
    'Any other error (405 for a method but GET, HEAD and OPTIONS, 431 for headers too large), as a JSON:API error document.',
};

/**
 * The OpenAPI 3.1 description of a dataset's JSON:API, from its compiled mapping: a resource schema
 * per type (attributes typed by their datatypes, relationships with their linkage), the documents
 * each URL answers, every query parameter with the values the mapping allows, and the error
 * responses. Pure and deterministic: the same mapping and options give the same document. Its
 * `info.version` is the server's version (what the docs page's badge shows); `info.x-digest`, a
 * digest of its content, changes whenever the description does.
 *
 * @example openApiDocument(mapping, { dataset: 'default', serverUrl: '/', plan: DEFAULT_DATASET_OPTIONS }).paths['/concepts']
 */
export function openApiDocument(mapping: Mapping, options: ApiDescriptionOptions): Json {
  const schemas: Record<string, Json> = sharedSchemas(mapping.types.keys().next().value);
  for (const type of mapping.types.values()) {
    Object.assign(schemas, resourceSchemas(type), documentSchemas(mapping, type, options.plan.includeDepth));
  }
  const parameters = parameterComponents(mapping, options.plan);
  const paths = pathItems(mapping);
  Object.assign(schemas, parameters.schemas);
  if (options.explain) withExplain(mapping, { paths, parameters: parameters.parameters, schemas });
  // The root last (the docs page opens its first tag, which should be a type's), and without
  // explain-plan: the root document is the server's, not a request of the pipeline.
  const root = options.root ? rootPath() : undefined;
  Object.assign(paths, root?.path);
  Object.assign(schemas, root?.schemas);
  const components = { schemas, parameters: parameters.parameters, responses: responses(mapping), headers: HEADERS };
  const server = options.serverUrl.replace(/\/+$/, '');
  const digest = hash('sha256', JSON.stringify([paths, components]), 'base64url').slice(0, 12);
  return {
    openapi: '3.1.0',
    info: {
      title: `${options.dataset}: JSON:API over RDF`,
      version: SERVER_VERSION,
      'x-digest': digest,
      description: infoDescription(mapping),
    },
    externalDocs: { description: 'JSON:API 1.1', url: 'https://jsonapi.org/format/1.1/' },
    // A path is appended to the server URL as it stands: `/` would make `//concepts`, a
    // protocol-relative URL. The root is OpenAPI's default server, so it is left out.
    ...(server !== '' && { servers: [{ url: server, description: `dataset ${options.dataset}` }] }),
    tags: [
      ...[...mapping.types.values()].map((type) => ({
        name: type.name,
        description: `Members of <${type.classIri}>. Ids: ${describeIds(type.id)}.`,
      })),
      ...(root ? [{ name: 'API', description: 'Where to start: the datasets and their collections.' }] : []),
    ],
    paths,
    components,
  };
}

/** The responses every operation refers to: its 200 (by document schema), 304, and the errors. */
function responses(mapping: Mapping): Record<string, Json> {
  const errorContent = { [JSON_API]: { schema: ref(SHARED.errors) } };
  return {
    ...okResponses(pathItems(mapping)),
    'not-modified': {
      description: 'Not Modified: If-None-Match matched; no body.',
      headers: { ETag: ref('etag', 'headers'), 'Cache-Control': ref('cache-control', 'headers') },
    },
    ...Object.fromEntries(
      Object.entries(ERRORS).map(([status, description]) => [
        `error.${status}`,
        { description, headers: { 'Cache-Control': ref('no-store', 'headers') }, content: errorContent },
      ]),
    ),
  };
}

const HEADERS: Record<string, Json> = {
  etag: {
    description: 'A strong entity tag: a hash of the body bytes, the same on every replica.',
    schema: { type: 'string' },
  },
  'cache-control': {
    description: 'The dataset’s Cache-Control (no-cache by default).',
    schema: { type: 'string' },
  },
  'no-store': { description: 'no-store: no cache keeps an error.', schema: { type: 'string', const: 'no-store' } },
  vary: {
    description:
      'Accept; Accept-Encoding when the body is 1 KB or more (it may be compressed); Origin with a list of CORS origins.',
    schema: { type: 'string' },
  },
  'content-encoding': {
    description:
      'br or gzip: a body of 1 KB or more, compressed as Accept-Encoding asks (brotli first when both are taken alike). Its ETag is the uncompressed body’s with -br or -gzip appended.',
    schema: { type: 'string', enum: ['br', 'gzip'] },
  },
  'server-timing': {
    description:
      'The SPARQL queries the request cost, the store time, and the steps the request took (docs/api.md "Explain"): sparql;dur=4.2;desc="2 queries", path;desc="histogram+fetch".',
    schema: { type: 'string' },
  },
};

function infoDescription(mapping: Mapping): string {
  return [
    `A read-only JSON:API 1.1 over an RDF dataset (mapping ${mapping.source.replace(/^.*\//, '')}).`,
    '',
    '- Every URL answers GET and HEAD (the GET’s headers, no body) and OPTIONS (204 with Allow; CORS preflights); any other method is a 405 error document with Allow: GET, HEAD, OPTIONS.',
    '- Responses are application/vnd.api+json with jsonapi.version 1.1 and links.self. Accept must allow it: only parameterised JSON:API media types, or nothing producible, is a 406. The cursor pagination profile in Accept gives cursor pages, and the Content-Type then names it.',
    '- Every 200 carries a strong ETag (If-None-Match → 304), Cache-Control and Vary: Accept; errors are no-store.',
    '- Bodies of 1 KB or more are compressed when Accept-Encoding takes br or gzip (Content-Encoding, Vary: Accept-Encoding); a compressed body has its own ETag.',
    '- Errors are JSON:API error documents: status is a string, source.parameter names the query parameter that caused a 400.',
    '- Query parameters JSON:API does not define here are refused (400), and so is one given twice. sort, filter and page apply to lists only (collections and to-many URLs); include and fields[type] to resource documents, not to relationship (/links/) URLs.',
  ].join('\n');
}
