import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';
import { describe, expect, it } from 'vitest';
import { corsHandler } from '../../../src/http/cors.js';
import { setHeaders, staticHeaders } from '../../../src/http/static-headers.js';

/** The headers `middleware` sets on a response to `method` with `headers`, names as set, in order. */
function run(middleware: RequestHandler, method: string, headers: Record<string, string> = {}) {
  const req = new IncomingMessage(new Socket());
  req.method = method;
  req.headers = headers;
  const res = new ServerResponse(req);
  middleware(req as Request, res as unknown as Response, () => undefined);
  return { res, headers: raw(res) };
}

const raw = (res: ServerResponse) =>
  (res as unknown as { getRawHeaderNames(): string[] }).getRawHeaderNames().map((name) => [name, res.getHeader(name)]);

describe('staticHeaders', () => {
  it("reads helmet's headers, names and order as helmet sets them", () => {
    const middleware = helmet({ referrerPolicy: { policy: 'no-referrer' } });
    const headers = staticHeaders(middleware);
    expect(headers).toContainEqual(['Referrer-Policy', 'no-referrer']);
    expect(headers).toContainEqual(['X-Content-Type-Options', 'nosniff']);
    expect(headers).toEqual(run(middleware, 'GET').headers);
    const res = new ServerResponse(new IncomingMessage(new Socket()));
    setHeaders(res, headers);
    expect(raw(res)).toEqual(headers);
  });

  it('refuses a middleware that does not call next at once, or answers', () => {
    expect(() => staticHeaders(() => undefined)).toThrow(/did not call next/);
    expect(() => staticHeaders((_req, _res, next) => next(new Error('no')))).toThrow(/did not call next/);
    expect(() =>
      staticHeaders((_req, res, next) => {
        res.statusCode = 204;
        next();
      }),
    ).toThrow(/answered/);
  });
});

describe('corsHandler', () => {
  // With any origin, the headers of every request but OPTIONS are read once: they must be what the
  // cors package sets for each request.
  const anyOrigin = corsHandler({ origins: '*' });

  it.each([
    ['GET', {}],
    ['GET', { origin: 'https://app.example.org' }],
    ['HEAD', { origin: 'https://other.example.org' }],
  ])('any origin, %s %j: the headers the cors package sets', (method, headers) => {
    expect(run(anyOrigin, method, headers).headers).toEqual([
      ['Access-Control-Allow-Origin', '*'],
      [
        'Access-Control-Expose-Headers',
        'ETag,Server-Timing,Date,Content-Type,Content-Length,Content-Encoding,Vary,Allow,Cache-Control,Retry-After',
      ],
      ['Timing-Allow-Origin', '*'],
    ]);
  });

  it('any origin, OPTIONS: answered 204 with Allow and the preflight headers', () => {
    const { res } = run(anyOrigin, 'OPTIONS', {
      origin: 'https://app.example.org',
      'access-control-request-method': 'GET',
    });
    expect(res.statusCode).toBe(204);
    expect(res.getHeader('allow')).toBe('GET, HEAD, OPTIONS');
    expect(res.getHeader('access-control-allow-methods')).toBe('GET,HEAD');
  });

  it('a list of origins: the allowed one echoed, with Vary: Origin', () => {
    const listed = corsHandler({ origins: ['https://app.example.org'] });
    const { res } = run(listed, 'GET', { origin: 'https://app.example.org' });
    expect(res.getHeader('access-control-allow-origin')).toBe('https://app.example.org');
    expect(res.getHeader('timing-allow-origin')).toBe('https://app.example.org');
    expect(res.getHeader('vary')).toBe('Origin');
    expect(
      run(listed, 'GET', { origin: 'https://evil.example.org' }).res.getHeader('access-control-allow-origin'),
    ).toBe(undefined);
  });
});
