import type { TestProject } from 'vitest/node';
import { startJenaEndpoint } from './jena.js';
import { startTestEndpoint, type TestEndpoint } from './virtuoso.js';

/** What the integration suites get from this setup: an endpoint with the sample loaded, or why not. */
export type SharedEndpoint =
  | { name: string; endpointUrl: string; graph: string; description: string }
  | { skip: string };

declare module 'vitest' {
  export interface ProvidedContext {
    /** Virtuoso (or the endpoint of `SPARQL_ENDPOINT`). */
    endpoint: SharedEndpoint;
    /** Apache Jena ARQ, on the harness's endpoint (test/support/jena/). */
    jena: SharedEndpoint;
  }
}

export const SAMPLE_DATA = 'data/sample.ttl';

/**
 * Starts the SPARQL endpoints of the run, a local Virtuoso and a Jena one, side by side, and
 * loads the sample dataset into a fresh graph of each; stops them when the run ends, passed or
 * failed. One that cannot start for want of its software is handed on as `{ skip }`.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const results = await Promise.allSettled([startTestEndpoint(), startJenaEndpoint()]);
  const started = results.flatMap((r) => (r.status === 'fulfilled' && !('skip' in r.value) ? [r.value] : []));
  const stopAll = () => Promise.all(started.map((s) => s.stop())).then(() => undefined);
  try {
    const [virtuoso, jena] = await Promise.all(results.map(ready));
    project.provide('endpoint', virtuoso!);
    project.provide('jena', jena!);
  } catch (error) {
    await stopAll();
    throw error;
  }
  return stopAll;
}

/** The endpoint with the sample loaded, or the reason it is skipped; rejects when it failed. */
async function ready(result: PromiseSettledResult<TestEndpoint | { skip: string }>): Promise<SharedEndpoint> {
  if (result.status === 'rejected') throw result.reason;
  const endpoint = result.value;
  if ('skip' in endpoint) return { skip: endpoint.skip };
  await endpoint.load([SAMPLE_DATA]);
  console.log(`integration endpoint: ${endpoint.description}, started in ${endpoint.startupMs} ms`);
  const { name, endpointUrl, graph, description } = endpoint;
  return { name, endpointUrl, graph, description };
}
