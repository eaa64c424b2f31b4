import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { loadMapping } from '../../src/mapping/load-mapping.js';
import type { Store } from '../../src/store/store.js';
import { type ApiClient, queryCount } from '../support/api-client.js';
import { describeStores, listenChecked, openStoreWith } from '../support/each-store.js';
import { Oracle } from '../support/oracle.js';

/**
 * Structured attributes (docs/mapping.md): the LV2 plugins' ports, which sit on blank nodes with
 * their scale points on blank nodes again, shown as the oracle reads them straight from the file,
 * on every store; the same pages, fieldsets and includes as plain attributes, in as many queries;
 * what has no order is a 400 that says so.
 */
const FILES = ['test/fixtures/real/lv2.nt'];
const mapping = await loadMapping('test/fixtures/mappings/lv2-structured.yaml');
const oracle = Oracle.fromFile(FILES, mapping);
const LV2 = 'http://lv2plug.in/ns/lv2core#';
const plugins = oracle.members('plugins');
const projects = oracle.members('projects');

describeStores('structured attributes', (storeName) => {
  let store: Store;
  let api: ApiClient;
  beforeAll(async () => {
    store = await openStoreWith(storeName, FILES);
    api = await listenChecked(createApp({ datasets: [{ name: 'lv2', mapping, store, linkBase: '' }] }));
  });
  afterAll(async () => {
    await api?.close();
    await store?.close();
  });

  it('the data has what the suite is about: ports on blank nodes, scale points under them', () => {
    const ports = plugins.flatMap((p) => oracle.objects(p.iri, `${LV2}port`));
    expect(plugins.length).toBeGreaterThan(5);
    expect(ports.length).toBeGreaterThan(20);
    expect(ports.every((port) => port.termType === 'BlankNode')).toBe(true);
    expect(JSON.stringify(oracle.attributes('plugins', oracle.member('plugins', 'eg-amp')!.iri))).toContain(
      '"scale-points":[{"label":"+5","value":5}',
    );
  });

  it('each plugin shows its ports, and their scale points, as the file holds them, in one query', async () => {
    for (const plugin of plugins) {
      const response = await api.get(`/plugins/${encodeURIComponent(plugin.id)}`);
      expect(response.body.data, plugin.id).toEqual(oracle.resourceObject('plugins', plugin));
      expect(queryCount(response)).toBe(1);
    }
  });

  it('every page of the collection, and a fieldset of the structured attributes alone', async () => {
    const shown: unknown[] = [];
    for (let number = 0; number * 3 < plugins.length; number++) {
      const response = await api.get(`/plugins?page[number]=${number}&page[size]=3`);
      shown.push(...response.body.data);
    }
    expect(shown).toEqual(plugins.map((p) => oracle.resourceObject('plugins', p)));
    const sparse = await api.get('/plugins?fields[plugins]=ports,first-port&page[size]=50');
    expect(sparse.body.data).toEqual(plugins.map((p) => oracle.resourceObject('plugins', p, 'ports,first-port')));
  });

  it('include=plugins from the projects: the included plugins with their ports', async () => {
    const response = await api.get('/projects?include=plugins&page[size]=50');
    const expected = oracle.compound('projects', projects, 'plugins');
    expect(response.body.data).toEqual(expected.data);
    expect(response.body.included).toEqual(expected.included);
    expect(expected.included.length).toBeGreaterThan(0);
  });

  it.each([
    ['sort', 'ports', 'it has no order'],
    ['sort', '-ports.index', "the fields inside its values can't be sorted or filtered by"],
    ['filter[ports]', 'x', 'it has no order'],
    ['filter[ports.symbol]', 'gain', "the fields inside its values can't be sorted or filtered by"],
  ])('%s=%s is a 400 naming the structured attribute', async (parameter, value, why) => {
    const response = await api.get(`/plugins?${parameter}=${encodeURIComponent(value)}`);
    expect(response.status).toBe(400);
    expect(response.body.errors[0].source.parameter).toBe(parameter);
    expect(response.body.errors[0].detail).toContain(`'ports' is a structured attribute`);
    expect(response.body.errors[0].detail).toContain(why);
  });
});
