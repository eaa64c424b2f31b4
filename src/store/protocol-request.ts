/** One SPARQL 1.1 Protocol query request, as undici's `request()` takes it. */
export interface ProtocolRequest {
  readonly method: 'GET' | 'POST';
  /** Path and query string on the endpoint's origin. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The form of a POSTed query. */
  readonly body?: string;
}

/** Longer queries are POSTed (form-encoded): URLs past a few KB are refused by some servers and proxies. */
export const MAX_GET_QUERY_LENGTH = 1500;

const ACCEPT = 'application/sparql-results+json';

/**
 * The requests of SELECT queries to one endpoint (SPARQL 1.1 Protocol, "query via GET" and "query
 * via URL-encoded POST"): `query` and `default-graph-uri` (when a graph is given) after the
 * endpoint's own parameters, results asked for as SPARQL JSON, Basic authentication when
 * credentials are given; a query longer than {@link MAX_GET_QUERY_LENGTH} goes as a POSTed form.
 * The same requests sparql-http-client's SimpleClient builds (`test/unit/store/protocol-request.test.ts`
 * holds the two together), with the parts that do not change per query worked out once: building
 * them through its WHATWG `URL`, `URLSearchParams` and `Headers` per query cost a single-resource
 * request 2–3 % of the server's CPU.
 *
 * @example protocolRequests(new URL('http://127.0.0.1:8890/sparql'), { graph: 'http://g' })('SELECT * {}').path // '/sparql?query=SELECT%20*%20%7B%7D&default-graph-uri=http%3A%2F%2Fg'
 */
export function protocolRequests(
  endpoint: URL,
  { graph, user, password }: { graph?: string | undefined; user?: string | undefined; password?: string | undefined },
): (query: string) => ProtocolRequest {
  const getHeaders: Record<string, string> = { accept: ACCEPT };
  if (user !== undefined && password !== undefined) getHeaders.authorization = `Basic ${btoa(`${user}:${password}`)}`;
  const postHeaders = { ...getHeaders, 'content-type': 'application/x-www-form-urlencoded' };
  // The endpoint's own parameters come first, written as a form, as SimpleClient appends to them.
  const own = new URLSearchParams(endpoint.search).toString();
  const graphParameter = graph === undefined ? '' : `&${new URLSearchParams({ 'default-graph-uri': graph })}`;
  const form = (query: string) => `${new URLSearchParams({ query })}${graphParameter}`;
  return (query) => {
    if (query.length > MAX_GET_QUERY_LENGTH)
      return { method: 'POST', path: endpoint.pathname + endpoint.search, headers: postHeaders, body: form(query) };
    // A URL writes a space as %20, not as a form's `+` (a `+` of the query itself is %2B either way).
    const search = `${own}${own ? '&' : ''}${form(query)}`.replaceAll('+', '%20');
    return { method: 'GET', path: `${endpoint.pathname}?${search}`, headers: getHeaders };
  };
}
