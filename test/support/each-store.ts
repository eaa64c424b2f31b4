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
import { SAMPLE_DATA } from './global-setup.js';

export const SAMPLE_MAPPING = 'mappings/sample.yaml';
export const STORE_NAMES = ['embedded', 'virtuoso'] as const;
export type StoreName = (typeof STORE_NAMES)[number];

/** What each test gets: the server over HTTP, and the mapping it serves. */
export interface Harness {
  readonly storeName: StoreName;
  readonly api: ApiClient;
  readonly mapping: Mapping;
  readonly store: Store;
}

/** Opens the sample dataset in the named store: the embedded one, or the shared Virtuoso graph. */
export async function openSampleStore(name: StoreName): Promise<Store> {
  if (name === 'embedded') return createOxigraphStore({ files: [SAMPLE_DATA] });
  const endpoint = inject('endpoint');
  if ('skip' in endpoint) throw new Error(endpoint.skip);
  return createHttpStore({ endpointUrl: endpoint.endpointUrl, graph: endpoint.graph });
}

/**
 * Opens a store of the named kind holding `files`: the embedded store reading them, or a fresh
 * graph of the shared Virtuoso that they are loaded into.
 */
export async function openStoreWith(name: StoreName, files: readonly string[]): Promise<Store> {
  if (name === 'embedded') return createOxigraphStore({ files: [...files] });
  const endpoint = inject('endpoint');
  if ('skip' in endpoint) throw new Error(endpoint.skip);
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

let warned = false;

/**
 * Defines a suite once per store, `[embedded] title` and `[virtuoso] title`, for suites that open
 * their stores themselves (`storeName` says which). Without a Virtuoso the second is skipped with
 * one loud line, except with CI=true, where that is a failure.
 */
export function describeStores(title: string, body: (storeName: StoreName) => void): void {
  const endpoint = inject('endpoint');
  for (const storeName of STORE_NAMES) {
    if (storeName === 'virtuoso' && 'skip' in endpoint) {
      if (process.env.CI === 'true') {
        describe(`[virtuoso] ${title}`, () =>
          test('has a Virtuoso to run against', () => {
            throw new Error(`CI=true: ${endpoint.skip}`);
          }));
      } else {
        if (!warned) console.warn(`\n!!! SKIPPED every [virtuoso] suite: ${endpoint.skip}\n`);
        warned = true;
        describe.skip(`[virtuoso] ${title}`, () => body(storeName));
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
      harness = { storeName, api: await ApiClient.listen(app), mapping, store };
    });
    afterAll(async () => {
      await harness?.api.close();
      await harness?.store.close();
    });
    body(() => harness!);
  });
}
