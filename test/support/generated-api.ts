import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeDataset } from '../../scripts/generate.js';
import { createApp } from '../../src/app.js';
import { loadMapping } from '../../src/mapping/load-mapping.js';
import type { Mapping } from '../../src/mapping/model.js';
import type { Store } from '../../src/store/store.js';
import { ApiClient } from './api-client.js';
import { openStoreWith, SAMPLE_MAPPING, type StoreName } from './each-store.js';
import { Oracle } from './oracle.js';

/** A generated dataset served over HTTP from one store, with its oracle. */
export interface GeneratedApi {
  readonly api: ApiClient;
  readonly store: Store;
  readonly mapping: Mapping;
  readonly oracle: Oracle;
  close(): Promise<void>;
}

/**
 * Generates `activities` trade activities (`scripts/generate.ts`, `seed`) into a temporary folder,
 * loads them into the named store, and serves them with the sample mapping as the only dataset.
 *
 * @example const generated = await openGeneratedApi('embedded', 300, 7); … await generated.close();
 */
export async function openGeneratedApi(storeName: StoreName, activities: number, seed: number): Promise<GeneratedApi> {
  const dir = await mkdtemp(join(tmpdir(), 'sparql-jsonapi-generated-'));
  const file = join(dir, 'generated.nt');
  await writeDataset({ activities, seed }, file);
  const [store, mapping] = await Promise.all([openStoreWith(storeName, [file]), loadMapping(SAMPLE_MAPPING)]);
  const oracle = Oracle.fromFile(file, mapping);
  const api = await ApiClient.listen(createApp({ datasets: [{ name: 'generated', mapping, store, linkBase: '' }] }));
  return {
    api,
    store,
    mapping,
    oracle,
    close: async () => {
      await api.close();
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
