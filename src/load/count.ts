import type { LoadRun } from './load-run.js';
import { DEFAULT_GRAPH } from './source.js';

type Rows = Record<string, { value?: string } | undefined>[];

/**
 * The rows of a SELECT sent to the load's endpoint, or undefined when it does not answer (an
 * update-only endpoint, a refusal, no JSON): what asks then goes on without. One attempt, so a
 * store that cannot answer does not slow the load by its retries. A form body, the protocol's
 * most widely taken (Virtuoso 7.2 never answers a POST of `application/sparql-query`).
 */
export async function selectRows(run: LoadRun, query: string): Promise<Rows | undefined> {
  const answer = await run.client
    .request(run.endpointUrl, new URLSearchParams({ query }).toString(), 'application/x-www-form-urlencoded', {
      accept: 'application/sparql-results+json',
      attempts: 1,
    })
    .catch(() => undefined);
  if (answer?.body === undefined) return undefined;
  try {
    const rows = (JSON.parse(answer.body) as { results?: { bindings?: Rows } }).results?.bindings;
    return Array.isArray(rows) ? rows : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The triples the store holds in `graphs`, summed; undefined when it does not answer the query:
 * the load then reports what it sent.
 */
export async function countTriples(run: LoadRun, graphs: readonly string[]): Promise<number | undefined> {
  let total = 0;
  for (const graph of graphs) {
    const pattern = graph === DEFAULT_GRAPH ? '?s ?p ?o' : `GRAPH <${graph}> { ?s ?p ?o }`;
    const rows = await selectRows(run, `SELECT (COUNT(*) AS ?n) WHERE { ${pattern} }`);
    const n = Number(rows?.[0]?.n?.value);
    if (rows?.length !== 1 || !Number.isSafeInteger(n) || n < 0) return undefined;
    total += n;
  }
  return total;
}
