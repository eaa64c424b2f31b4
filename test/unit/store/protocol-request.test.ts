import fc from 'fast-check';
import SimpleClient from 'sparql-http-client/SimpleClient.js';
import { describe, expect, it } from 'vitest';
import { MAX_GET_QUERY_LENGTH, type ProtocolRequest, protocolRequests } from '../../../src/store/protocol-request.js';

/** What sparql-http-client's SimpleClient hands its fetch for a SELECT, as a request on the endpoint's origin. */
async function simpleClientRequest(
  endpointUrl: string,
  query: string,
  options: { graph?: string; user?: string; password?: string },
): Promise<ProtocolRequest> {
  let sent: ProtocolRequest | undefined;
  const client = new SimpleClient({
    endpointUrl,
    ...(options.user !== undefined && { user: options.user, password: options.password }),
    fetch: (async (input: string | URL, init: { method: 'GET' | 'POST'; headers: Headers; body?: string }) => {
      const url = new URL(input);
      sent = {
        method: init.method,
        path: url.pathname + url.search,
        headers: Object.fromEntries(init.headers),
        ...(init.body !== undefined && { body: init.body }),
      };
      return new Response('{}');
    }) as unknown as typeof fetch,
  });
  await client.query.select(query, {
    operation: query.length > MAX_GET_QUERY_LENGTH ? 'postUrlencoded' : 'get',
    ...(options.graph !== undefined && { defaultGraph: options.graph }),
  });
  return sent!;
}

const text = fc.string({
  unit: fc.constantFrom('a', ' ', '+', '&', '=', '%', '"', '<', '>', '{', '}', '?', '#', 'é', '😀', '\n', '~', '*'),
  maxLength: 40,
});
const queries = fc.oneof(
  text.map((t) => `SELECT * WHERE { ?s ?p "${t}" }`),
  text.map((t) => `SELECT * WHERE { ?s ?p "${t}" }${' '.repeat(MAX_GET_QUERY_LENGTH)}`), // POSTed
);

describe('protocolRequests: the requests sparql-http-client builds, worked out once per endpoint', () => {
  it('for any query, with and without a graph and credentials, and an endpoint with parameters of its own', async () => {
    await fc.assert(
      fc.asyncProperty(
        queries,
        fc.constantFrom('http://127.0.0.1:8890/sparql', 'https://example.org/ds/query?timeout=5&a=b%20c~'),
        fc.option(fc.constantFrom('http://linkedeconomy.org/graph/bench', 'urn:x:g?a=1&b=2'), { nil: undefined }),
        fc.option(fc.constant({ user: 'dba', password: 'p@ss:wörd' }), { nil: undefined }),
        async (query, endpoint, graph, credentials) => {
          const options = { ...(graph !== undefined && { graph }), ...credentials };
          expect(protocolRequests(new URL(endpoint), options)(query)).toEqual(
            await simpleClientRequest(endpoint, query, options),
          );
        },
      ),
    );
  });

  it('a query past the GET length is POSTed as a form', () => {
    const request = protocolRequests(new URL('http://127.0.0.1:8890/sparql'), {})(`SELECT * {}${' '.repeat(2000)}`);
    expect(request.method).toBe('POST');
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(new URLSearchParams(request.body).get('query')).toBe(`SELECT * {}${' '.repeat(2000)}`);
  });
});
