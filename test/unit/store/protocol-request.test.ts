import SimpleClient from 'sparql-http-client/SimpleClient.js';
import { describe, expect, it } from 'vitest';
import { MARK, MAX_GET_QUERY_LENGTH, protocolRequests } from '../../../src/store/protocol-request.js';

const ENDPOINT = 'http://127.0.0.1:8890/sparql';
const GRAPH = 'http://example.org/graph/a b?c=d&e#f';

/** What sparql-http-client itself sends for `query` (a GET unless `operation` says otherwise). */
async function library(
  query: string,
  options: { endpointUrl: string; graph?: string; user?: string; password?: string },
  operation: 'get' | 'postUrlencoded' = 'get',
) {
  let sent: { url: URL; method: string; headers: Record<string, string>; body?: string } | undefined;
  const client = new SimpleClient({
    endpointUrl: options.endpointUrl,
    ...(options.user !== undefined && { user: options.user, password: options.password }),
    fetch: (async (input: string | URL, init: { method: string; headers: Headers; body?: string }) => {
      sent = { url: new URL(input), method: init.method, headers: Object.fromEntries(init.headers), body: init.body };
    }) as unknown as typeof fetch,
  });
  await client.query.select(query, { operation, ...(options.graph !== undefined && { defaultGraph: options.graph }) });
  return sent!;
}

/** A path's query-string parameters, decoded, in order. */
const parameters = (search: string) => [...new URLSearchParams(search)];

describe('protocolRequests: the SPARQL protocol request of each query, built by sparql-http-client', () => {
  // Every character a query may hold that URL encodings treat differently.
  const odd = `SELECT * WHERE { ?s ?p "a+b c&d=e#f%20g!'()~*/?:@,;$ é 漢 😀\\n\\"" } # +`;

  it.each([
    ['a plain query', 'SELECT * WHERE { ?s ?p ?o } LIMIT 1'],
    ['characters each URL encoding writes its own way', odd],
    ['a query as long as a GET may be', `SELECT * WHERE { ?s ?p "${'x'.repeat(MAX_GET_QUERY_LENGTH - 28)}" }`],
  ])('a GET with the same parameters, headers and path as the library writes: %s', async (_, query) => {
    expect(query.length).toBeLessThanOrEqual(MAX_GET_QUERY_LENGTH);
    const options = { endpointUrl: `${ENDPOINT}?maxrows=5`, graph: GRAPH, user: 'dba', password: 'p:w d' };
    const requestFor = protocolRequests(options);
    const expected = await library(query, options);
    // The same request twice: the second from the GET written once.
    for (const request of [await requestFor(query), await requestFor(query)]) {
      const url = new URL(request.path, ENDPOINT);
      expect(request.method).toBe('GET');
      expect(url.pathname).toBe(expected.url.pathname);
      expect(parameters(url.search)).toEqual(parameters(expected.url.search));
      expect(parameters(url.search)).toEqual([
        ['maxrows', '5'],
        ['query', query],
        ['default-graph-uri', GRAPH],
      ]);
      expect(request.headers).toEqual(expected.headers);
      expect(request.headers.authorization).toBe(`Basic ${btoa('dba:p:w d')}`);
      expect(request.body).toBeUndefined();
    }
  });

  it('the query is the only thing that changes from one GET to the next', async () => {
    const requestFor = protocolRequests({ endpointUrl: ENDPOINT, graph: GRAPH });
    const [a, b] = [await requestFor('ASK { ?s ?p 1 }'), await requestFor('ASK { ?s ?p 2 }')];
    expect(a.path.replace('1', '2')).toBe(b.path);
    expect(a.headers).toEqual({ accept: 'application/sparql-results+json' });
  });

  it('an endpoint or graph that holds the marker itself still gets the query in its place (the library writes each GET)', async () => {
    const options = { endpointUrl: `${ENDPOINT}?note=${MARK}`, graph: `http://example.org/${MARK}` };
    const query = 'ASK { ?s ?p "x" }';
    const request = await protocolRequests(options)(query);
    expect(parameters(new URL(request.path, ENDPOINT).search)).toEqual([
      ['note', MARK],
      ['query', query],
      ['default-graph-uri', options.graph],
    ]);
  });

  it('without a graph, no default-graph-uri', async () => {
    const request = await protocolRequests({ endpointUrl: ENDPOINT })('ASK {}');
    expect(parameters(new URL(request.path, ENDPOINT).search)).toEqual([['query', 'ASK {}']]);
  });

  it.each([
    ['a plain query', `SELECT * WHERE { ?s ?p "${'x'.repeat(MAX_GET_QUERY_LENGTH)}" }`],
    ['characters each form encoding writes its own way', `${odd} ${'y'.repeat(MAX_GET_QUERY_LENGTH)}`],
  ])('a longer query is POSTed as a form, with the parameters and headers the library writes: %s', async (_, query) => {
    const options = { endpointUrl: ENDPOINT, graph: GRAPH, user: 'dba', password: 'p:w d' };
    const requestFor = protocolRequests(options);
    const expected = await library(query, options, 'postUrlencoded');
    // The same request twice: the second from the form written once.
    for (const request of [await requestFor(query), await requestFor(query)]) {
      expect(request.method).toBe('POST');
      expect(request.path).toBe('/sparql');
      expect(request.headers).toEqual(expected.headers);
      expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
      expect(parameters(request.body!)).toEqual(parameters(expected.body!));
      expect(parameters(request.body!)).toEqual([
        ['query', query],
        ['default-graph-uri', GRAPH],
      ]);
    }
  });

  it('a graph that holds the marker still gets a POSTed query in its place (the library writes each form)', async () => {
    const options = { endpointUrl: ENDPOINT, graph: `http://example.org/${MARK}` };
    const query = `ASK { ?s ?p "${'z'.repeat(MAX_GET_QUERY_LENGTH)}" }`;
    const request = await protocolRequests(options)(query);
    expect(parameters(request.body!)).toEqual([
      ['query', query],
      ['default-graph-uri', options.graph],
    ]);
  });
});
