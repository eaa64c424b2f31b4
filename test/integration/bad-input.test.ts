import { expect, it } from 'vitest';
import { describeEachStore } from '../support/each-store.js';

/** A 4xx must say what went wrong, in a JSON:API error document, and nothing about internals. */
function expectError(body: any, status: number, parameter?: string) {
  expect(body.errors).toHaveLength(1);
  const [error] = body.errors;
  expect(error.status).toBe(String(status));
  expect(error.title).toEqual(expect.any(String));
  expect(error.detail).toEqual(expect.any(String));
  expect(JSON.stringify(body)).not.toMatch(/\n\s+at |node_modules|\.ts:\d+/);
  if (parameter !== undefined) expect(error.source).toEqual({ parameter });
  expect(body.data).toBeUndefined();
}

describeEachStore('bad input (issue table: 400, 404, 405, 406, 415)', (h) => {
  it.each([
    ['unknown dataset', '/api/nope/concepts'],
    ['unknown type', '/nope'],
    ['unknown type under a dataset', '/api/sample/nope/0101'],
    ['unknown relationship (related)', '/concepts/0101/nope'],
    ['unknown relationship (linkage)', '/concepts/0101/links/nope'],
    ['an extra segment', '/concepts/0101/links/broader-concepts/x'],
    ['a wrong linkage word', '/concepts/0101/link/broader-concepts'],
  ])('404 for %s', async (_, path) => {
    const response = await h().api.get(path);
    expect(response.status).toBe(404);
    expectError(response.body, 404);
  });

  it.each([
    ['uppercase', '/concepts/0A01'],
    ['non-hex', '/concepts/01g1'],
    ['too long', `/concepts/${'0'.repeat(257)}`],
    ['too long (predicate id)', `/trade-activities/${'a'.repeat(129)}`],
    ['a quote', `/trade-activities/${encodeURIComponent("7c1e0a42'")}`],
    ['a double quote', `/trade-activities/${encodeURIComponent('7c1e0a42"')}`],
    ['a >', `/concepts/${encodeURIComponent('01>')}`],
    ['a }', `/trade-activities/${encodeURIComponent('7c1e0a42}')}`],
    ['a newline', `/trade-activities/${encodeURIComponent('7c1e0a42\n')}`],
    ['a hex id that is not UTF-8', '/countries/ff'],
    ['a hex id that decodes to a space', '/countries/4720'],
    ['a hex id that decodes to >', '/countries/3e'],
    ['malformed, on a related URL', '/trade-activities/XYZ/concerns'],
    ['malformed, on a relationship URL', `/trade-activities/${encodeURIComponent('a"}')}/links/concerns`],
  ])('404 and no SPARQL for an id with %s', async (_, path) => {
    const response = await h().api.get(path);
    expect(response.status).toBe(404);
    expectError(response.body, 404);
    expect(response.headers.get('server-timing'), 'no query may be sent').toBeNull();
  });

  it.each([
    ['/concepts?sort=', 'empty'],
    ['/concepts?sort=label,,notation', 'empty'],
    ['/concepts?sort=-', 'empty'],
    ['/concepts?sort=nope', "'nope'"],
    ['/concepts?sort=broader-concepts', "'broader-concepts'"],
    ['/concepts?sort=broader-concepts.nope', "'broader-concepts.nope'"],
    ['/concepts?sort=nope.label', "'nope.label'"],
    ['/concepts?sort=broader-concepts.broader-concepts.broader-concepts.broader-concepts.label', 'more than 3'],
    ['/trade-activities/7c1e0a42/concerns?sort=financial-year', "'financial-year'"],
    ['/concepts/0101?sort=label', 'collections'],
    ['/trade-activities/7c1e0a42/origin?sort=id', 'collections'],
  ])('400 for an unsupported sort: %s', async (path, mentions) => {
    const response = await h().api.get(path);
    expect(response.status).toBe(400);
    expectError(response.body, 400, 'sort');
    expect(response.body.errors[0].detail).toContain(mentions.replace(/^'|'$/g, ''));
  });

  it('the sort error lists what is sortable', async () => {
    const response = await h().api.get('/concepts?sort=nope');
    expect(response.body.errors[0].detail).toMatch(/Sortable: id, notation, label, broader-concepts\.<attribute>/);
  });

  it.each([
    ['include=nope', 'include'],
    ['include=broader-concepts.', 'include'],
    ['fields[nope]=label', 'fields[nope]'],
    ['fields[concepts]=nope', 'fields[concepts]'],
    ['page[number]=-1', 'page[number]'],
    ['page[number]=x', 'page[number]'],
    ['page[size]=0', 'page[size]'],
    ['page[size]=101', 'page[size]'],
    ['page[size]=1.5', 'page[size]'],
    ['page[number]=1&page[after]=x', 'page[number]'],
    ['filter[nope]=x', 'filter[nope]'],
    ['filter[label][foo]=x', 'filter[label][foo]'],
    ['filter[]=x', 'filter[]'],
    ['filter=', 'filter'],
    ['foo=1', 'foo'],
    ['myParam=1', 'myParam'],
    ['_=1700000000', '_'],
    ['a%20b=1', 'a b'],
    ['sort=id&sort=label', 'sort'],
  ])('400 naming the parameter for %s', async (query, parameter) => {
    const response = await h().api.get(`/concepts?${query}`);
    expect(response.status).toBe(400);
    expectError(response.body, 400, parameter);
  });

  it.each([
    ['application/vnd.api+json; charset=utf-8', 406],
    ['application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"', 406],
    ['text/html', 406],
  ])('Accept: %s → %i', async (accept, status) => {
    const response = await h().api.get('/concepts/0101', { Accept: accept });
    expect(response.status).toBe(status);
    expectError(response.body, status);
  });

  it.each([
    ['application/vnd.api+json', 200],
    ['application/vnd.api+json; profile="https://example.org/p"', 200],
    ['*/*', 200],
    ['application/json', 200],
  ])('Accept: %s → %i', async (accept, status) => {
    expect((await h().api.get('/concepts/0101', { Accept: accept })).status).toBe(status);
  });

  it.each([
    ['application/vnd.api+json; charset=utf-8', 415],
    ['application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"', 415],
    ['application/vnd.api+json', 200],
  ])('Content-Type: %s → %i', async (contentType, status) => {
    const response = await h().api.get('/concepts/0101', {
      Accept: 'application/vnd.api+json',
      'Content-Type': contentType,
    });
    expect(response.status).toBe(status);
  });

  // OPTIONS is answered (204, see cors.test.ts), so Allow names it too.
  it.each(['POST', 'PUT', 'PATCH', 'DELETE'])('%s → 405 with Allow', async (method) => {
    const response = await h().api.request(method, '/concepts/0101', { Accept: 'application/vnd.api+json' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expectError(response.body, 405);
  });

  it('a malformed percent-encoding in the path is a 404, not a 500', async () => {
    const response = await h().api.get('/concepts/%E0%A4%A');
    expect(response.status).toBe(404);
  });
});
