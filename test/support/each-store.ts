import { randomUUID } from 'node:crypto';
import type { Express } from 'express';
import { afterAll, beforeAll, describe, inject, test } from 'vitest';
import { type AppOptions, createApp } from '../../src/app.js';
import { loadFiles } from '../../src/load/load-files.js';
import { loadMapping } from '../../src/mapping/load-mapping.js';
import type { Mapping } from '../../src/mapping/model.js';
import { createHttpStore } from '../../src/store/http-store.js';
import { createOxigraphStore } from '../../src/store/oxigraph-store.js';
import type { Store } from '../../src/store/store.js';
import { ApiClient } from './api-client.js';
import { SAMPLE_DATA, type SharedEndpoint } from './global-setup.js';

export const SAMPLE_MAPPING = 'mappings/sample.yaml';
/** The stores every suite runs on: embedded Oxigraph, Virtuoso 7 and Apache Jena ARQ (as in Fuseki). */
export const STORE_NAMES = ['embedded', 'virtuoso', 'jena'] as const;
export type StoreName = (typeof STORE_NAMES)[number];
/** The stores reached over HTTP, each started once for the run by global-setup.ts. */
export type EndpointStoreName = Exclude<StoreName, 'embedded'>;
export const ENDPOINT_STORE_NAMES: readonly EndpointStoreName[] = ['virtuoso', 'jena'];

/** The run's shared endpoint of that store, with the sample loaded into its graph, or why it is skipped. */
export function sharedEndpoint(name: EndpointStoreName): SharedEndpoint {
  return inject(name === 'virtuoso' ? 'endpoint' : 'jena');
}

/** The shared endpoint of that store; throws its reason when it is skipped (use it inside {@link describeStores}). */
export function endpointOf(name: EndpointStoreName): Extract<SharedEndpoint, { endpointUrl: string }> {
  const endpoint = sharedEndpoint(name);
  if ('skip' in endpoint) throw new Error(endpoint.skip);
  return endpoint;
}

/** What each test gets: the server over HTTP, and the mapping it serves. */
export interface Harness {
  readonly storeName: StoreName;
  readonly api: ApiClient;
  readonly mapping: Mapping;
  readonly store: Store;
}

/** Opens the sample dataset in the named store: the embedded one, or the shared endpoint's graph. */
export async function openSampleStore(name: StoreName): Promise<Store> {
  if (name === 'embedded') return createOxigraphStore({ files: [SAMPLE_DATA] });
  const endpoint = endpointOf(name);
  return createHttpStore({ endpointUrl: endpoint.endpointUrl, graph: endpoint.graph });
}

/**
 * Opens a store of the named kind holding `files`: the embedded store reading them, or a fresh
 * graph of the shared endpoint (Virtuoso, Jena) that they are loaded into.
 */
export async function openStoreWith(name: StoreName, files: readonly string[]): Promise<Store> {
  if (name === 'embedded') return createOxigraphStore({ files: [...files] });
  const endpoint = endpointOf(name);
  const graph = `http://example.org/sparql-jsonapi-test/${randomUUID()}`;
  await loadFiles({ endpointUrl: endpoint.endpointUrl, graph, files: [...files] });
  return createHttpStore({ endpointUrl: endpoint.endpointUrl, graph });
}

/**
 * The app every store suite serves: the sample as the default dataset, the same under
 * `/api/mirror`, and `/api/uncounted`, too large to count (no meta.count, no last link, small pages).
 */
export function sampleApp(mapping: Mapping, store: Store, options: Omit<AppOptions, 'datasets'> = {}): Express {
  return createApp({
    datasets: [
      { name: 'sample', mapping, store, linkBase: '' },
      { name: 'mirror', mapping, store, linkBase: '/api/mirror' },
      {
        name: 'uncounted',
        mapping,
        store,
        linkBase: '/api/uncounted',
        options: { count: false, page: { defaultSize: 4, maxSize: 10 } },
      },
    ],
    defaultDataset: 'sample',
    ...options,
  });
}

/**
 * Serves `app` as the CLI does: once its engine check has answered (`store/probes/engine-check.ts`),
 * so that its queries are written in the text order found (Jena's: `sparql/text-key.ts`).
 */
export async function listenChecked(app: Express): Promise<ApiClient> {
  await (app.locals.checkEngines as (signal: AbortSignal) => Promise<void>)(new AbortController().signal);
  return ApiClient.listen(app);
}

const warned = new Set<StoreName>();

/**
 * Defines a suite once per store, `[embedded] title`, `[virtuoso] title` and `[jena] title`, for
 * suites that open their stores themselves (`storeName` says which). A store whose endpoint could
 * not start for want of its software is skipped with one loud line, except with CI=true, where
 * that is a failure. `stores` narrows the list, e.g. to {@link ENDPOINT_STORE_NAMES} for a suite
 * about the HTTP store.
 */
export function describeStores<Name extends StoreName>(
  title: string,
  body: (storeName: Name) => void,
  stores: readonly Name[] = STORE_NAMES as readonly StoreName[] as readonly Name[],
): void {
  for (const storeName of stores) {
    const endpoint = storeName === 'embedded' ? undefined : sharedEndpoint(storeName);
    if (endpoint && 'skip' in endpoint) {
      if (process.env.CI === 'true') {
        describe(`[${storeName}] ${title}`, () =>
          test(`has a ${storeName} endpoint to run against`, () => {
            throw new Error(`CI=true: ${endpoint.skip}`);
          }));
      } else {
        if (!warned.has(storeName)) console.warn(`\n!!! SKIPPED every [${storeName}] suite: ${endpoint.skip}\n`);
        warned.add(storeName);
        describe.skip(`[${storeName}] ${title}`, () => body(storeName));
      }
      continue;
    }
    describe(`[${storeName}] ${title}`, () => body(storeName));
  }
}

/**
 * Defines a suite once and runs it against every store ({@link describeStores}), each serving the
 * sample ({@link sampleApp}): the same requests and the same expectations.
 */
export function describeEachStore(title: string, body: (harness: () => Harness) => void): void {
  describeStores(title, (storeName) => {
    let harness: Harness | undefined;
    beforeAll(async () => {
      const [mapping, store] = await Promise.all([loadMapping(SAMPLE_MAPPING), openSampleStore(storeName)]);
      const app = sampleApp(mapping, store);
      harness = { storeName, api: await listenChecked(app), mapping, store };
    });
    afterAll(async () => {
      await harness?.api.close();
      await harness?.store.close();
    });
    body(() => harness!);
  });
}
