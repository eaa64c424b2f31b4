import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import entityTagOfEtagPackage from 'etag';
import type { Request, Response } from 'express';
import { describe, expect, it } from 'vitest';
import { entityTag, represent, sendRepresentation } from '../../../src/http/conditional.js';

describe('entityTag', () => {
  // The format Express's `etag` package writes, so that ETags are what they were before.
  it.each([
    ['empty', ''],
    ['ASCII', '{"jsonapi":{"version":"1.1"},"data":null}'],
    ['non-ASCII', '{"label":"Ἀθῆναι – 東京 – 🐎"}'],
    ['64 KiB', 'x'.repeat(65_536)],
  ])('%s: as the etag package', (_name, text) => {
    const body = Buffer.from(text);
    expect(entityTag(body)).toBe(entityTagOfEtagPackage(body));
  });

  it('depends on the bytes only', () => {
    expect(entityTag(Buffer.from('{"a":1}'))).toBe(entityTag(Buffer.from('{"a":1}')));
    expect(entityTag(Buffer.from('{"a":1}'))).not.toBe(entityTag(Buffer.from('{"a":2}')));
  });
});

describe('represent', () => {
  it('serialises once, with the ETag and Content-Length of those bytes', () => {
    const representation = represent({ jsonapi: { version: '1.1' }, data: null });
    expect(representation.body.toString()).toBe('{"jsonapi":{"version":"1.1"},"data":null}');
    expect(representation.etag).toBe(entityTagOfEtagPackage(representation.body));
    expect(representation.contentLength).toBe(String(representation.body.length));
    expect(representation.contentType).toBe('application/vnd.api+json');
  });
});

describe('sendRepresentation', () => {
  const representation = represent({ jsonapi: { version: '1.1' }, data: null });

  /** The response sendRepresentation makes to a request with `method` and `headers` (never written out). */
  function respond(method: string, headers: Record<string, string>, varyOn?: readonly string[]) {
    const req = new IncomingMessage(new Socket());
    req.method = method;
    req.headers = headers;
    const res = new ServerResponse(req);
    // The one Express helper sendRepresentation uses.
    const vary = (field: string) => res.appendHeader('Vary', field);
    const response = Object.assign(res, { vary }) as unknown as Response;
    sendRepresentation(req as Request, response, representation, { cacheControl: 'no-cache', varyOn });
    return { status: res.statusCode, res };
  }

  it.each([
    [[], undefined],
    [['Accept-Encoding'], 'Accept-Encoding'],
  ])('bytes chosen by the request headers %j: Vary names them, and only them', (varyOn, expected) => {
    for (const ifNoneMatch of [undefined, representation.etag]) {
      const { res } = respond('GET', ifNoneMatch ? { 'if-none-match': ifNoneMatch } : {}, varyOn);
      expect(res.getHeader('vary')).toBe(expected);
    }
  });

  it('a GET without If-None-Match: the 200 with ETag, Cache-Control, Vary, Content-Type and Content-Length', () => {
    const { status, res } = respond('GET', {});
    expect(status).toBe(200);
    expect(res.getHeaders()).toEqual({
      etag: representation.etag,
      'cache-control': 'no-cache',
      vary: 'Accept',
      'content-type': 'application/vnd.api+json',
      'content-length': representation.contentLength,
    });
  });

  it.each([
    ['the ETag', representation.etag],
    ['the weak ETag', `W/${representation.etag}`],
    ['a list holding it', `"other", ${representation.etag}`],
    ['*', '*'],
  ])('If-None-Match: %s → 304 with no representation metadata', (_name, ifNoneMatch) => {
    const { status, res } = respond('GET', { 'if-none-match': ifNoneMatch, 'cache-control': 'no-cache' });
    expect(status).toBe(304);
    expect(res.getHeader('content-type')).toBeUndefined();
    expect(res.getHeader('content-length')).toBeUndefined();
    expect(res.getHeader('etag')).toBe(representation.etag);
  });

  it('If-None-Match with another tag → 200', () => {
    expect(respond('GET', { 'if-none-match': '"other"' }).status).toBe(200);
  });
});
