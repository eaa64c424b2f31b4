/**
 * openDatasets (src/cli/open-datasets.ts) turns a checked configuration into datasets: here, the
 * window cache's default per store, which only the kind of store decides: the embedded store's
 * lists are kept without expiry (its data never changes while the server runs), an endpoint's are
 * not kept unless the dataset gives a TTL; a TTL given is kept as it is, 0 included.
 */

import { pino } from 'pino';
import { afterAll, expect, it } from 'vitest';
import type { ServerConfig } from '../../src/cli/config.js';
import { openDatasets } from '../../src/cli/open-datasets.js';
import type { Dataset } from '../../src/dataset.js';
import { SAMPLE_MAPPING } from '../support/each-store.js';
import { SAMPLE_DATA } from '../support/global-setup.js';

const opened: Dataset[] = [];
afterAll(() => Promise.all(opened.map((d) => d.store.close())));

it('the window cache: on without expiry for the embedded store, off for an endpoint, a given TTL as it is', async () => {
  const embedded = { mapping: SAMPLE_MAPPING, data: [SAMPLE_DATA], workers: 1 };
  const endpoint = { mapping: SAMPLE_MAPPING, endpoint: 'http://127.0.0.1:9/sparql' };
  const config: ServerConfig = {
    port: 0,
    host: '127.0.0.1',
    default: 'embedded',
    datasets: {
      embedded,
      endpoint,
      'embedded-off': { ...embedded, windowCacheTtlSeconds: 0 },
      'endpoint-on': { ...endpoint, windowCacheTtlSeconds: 30 },
    },
  };
  opened.push(...(await openDatasets(config, pino({ level: 'silent' }))));
  expect(Object.fromEntries(opened.map((d) => [d.name, d.options?.windowCacheTtlSeconds]))).toEqual({
    embedded: Number.POSITIVE_INFINITY,
    endpoint: 0,
    'embedded-off': 0,
    'endpoint-on': 30,
  });
});
