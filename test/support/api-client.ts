import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { Express } from 'express';
import { expect } from 'vitest';

// JSON:API 1.1's response schema (copied from ../shared/jsonapi, CC0), with uri-reference links.
const schema = JSON.parse(readFileSync(new URL('../fixtures/jsonapi-schema.json', import.meta.url), 'utf8'));
const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormatsModule as unknown as (a: Ajv2020) => void)(ajv);
const validateDocument = ajv.compile(schema);

/** The Content-Type of a document that applies the cursor pagination profile. */
export const CURSOR_PAGE =
  'application/vnd.api+json; profile="https://jsonapi.org/profiles/ethanresnick/cursor-pagination"';

export interface ApiResponse {
  status: number;
  headers: Headers;
  /** The parsed body; `undefined` when the body was empty. */
  body: any;
}

/** Statuses that never have content (RFC 9110 §15.3.5, §15.4.5), so no Content-Type either. */
const NO_CONTENT = new Set([204, 304]);

/** Prometheus' text exposition format, as prom-client names it. */
export const PROMETHEUS_TEXT = 'text/plain; version=0.0.4; charset=utf-8';

/**
 * Talks to an app over real HTTP on an ephemeral loopback port. Every response is checked on the
 * way: Content-Type exactly the JSON:API media type (or, for a cursor page, exactly the media type
 * with the cursor pagination profile), and a body that validates against the schema; a HEAD has
 * no body, and a 204 or 304 neither body nor Content-Type. `/metrics` is not part of the
 * JSON:API: {@link ApiClient.metrics} reads it and checks it as Prometheus text instead.
 *
 * Every body is also held to the app's own OpenAPI description ({@link OpenApiCheck}): the schema
 * of the operation the path and method name, for the status and Content-Type it came with.
 */
export class ApiClient {
  private readonly openapi: OpenApiCheck;

  private constructor(
    readonly baseUrl: string,
    private readonly server: Server,
    descriptions: DescriptionSource,
    private readonly app: Express,
  ) {
    this.openapi = new OpenApiCheck(baseUrl, descriptions);
  }

  static async listen(app: Express): Promise<ApiClient> {
    const server = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return new ApiClient(baseUrl, server, appDescriptions(app, baseUrl), app);
  }

  get(path: string, headers: Record<string, string> = { Accept: 'application/vnd.api+json' }): Promise<ApiResponse> {
    return this.request('GET', path, headers);
  }

  async request(method: string, path: string, headers: Record<string, string> = {}): Promise<ApiResponse> {
    const response = await fetch(this.baseUrl + path, { method, headers });
    const text = await response.text();
    if (NO_CONTENT.has(response.status)) {
      expect(text, `${response.status} has no body`).toBe('');
      expect(response.headers.get('content-type'), `${response.status} has no Content-Type`).toBeNull();
      return { status: response.status, headers: response.headers, body: undefined };
    }
    if (method === 'HEAD') {
      expect(text, 'HEAD has no body').toBe('');
      return { status: response.status, headers: response.headers, body: undefined };
    }
    const body = JSON.parse(text);
    // The media type has no parameters, but for the one profile this server applies, to the
    // documents that profile is about: paginated data, with the prev and next links it requires.
    const contentType = response.headers.get('content-type');
    if (contentType === CURSOR_PAGE)
      expect(Object.keys(body.links ?? {}), `links of ${method} ${path}`).toEqual(
        expect.arrayContaining(['prev', 'next']),
      );
    else expect(contentType, `Content-Type of ${method} ${path}`).toBe('application/vnd.api+json');
    if (!validateDocument(body)) {
      expect.fail(
        `${method} ${path}: response does not validate against the JSON:API schema: ${ajv.errorsText(validateDocument.errors)}\n${text.slice(0, 500)}`,
      );
    }
    await this.openapi.check(method, path, response.status, contentType, body, text);
    return { status: response.status, headers: response.headers, body };
  }

  /** `GET /metrics`: a 200 in Prometheus' text format; resolves the text. */
  async metrics(headers: Record<string, string> = {}): Promise<string> {
    const response = await fetch(`${this.baseUrl}/metrics`, { headers });
    expect(response.status, 'GET /metrics').toBe(200);
    expect(response.headers.get('content-type'), 'Content-Type of GET /metrics').toBe(PROMETHEUS_TEXT);
    return response.text();
  }

