import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { loadMapping } from '../../src/mapping/load-mapping.js';
import type { Store } from '../../src/store/store.js';
import { ApiClient } from '../support/api-client.js';
import { describeStores, openStoreWith, SAMPLE_MAPPING } from '../support/each-store.js';
import { SAMPLE_DATA } from '../support/global-setup.js';
import { codePointCompare, Oracle } from '../support/oracle.js';

/**
 * A to-one relationship with two targets in the data: include links and includes only the first
 * by id, the one its related URL shows, and follows the path on from that one alone.
 */
const FILES = [SAMPLE_DATA, 'test/fixtures/include-two-origins.ttl'];
const mapping = await loadMapping(SAMPLE_MAPPING);
const oracle = Oracle.fromFile(FILES, mapping);
const _endpoint = inject('endpoint');
const activity = oracle.member('trade-activities', '7c1e0a42')!;

describeStores(`include through a to-one relationship with two targets`, (storeName) => {
  let store: Store;
  let api: ApiClient;
  beforeAll(async () => {
    store = await openStoreWith(storeName, FILES);
    api = await ApiClient.listen(createApp({ datasets: [{ name: 'sample', mapping, store, linkBase: '' }] }));
  });
  afterAll(async () => {
    await api?.close();
    await store?.close();
  });

  it('the data has two origins; the related URL shows the first by id', async () => {
    const origins = oracle.related('trade-activities', activity.iri, 'origin');
    expect(origins.map((o) => o.id)).toEqual(['19c4aa', '6a1f03']);
    expect((await api.get(`/trade-activities/${activity.id}/origin`)).body.data.id).toBe('19c4aa');
  });

  it.each(['origin', 'origin.country'])('include=%s links and includes that first origin only', async (include) => {
    const response = await api.get(`/trade-activities/${activity.id}?include=${include}`);
    const expected = oracle.compound('trade-activities', [activity], include);
    expect(response.body.data).toEqual(expected.data[0]);
    expect(response.body.data.relationships.origin.data).toEqual({ type: 'group-national-agents', id: '19c4aa' });
    const included = [...response.body.included].sort(
      (a, b) => codePointCompare(a.type, b.type) || codePointCompare(a.id, b.id),
    );
    expect(included).toEqual(expected.included);
    expect(included.map((r: { id: string }) => r.id)).not.toContain('6a1f03');
  });
});
