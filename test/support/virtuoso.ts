import { randomUUID } from 'node:crypto';
import { test } from 'vitest';
import { findExecutable, startLocalVirtuoso } from '../../scripts/virtuoso-local.js';
import { StoreClient } from '../../src/load/http.js';
import { loadFiles } from '../../src/load/load-files.js';

/** A SPARQL endpoint for the integration suites, with a graph to load test data into. */
export interface TestEndpoint {
  /** `virtuoso` (container or local binary); for `SPARQL_ENDPOINT`, `SPARQL_STORE_NAME` or `external`. */
  name: string;
  /** `http://127.0.0.1:PORT/sparql` */
  endpointUrl: string;
  /** The named graph `load()` writes to; query with `FROM <graph>` (Virtuoso's own graphs are visible otherwise). */
  graph: string;
  /** Loads `.ttl`/`.nt`/`.nq`/`.trig` files into {@link graph} with the project's loader. */
  load(files: string[]): Promise<void>;
  /** Stops what the harness started (or drops the graph it created on an external store). */
  stop(): Promise<void>;
  /** How long start-up took, in ms. */
  startupMs: number;
  /** How it was started, for logs: `local virtuoso-t 127.0.0.1:PORT`, `container …`, `SPARQL_ENDPOINT …`. */
  description: string;
}

const freshGraph = () => `http://example.org/sparql-jsonapi-test/${randomUUID()}`;

/**
 * Gives a test suite a SPARQL endpoint, trying in order: `SPARQL_ENDPOINT` (with
 * `SPARQL_GRAPH`, `SPARQL_GRAPH_STORE`, `SPARQL_USER`, `SPARQL_PASSWORD`); a Virtuoso
 * container (testcontainers) when a Docker engine answers; a local `virtuoso-t` on free
 * loopback ports with a fresh database. Resolves `{ skip }` with the reason when none is
 * available; rejects when one is available but fails to start (that is a real failure).
 */
export async function startTestEndpoint(): Promise<TestEndpoint | { skip: string }> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  const external = process.env.SPARQL_ENDPOINT;
  if (external) {
    const graph = process.env.SPARQL_GRAPH || freshGraph();
    const ownsGraph = !process.env.SPARQL_GRAPH; // a graph the user named is theirs: never dropped
    const user = process.env.SPARQL_USER || undefined;
    const password = process.env.SPARQL_PASSWORD;
    const graphStoreUrl = process.env.SPARQL_GRAPH_STORE || undefined;
    return {
      name: process.env.SPARQL_STORE_NAME || 'external',
      endpointUrl: external,
      graph,
      startupMs: ms(),
      description: `SPARQL_ENDPOINT ${external}`,
      load: async (files) =>
        void (await loadFiles({ endpointUrl: external, graph, files, user, password, graphStoreUrl })),
      stop: async () => {
        if (!ownsGraph) return;
        const client = new StoreClient(user ? { user, password: password ?? '' } : undefined);
        const refusal = await client.post(external, `DROP SILENT GRAPH <${graph}>`, 'application/sparql-update');
        if (refusal) console.warn(`could not drop test graph ${graph}: HTTP ${refusal.status}`);
      },
    };
  }
  const container = await startContainer(ms);
  if (container) return container;
  const binary = process.env.VIRTUOSO_T || findExecutable('virtuoso-t');
  const isql = findExecutable('isql-vt') ?? findExecutable('isql');
  if (!binary || !isql) {
    return {
      skip: 'no SPARQL_ENDPOINT, no Docker engine, and no virtuoso-t/isql-vt on PATH (apt-get install virtuoso-opensource-7-bin)',
    };
  }
  const local = await startLocalVirtuoso(binary, isql);
  const endpointUrl = `http://127.0.0.1:${local.httpPort}/sparql`;
  return virtuosoEndpoint(endpointUrl, `local virtuoso-t 127.0.0.1:${local.httpPort} (${local.dir})`, ms(), local.stop);
}

function virtuosoEndpoint(
  endpointUrl: string,
  description: string,
  startupMs: number,
  stop: () => Promise<void>,
): TestEndpoint {
  const graph = freshGraph();
  const graphStoreUrl = endpointUrl.replace(/\/sparql$/, '/sparql-graph-crud');
  return {
    name: 'virtuoso',
    endpointUrl,
    graph,
    startupMs,
    description,
    load: async (files) => void (await loadFiles({ endpointUrl, graph, files, graphStoreUrl })),
    stop,
  };
}

/** A Virtuoso container, or undefined when no Docker engine answers within a few seconds. */
async function startContainer(ms: () => number): Promise<TestEndpoint | undefined> {
  const { GenericContainer, Wait, getContainerRuntimeClient } = await import('testcontainers');
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      getContainerRuntimeClient(),
      new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('timeout')), 5_000))),
    ]);
  } catch {
    return undefined; // no engine: fall through to the local binary
  } finally {
    clearTimeout(timer);
  }
  // The image turns VIRT_<SECTION>_<KEY> into virtuoso.ini settings; same values as the local ini.
  const container = await new GenericContainer('openlink/virtuoso-opensource-7')
    .withEnvironment({
      DBA_PASSWORD: 'dba',
      VIRT_PARAMETERS_MAXSORTEDTOPROWS: '1000000',
      VIRT_PARAMETERS_VECTORSIZE: '1000',
      VIRT_PARAMETERS_MAXVECTORSIZE: '1000000',
      VIRT_PARAMETERS_ADJUSTVECTORSIZE: '0',
      VIRT_PARAMETERS_THREADSPERQUERY: '2',
      VIRT_PARAMETERS_MAXQUERYMEM: '1G',
      VIRT_SPARQL_RESULTSETMAXROWS: '1000000',
      VIRT_SPARQL_MAXQUERYEXECUTIONTIME: '300',
    })
    .withExposedPorts(8890, 1111)
    .withWaitStrategy(Wait.forHttp(`/sparql?query=${encodeURIComponent('ASK {}')}`, 8890).forStatusCode(200))
    .withStartupTimeout(120_000)
    .start();
  const grant = await container.exec([
    '/opt/virtuoso-opensource/bin/isql',
    '1111',
    'dba',
    'dba',
    'exec=GRANT SPARQL_UPDATE TO "SPARQL";',
  ]);
  if (grant.exitCode !== 0 || /\*\*\* Error/.test(grant.output)) {
    await container.stop();
    throw new Error(`Virtuoso container refused the GRANT: ${grant.output}`);
  }
  const endpointUrl = `http://${container.getHost()}:${container.getMappedPort(8890)}/sparql`;
  return virtuosoEndpoint(endpointUrl, `container ${container.getId().slice(0, 12)}`, ms(), async () => {
    await container.stop();
  });
}

/**
 * The skip rule for suites that need an endpoint: returns the endpoint, or undefined after
 * one loud warning line (the suite should then `describe.skipIf`). With `CI=true` a missing
 * endpoint is not skipped: a failing test is registered instead.
 */
export function endpointOrSkip(started: TestEndpoint | { skip: string }, suite: string): TestEndpoint | undefined {
  if (!('skip' in started)) return started;
  if (process.env.CI === 'true') {
    test(`${suite}: a SPARQL endpoint to test against`, () => {
      throw new Error(`CI=true, so this is a failure, not a skip: ${started.skip}`);
    });
  } else {
    console.warn(`\n!!! SKIPPED ${suite}: ${started.skip}\n`);
  }
  return undefined;
}
