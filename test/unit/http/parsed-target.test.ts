import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { JsonApiError } from '../../../src/errors/json-api-error.js';
import { parsedTarget } from '../../../src/http/parsed-target.js';

function request(url: string, originalUrl?: string): IncomingMessage {
  const req = new IncomingMessage(new Socket());
  req.url = url;
  if (originalUrl !== undefined) Object.assign(req, { originalUrl });
  return req;
}

describe('parsedTarget', () => {
  it('splits the target and parses the route', () => {
    const target = parsedTarget(request('/api/mirror/concepts/0101/links/broader-concepts?fields[concepts]=label'));
    expect(target.path).toBe('/api/mirror/concepts/0101/links/broader-concepts');
    expect(target.query).toBe('fields[concepts]=label');
    expect(target.route()).toEqual({
      dataset: 'mirror',
      type: 'concepts',
      id: '0101',
      relationship: 'broader-concepts',
      linkage: 'links',
    });
  });

  it("reads Express's originalUrl before Node's url", () => {
    expect(parsedTarget(request('/inner', '/concepts?x=1')).path).toBe('/concepts');
  });

  it('works once per request: the same object, the same route', () => {
    const req = request('/concepts/0101');
    const first = parsedTarget(req);
    expect(parsedTarget(req)).toBe(first);
    expect(first.route()).toBe(first.route());
    expect(parsedTarget(request('/concepts/0101'))).not.toBe(first);
  });

  it("a path of no known shape: route() throws parsePath's 404 (the same error each time), routeOrUndefined() is undefined", () => {
    const target = parsedTarget(request('/concepts/0101/links/a/b'));
    expect(target.routeOrUndefined()).toBeUndefined();
    let thrown: unknown;
    try {
      target.route();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(JsonApiError);
    expect((thrown as JsonApiError).status).toBe(404);
    expect(() => target.route()).toThrow(thrown as Error);
  });
});
