import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import type { WarmedDataset } from '../../src/cache/remembered.js';
import { main } from '../../src/cli/main.js';
import { loadMapping } from '../../src/mapping/load-mapping.js';
import type { Mapping } from '../../src/mapping/model.js';
import type { Store } from '../../src/store/store.js';
import { ApiClient, queryCount } from '../support/api-client.js';
import { captureIo, listeningPort } from '../support/cli-io.js';
import { describeStores, openSampleStore, SAMPLE_MAPPING } from '../support/each-store.js';
import { SAMPLE_DATA } from '../support/global-setup.js';

/**
 * The window cache read ahead (app.ts warmWindowCache, as the CLI runs it before it listens):
 * every type's default list is read for a dataset that keeps lists without expiry, so that a
 * collection's first page only fetches; a dataset whose lists expire is left alone.
 */
describeStores('reading the window cache ahead', (storeName) => {
  let mapping: Mapping;
  let store: Store;
  let warm: ApiClient;
  let plain: ApiClient;
  let warmed: WarmedDataset[];
  beforeAll(async () => {
    mapping = await loadMapping(SAMPLE_MAPPING);
    store = await openSampleStore(storeName);
    const app = createApp({
      datasets: [
        { name: 'kept', mapping, store, linkBase: '', options: { windowCacheTtlSeconds: Number.POSITIVE_INFINITY } },
        { name: 'expiring', mapping, store, linkBase: '/api/expiring', options: { windowCacheTtlSeconds: 60 } },
      ],
    });
    warmed = await app.locals.warmWindowCache(new AbortController().signal);
    warm = await ApiClient.listen(app);
    plain = await ApiClient.listen(createApp({ datasets: [{ name: 'plain', mapping, store, linkBase: '' }] }));
  });
  afterAll(async () => {
    await warm?.close();
    await plain?.close();
    await store?.close();
  });

  it('reads one list per type of the dataset that keeps them, none of the one whose lists expire', () => {
    expect(warmed.map(({ dataset, lists }) => ({ dataset, lists }))).toEqual([
      { dataset: 'kept', lists: mapping.types.size },
    ]);
  });

  it("a collection's first page then reads nothing of its list, and is the store's page", async () => {
    for (const type of mapping.types.keys()) {
      const path = `/${type}`;
      const [cached, fromStore] = await Promise.all([warm.get(path), plain.get(path)]);
      expect(cached.status, path).toBe(200);
      expect(cached.body, path).toEqual(fromStore.body);
      // Only the fetch is left, when the page has members whose type has attributes.
      const fetches = cached.body.data.length > 0 && mapping.types.get(type)!.attributes.size > 0 ? 1 : 0;
      expect(queryCount(cached), path).toBe(fetches);
      expect(queryCount(fromStore), path).toBeGreaterThan(fetches);
    }
  });

  it("the expiring dataset's first page is the store's, its list read in the background for the next", async () => {
    const type = [...mapping.types.values()].find((t) => t.attributes.size > 0)!;
    const path = `/api/expiring/${type.name}`;
    const first = await warm.get(path);
    expect(first.status).toBe(200);
    // Not held up by the whole list: the window-cache path's fallback read the page.
    expect(first.headers.get('server-timing')).toMatch(/path;desc="window-cache>/);
    await warm.listsRead();
    const next = await warm.get(path);
    expect(next.body).toEqual(first.body);
    expect(next.headers.get('server-timing')).toMatch(/path;desc="window-cache(\+fetch)?"/);
    expect(queryCount(next)).toBe(next.body.data.length > 0 ? 1 : 0);
  });
});

it("serve reads the embedded store's lists before it listens, so no first page waits for one", async () => {
  const stopper = new AbortController();
  const io = captureIo({ LOG_LEVEL: 'info' }, stopper.signal);
  const exited = main(['serve', '--mapping', SAMPLE_MAPPING, '--data', SAMPLE_DATA, '--port', '0'], io);
  try {
    await listeningPort(
      () => io.out,
      exited,
      () => io.err.join('\n'),
    );
  } finally {
    stopper.abort();
  }
  expect(await exited).toBe(0);
  const messages = io.out.map((line) => (JSON.parse(line) as { msg: string }).msg);
  const read = messages.findIndex((m) => /^window cache: read \d+ lists of dataset /.test(m));
  const listening = messages.findIndex((m) => m.startsWith('listening on'));
  expect(read, messages.join('\n')).toBeGreaterThanOrEqual(0);
  expect(read).toBeLessThan(listening);
});
