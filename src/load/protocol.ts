import type { Batch } from './batch.js';
import { LoadError, type Refusal, type RequestPolicy, refusalMessage, type StoreClient } from './http.js';
import { writeAccessHint } from './write-access-hint.js';

export type Protocol = 'graph-store' | 'update';

/**
 * Guesses a store's Graph Store Protocol URL from its SPARQL endpoint, for the stores
 * whose layout is known: Virtuoso (`/sparql` → `/sparql-graph-crud`, `/sparql-auth` →
 * `/sparql-graph-crud-auth`) and Fuseki (`/ds/sparql|query|update` → `/ds/data`).
 * Undefined for any other store, which is then loaded with SPARQL Update.
 */
export function guessGraphStoreUrl(endpointUrl: string): string | undefined {
  const url = new URL(endpointUrl);
  url.search = '';
  const path = url.pathname.replace(/\/$/, '');
  const virtuoso = VIRTUOSO_GRAPH_STORE[path];
  if (virtuoso) {
    url.pathname = virtuoso;
    return url.href;
  }
  const fuseki = /^(\/[^/]+)\/(sparql|query|update)$/.exec(path);
  if (fuseki) {
    url.pathname = `${fuseki[1]}/data`;
    return url.href;
  }
  return undefined;
}

const VIRTUOSO_GRAPH_STORE: Record<string, string> = {
  '/sparql': '/sparql-graph-crud',
  '/sparql-auth': '/sparql-graph-crud-auth',
};

/**
 * SPARQL Update text for one batch; N-Triples lines are valid SPARQL triples. A batch with
 * blank nodes becomes `INSERT {…} WHERE {}`: SPARQL 1.1 allows blank nodes in INSERT DATA,
 * but Virtuoso refuses them there (SP031), and a template's blank nodes are just as fresh
 * per request and shared within it.
 */
export function insertData(batch: Batch): string {
  const parts: string[] = [];
  for (const [graph, lines] of batch.graphs) {
    parts.push(graph === '' ? lines.join('') : `GRAPH <${graph}> {\n${lines.join('')}}\n`);
  }
  return batch.hasBlankNodes ? `INSERT {\n${parts.join('')}} WHERE {}` : `INSERT DATA {\n${parts.join('')}}`;
}

/** The Graph Store Protocol URL for one graph (`?default` for the default graph). */
export function graphUrl(graphStoreUrl: string, graph: string): string {
  const separator = graphStoreUrl.includes('?') ? '&' : '?';
  return `${graphStoreUrl}${separator}${graph === '' ? 'default' : `graph=${encodeURIComponent(graph)}`}`;
}

/** One batch to send, and where. */
export interface BatchRequest {
  protocol: Protocol;
  /** The Update endpoint, or the Graph Store URL. */
  target: string;
  batch: Batch;
  policy?: Partial<RequestPolicy>;
}

/**
 * Sends one batch. Graph Store Protocol: one `POST` of N-Triples per graph (POST adds to
 * the graph; PUT would replace it). Update: one `INSERT DATA` request.
 * Resolves with the refusal for the caller to decide (fall back, or fail).
 */
export async function sendBatch(
  client: StoreClient,
  { protocol, target, batch, policy = {} }: BatchRequest,
): Promise<{ url: string; refusal: Refusal | undefined }> {
  // Blank nodes are new nodes in each request: such a batch is not sent again when its outcome is unknown.
  const p = { ...policy, idempotent: !batch.hasBlankNodes };
  if (protocol === 'update') {
    return { url: target, refusal: await client.post(target, insertData(batch), 'application/sparql-update', p) };
  }
  for (const [graph, lines] of batch.graphs) {
    const url = graphUrl(target, graph);
    const refusal = await client.post(url, lines.join(''), 'application/n-triples', p);
    if (refusal) return { url, refusal };
  }
  return { url: target, refusal: undefined };
}

/** The user-facing error for a refused request, with a hint when it is about permissions. */
export function refusalError(protocol: Protocol, url: string, refusal: Refusal): LoadError {
  const what = protocol === 'update' ? 'SPARQL Update endpoint' : 'Graph Store endpoint';
  // Virtuoso answers a missing grant with 403 (Graph Store) or 500 "SR186: SECURITY" (Update).
  return new LoadError(`${refusalMessage(what, url, refusal)}${writeAccessHint(url, refusal)}`, refusal.status);
}

/** Throws {@link refusalError}. */
export function refused(protocol: Protocol, url: string, refusal: Refusal): never {
  throw refusalError(protocol, url, refusal);
}
