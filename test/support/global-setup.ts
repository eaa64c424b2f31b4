import type { TestProject } from 'vitest/node';
import { startTestEndpoint } from './virtuoso.js';

/** What the integration suites get from this setup: an endpoint with the sample loaded, or why not. */
export type SharedEndpoint =
  | { name: string; endpointUrl: string; graph: string; description: string }
  | { skip: string };

declare module 'vitest' {
  export interface ProvidedContext {
    endpoint: SharedEndpoint;
  }
}

export const SAMPLE_DATA = 'data/sample.ttl';

/**
 * Starts one SPARQL endpoint (a local Virtuoso here) for every integration suite of the run and
 * loads the sample dataset into a fresh graph; stops it when the run ends, passed or failed.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const started = await startTestEndpoint();
  if ('skip' in started) {
    project.provide('endpoint', { skip: started.skip });
    return async () => {};
  }
  try {
    await started.load([SAMPLE_DATA]);
  } catch (error) {
    await started.stop();
    throw error;
  }
  console.log(`integration endpoint: ${started.description}, started in ${started.startupMs} ms`);
  project.provide('endpoint', {
    name: started.name,
    endpointUrl: started.endpointUrl,
    graph: started.graph,
    description: started.description,
  });
  return () => started.stop();
}
