import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { loadMapping } from '../../src/mapping/load-mapping.js';
import type { Store } from '../../src/store/store.js';
import { ApiClient } from '../support/api-client.js';
import { openSampleStore, SAMPLE_MAPPING } from '../support/each-store.js';

/**
 * The embedded store's default admission limits (EMBEDDED_QUERIES) take a burst of pages with
 * `include`: each sends its fetch and its first include level at once, two light queries, so 10
 * requests (a front-end's burst, the bench's 10 connections) put 20 in the light lane, which runs
 * one at a time. With a queue of 16 per lane, as before, part of them answered 503; the light
 * lane now queues 64. (The heavy lane keeps 16: 10 list queries fit.) The embedded store only, by
 * nature: the limits are its worker pool's (the HTTP store's lanes are in store-contract.test.ts).
 */
let store: Store;
let api: ApiClient;
beforeAll(async () => {
  const mapping = await loadMapping(SAMPLE_MAPPING);
  store = await openSampleStore('embedded');
  api = await ApiClient.listen(createApp({ datasets: [{ name: 'sample', mapping, store, linkBase: '' }] }));
});
afterAll(async () => {
  await api?.close();
  await store?.close();
});

it('answers 10 concurrent pages with include, each with 200', async () => {
  const paths = Array.from(
    { length: 10 },
    (_, n) => `/trade-activities?include=concerns.broader-concepts&page[size]=${5 + n}`,
  );
  const statuses = (await Promise.all(paths.map((path) => api.get(path)))).map((response) => response.status);
  expect(statuses).toEqual(paths.map(() => 200));
});
