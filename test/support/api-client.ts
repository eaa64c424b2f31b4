import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Ajv2020 } from 'ajv/dist/2020.js';
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
 */
export class ApiClient {
  private constructor(
    readonly baseUrl: string,
    private readonly server: Server,
  ) {}

  static async listen(app: Express): Promise<ApiClient> {
    const server = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
    return new ApiClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, server);
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
    return { status: response.status, headers: response.headers, body };
  }

  /** `GET /metrics`: a 200 in Prometheus' text format; resolves the text. */
  async metrics(headers: Record<string, string> = {}): Promise<string> {
    const response = await fetch(`${this.baseUrl}/metrics`, { headers });
    expect(response.status, 'GET /metrics').toBe(200);
    expect(response.headers.get('content-type'), 'Content-Type of GET /metrics').toBe(PROMETHEUS_TEXT);
    return response.text();
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
