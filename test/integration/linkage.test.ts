import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { withLinkage } from '../../src/mapping/linkage.js';
import { loadMapping } from '../../src/mapping/load-mapping.js';
import type { Store } from '../../src/store/store.js';
import { ApiClient, queryCount } from '../support/api-client.js';
import { describeStores, openStoreWith, SAMPLE_MAPPING } from '../support/each-store.js';
import { SAMPLE_DATA } from '../support/global-setup.js';
import { expectedLinkage, sampleWithToMany } from '../support/linkage-mapping.js';
import { Oracle } from '../support/oracle.js';

/**
 * Resource linkage without `include` (`--linkage to-one`, and the mapping's `linkage: true` on two
 * to-many relationships, one of them inverse): every relationship object that carries it shows
 * what the related URL shows (to-one: the first target of the target type by id, or null; to-many:
 * every target of the target type), on primary and included resources, read in the queries the
 * same request makes without linkage.
 */
const FILES = [SAMPLE_DATA, 'test/fixtures/include-two-origins.ttl', 'test/fixtures/linkage-odd-targets.ttl'];
const _endpoint = inject('endpoint');

const plain = await loadMapping(SAMPLE_MAPPING);
const mapping = withLinkage(await sampleWithToMany(), 'to-one');
const oracle = Oracle.fromFile(FILES, plain);
const LINKED_TO_MANY = new Set(['trade-activities concerns', 'concepts narrower-concepts']);

type Relationships = Record<string, { data?: unknown }>;

/** Each relationship object's `data` against the oracle: present where linked, absent elsewhere. */
function expectLinkage(item: { type: string; id: string; relationships?: Relationships }) {
  const resource = oracle.member(item.type, item.id)!;
  for (const [name, object] of Object.entries(item.relationships ?? {})) {
    const cardinality = plain.types.get(item.type)!.relationships.get(name)!.cardinality;
    const linked = cardinality === 'one' || LINKED_TO_MANY.has(`${item.type} ${name}`);
    const at = `${item.type}/${item.id} ${name}`;
    if (linked) expect(object.data, at).toEqual(expectedLinkage(oracle, item.type, resource, name));
    else expect(object, at).not.toHaveProperty('data');
  }
}

describeStores('resource linkage without include', (storeName) => {
  let store: Store;
  let linked: ApiClient;
  let unlinked: ApiClient;
  beforeAll(async () => {
    store = await openStoreWith(storeName, FILES);
    linked = await ApiClient.listen(createApp({ datasets: [{ name: 'sample', mapping, store, linkBase: '' }] }));
    unlinked = await ApiClient.listen(
      createApp({ datasets: [{ name: 'sample', mapping: plain, store, linkBase: '' }] }),
    );
  });
  afterAll(async () => {
    await linked?.close();
    await unlinked?.close();
    await store?.close();
  });

  it.each([...plain.types.keys()])('every %s shows the linkage its related URLs show', async (typeName) => {
    const { body } = await linked.get(`/${typeName}?page[size]=100`);
    expect(body.data).toHaveLength(oracle.members(typeName).length);
    for (const item of body.data) expectLinkage(item);
  });

  it('a to-one with two targets links the first by id; links to resources of another type are left out', async () => {
    const relationships = async (id: string) => (await linked.get(`/trade-activities/${id}`)).body.data.relationships;
    expect((await relationships('7c1e0a42')).origin.data).toEqual({ type: 'group-national-agents', id: '19c4aa' });
    const related = (id: string, name: string) => linked.get(`/trade-activities/${id}/${name}`);
    for (const [id, name] of [
      ['86b4c2aa', 'destination'],
      ['e4035c7b9d', 'amount'],
    ] as const) {
      const shown = (await related(id, name)).body.data;
      expect(shown, `${id} ${name}`).not.toBeNull();
      expect((await relationships(id))[name].data).toEqual({ type: shown.type, id: shown.id });
    }
    const concerns = (await linked.get('/trade-activities/e4035c7b9d/concerns')).body.data;
    expect((await relationships('e4035c7b9d')).concerns.data).toEqual(
      concerns.map((c: { id: string }) => ({ type: 'concepts', id: c.id })),
    );
  });

  it('included resources carry their linkage too, and include still gives its own', async () => {
    const { body } = await linked.get('/trade-activities?include=origin,concerns&page[size]=100');
    for (const item of [...body.data, ...body.included]) expectLinkage(item);
    expect(body.included.some((r: { type: string }) => r.type === 'group-national-agents')).toBe(true);
  });

  it('a sparse fieldset of relationships only reads and shows their linkage', async () => {
    const { body } = await linked.get('/trade-activities?fields[trade-activities]=origin,concerns&page[size]=100');
    for (const item of body.data) {
      expect(Object.keys(item.relationships)).toEqual(['concerns', 'origin']);
      expect(item).not.toHaveProperty('attributes');
      expectLinkage(item);
    }
  });

  it.each([
    '/trade-activities/7c1e0a42',
    '/trade-activities/7c1e0a42?include=origin.country',
    '/trade-activities?page[size]=5',
    '/trade-activities?page[size]=5&page[number]=1&sort=id',
    '/trade-activities?include=origin.country,concerns&page[size]=5',
    '/concepts?page[size]=5',
    '/concepts?include=narrower-concepts&page[size]=5',
    '/concept-schemes/c0de/top-concepts?sort=id',
  ])('%s: the same number of queries with linkage as without', async (path) => {
    const counts = [];
    for (const api of [unlinked, linked]) {
      await api.get(path); // the second request is counted: the first one's hints are then known
      const response = await api.get(path);
      expect(response.status, path).toBe(200);
      counts.push(queryCount(response));
    }
    expect(counts[0]).toBeGreaterThan(0);
    expect(counts[1], path).toBe(counts[0]);
  });
});
