import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { loadMapping } from '../../src/mapping/load-mapping.js';
import type { Mapping } from '../../src/mapping/model.js';
import { decorateStore } from '../../src/store/decorate-store.js';
import { createOxigraphStore } from '../../src/store/oxigraph-store.js';
import type { Store } from '../../src/store/store.js';
import { ApiClient, queryCount } from '../support/api-client.js';
import { SAMPLE_MAPPING } from '../support/each-store.js';
import { SAMPLE_DATA } from '../support/global-setup.js';

/**
 * A dataset whose lists are read whole in the background (as every dataset's are, but for the
 * ones read before the server listens): while a list's whole reading has not ended, its pages are read from
 * the store as without the cache, at once, byte for byte the same; once it is kept, its pages are
 * cut from it. The store here holds every `whole-list` query until the test lets it go, as a list
 * too long to read in a request's time would.
 */
describe('[embedded] lists read whole in the background', () => {
  let mapping: Mapping;
  let store: Store;
  let kept: ApiClient;
  let plain: ApiClient;
  /** The whole-list queries held so far, how to let them go, and when the store has answered them. */
  const held: { text: string; release: () => void; answered: Promise<unknown> }[] = [];
  beforeAll(async () => {
    mapping = await loadMapping(SAMPLE_MAPPING);
    store = await createOxigraphStore({ files: [SAMPLE_DATA] });
    const slow = decorateStore(store, {
      select: async (query, options, next) => {
        if (options?.label !== 'whole-list') return next(query, options);
        let release = () => {};
        const gate = new Promise<void>((resolve) => (release = resolve));
        const answered = gate.then(() => next(query, options));
        held.push({ text: query, release, answered });
        return answered;
      },
    });
    const options = { windowCacheTtlSeconds: Number.POSITIVE_INFINITY };
    kept = await ApiClient.listen(
      createApp({ datasets: [{ name: 'kept', mapping, store: slow, linkBase: '', options }] }),
    );
    plain = await ApiClient.listen(createApp({ datasets: [{ name: 'plain', mapping, store, linkBase: '' }] }));
  });
  afterAll(async () => {
    for (const { release } of held) release();
    await Promise.allSettled(held.map(({ answered }) => answered));
    await kept?.close();
    await plain?.close();
    await store?.close();
  });

  const target = '/trade-activities?sort=-financial-year&page[size]=3&page[number]=2';

  it('serves every page while its list is being read, the store’s own page, and starts one reading only', async () => {
    for (const path of [target, '/trade-activities?sort=-financial-year&page[size]=3&page[number]=3', target]) {
      const [early, fromStore] = await Promise.all([kept.get(path), plain.get(path)]);
      expect(early.status, path).toBe(200);
      expect(early.body, path).toEqual(fromStore.body);
      expect(early.body.data.length, `${path}: a page with members`).toBeGreaterThan(0);
      // Read as the server without the cache reads it: the same queries, not the whole list.
      expect(queryCount(early), path).toBe(queryCount(fromStore));
      expect(early.headers.get('server-timing'), path).toContain('window-cache>');
    }
    // All three pages were answered while the whole list is still held: no page waited on it.
    expect(held.map(({ text }) => text)).toHaveLength(1);
  });

  it('cuts the pages from the kept list once its reading ended', async () => {
    const [reading] = held;
    expect(reading).toBeDefined();
    reading!.release();
    await reading!.answered;
    // The reading is kept as it ends (the cache's own continuation of it): after that turn, a page
    // is cut from the kept list and reads nothing of it.
    await new Promise((resolve) => setImmediate(resolve));
    const [cut, fromStore] = await Promise.all([kept.get(target), plain.get(target)]);
    expect(cut.status).toBe(200);
    expect(cut.body).toEqual(fromStore.body);
    expect(cut.body.data.length).toBeGreaterThan(0);
    expect(cut.headers.get('server-timing')).toContain('path;desc="window-cache+fetch"');
    // Only the fetch of the page's attributes is left.
    expect(queryCount(cut)).toBe(1);
    expect(held).toHaveLength(1);
  });
});