  /**
   * Resolves once the lists this app's pages started reading whole in the background are read
   * (`WindowCache.settled`): the next page of such a list is cut from it, if it could be kept.
   */
  listsRead(): Promise<void> {
    return (this.app.locals.windowCacheSettled as () => Promise<void>)();
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The number of SPARQL queries a response's Server-Timing reports, or 0 without the header. */
export function queryCount(response: ApiResponse): number {
  const match = /desc="(\d+) quer/.exec(response.headers.get('server-timing') ?? '');
  return match ? Number(match[1]) : 0;
}

/** A compiled OpenAPI description: the document, and a validator per component schema, made on first use. */
interface Description {
  readonly document: any;
  readonly validator: (schema: string) => ValidateFunction;
}

/** Descriptions compiled so far, by their text: apps with the same mapping and options share one. */
const compiled = new Map<string, Description>();

function compile(text: string): Description {
  let description = compiled.get(text);
  if (description) return description;
  const document = JSON.parse(text);
  const openapiAjv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  (addFormatsModule as unknown as (a: Ajv2020) => void)(openapiAjv);
  // The whole document is one schema resource: every `#/components/schemas/…` $ref resolves inside it.
  openapiAjv.addSchema(document, 'openapi.json');
  const validators = new Map<string, ValidateFunction>();
  description = {
    document,
    validator: (schema) => {
      let validate = validators.get(schema);
      if (!validate) {
        validate = openapiAjv.compile({ $ref: `openapi.json${schema}` });
        validators.set(schema, validate);
      }
      return validate;
    },
  };
  compiled.set(text, description);
  return description;
}

/** `#/components/responses/x` → the object it points at. */
function resolve(document: any, object: any): any {
  if (!object?.$ref) return object;
  return (object.$ref as string)
    .slice(2)
    .split('/')
    .reduce((node, key) => node?.[key.replaceAll('~1', '/').replaceAll('~0', '~')], document);
}

/** A dataset's `/openapi.json` text (`undefined` dataset: the default one), or `undefined` when there is none. */
export type DescriptionSource = (dataset: string | undefined) => Promise<string | undefined>;

/**
 * The descriptions `app` serves: read from `app.locals.apiDescription` (the bytes `/openapi.json`
 * sends), so that checking a response adds no request to the metrics and access logs that suites
 * check; fetched from `/openapi.json` for an app that does not expose them.
 */
export function appDescriptions(app: Express, baseUrl: string): DescriptionSource {
  const local = app.locals.apiDescription as ((dataset?: string) => { body: Buffer } | undefined) | undefined;
  if (local) return async (dataset) => local(dataset)?.body.toString('utf8');
  return async (dataset) => {
    const response = await fetch(`${baseUrl}${dataset === undefined ? '' : `/api/${dataset}`}/openapi.json`);
    return response.status === 200 ? response.text() : undefined;
  };
}

/**
 * Holds responses to the OpenAPI description of the app they came from: the dataset's
 * (`/api/<dataset>/openapi.json`, or `/openapi.json` for unprefixed paths), fetched once per client.
 * A path and method that name an operation validate against its response for the status (or
 * `default`) and Content-Type; an error with no operation (an unknown type or dataset, a 405)
 * against the error document schema; anything else that has no operation fails, but `/health`,
 * which is no dataset's.
 */
export class OpenApiCheck {
  private readonly descriptions = new Map<string | undefined, Promise<Description | undefined>>();

  constructor(
    private readonly baseUrl: string,
    private readonly source: DescriptionSource,
  ) {}

  private description(dataset: string | undefined): Promise<Description | undefined> {
    let description = this.descriptions.get(dataset);
    if (!description) {
      description = this.source(dataset).then((text) => (text === undefined ? undefined : compile(text)));
      this.descriptions.set(dataset, description);
    }
    return description;
  }

  async check(method: string, path: string, status: number, contentType: string | null, body: unknown, text: string) {
    // As fetch reads it: the base URL and the path as sent (`//host/x` stays a path here).
    const pathname = new URL(this.baseUrl + path).pathname;
    if (pathname === '/health') return;
    const prefixed = /^\/api\/([^/]+)(\/.*)?$/.exec(pathname);
    let dataset: string | undefined;
    try {
      dataset = prefixed ? decodeURIComponent(prefixed[1]!) : undefined;
    } catch {
      dataset = '';
    }
    const rest = prefixed ? (prefixed[2] ?? '/') : pathname;
    const description = (await this.description(dataset)) ?? (await this.description(undefined));
    if (!description) return expect.fail(`${method} ${path}: the app serves no /openapi.json`);
    const { document } = description;
    const operation = method === 'GET' ? findOperation(document, rest) : undefined;
    let schema: string;
    if (operation === undefined) {
      if (status < 400)
        return expect.fail(`${method} ${path}: ${status}, but no operation of the OpenAPI description has this path`);
      schema = '#/components/schemas/jsonapi.error-document';
    } else {
      const response = resolve(document, operation.responses[String(status)] ?? operation.responses.default);
      if (!response) return expect.fail(`${method} ${path}: status ${status} is not in the operation's responses`);
      // A content key is a media type range: the cursor profile's parameter matches the bare type.
      const media =
        response.content?.[contentType ?? ''] ?? response.content?.[(contentType ?? '').replace(/;.*$/, '')];
      if (!media)
        return expect.fail(
          `${method} ${path}: ${status} with Content-Type ${contentType}, which the operation does not list (${Object.keys(response.content ?? {}).join(', ')})`,
        );
      schema = media.schema.$ref;
    }
    const validate = description.validator(schema);
    if (!validate(body)) {
      expect.fail(
        `${method} ${path}: ${status} does not validate against the OpenAPI schema ${schema}: ${ajv.errorsText(validate.errors, { separator: '\n  ' })}\n${text.slice(0, 800)}`,
      );
    }
  }
}

/** The `get` operation whose path template matches `path` (type-rooted, percent-decoded by segment). */
function findOperation(document: any, path: string): any {
  const segments = path.split('/').slice(1);
  if (segments.length > 1 && segments.at(-1) === '') segments.pop();
  let decoded: string[];
  try {
    decoded = segments.map(decodeURIComponent);
  } catch {
    return undefined;
  }
  for (const [template, item] of Object.entries<any>(document.paths)) {
    const parts = template.split('/').slice(1);
    if (parts.length !== decoded.length) continue;
    if (parts.every((part, i) => (part.startsWith('{') ? decoded[i] !== '' : part === decoded[i]))) return item.get;
  }
  return undefined;
}
