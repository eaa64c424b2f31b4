import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { loadFiles } from '../../src/load/load-files.js';
import { withLinkage } from '../../src/mapping/linkage.js';
import { createHttpStore } from '../../src/store/http-store.js';
import type { Store } from '../../src/store/store.js';
import { describeStores, ENDPOINT_STORE_NAMES, endpointOf } from '../support/each-store.js';
import { SAMPLE_DATA } from '../support/global-setup.js';
import { sampleWithToMany } from '../support/linkage-mapping.js';
import { type FedServer, fedServer, postDelta, sparqlUpdate } from '../support/live-servers.js';

/**
 * Linkage in a cached document follows the links: with every cache on, a change to a link read
 * through the delta listener drops the documents that show its linkage (a single resource, a
 * page), and the next read shows the new linkage. Before the delta
 * the cached documents still show the old one, so the drop is the delta's doing.
 */
const _endpoint = inject('endpoint');
const ELOD = 'http://linkedeconomy.org/ontology#';
const ACTIVITY = 'http://linkedeconomy.org/resource/TradeActivity/002'; // 86b4c2aa: origin de
const AGENT = 'http://linkedeconomy.org/resource/GroupNationalAgent/'; // fr: 19c4aa
const CONCEPT = 'http://linkedeconomy.org/resource/concept/';

describeStores(
  'linkage after a delta',
  (storeName) => {
    let store: Store;
    let fed: FedServer;
    let endpointUrl: string;
    let graph: string;
    beforeAll(async () => {
      endpointUrl = endpointOf(storeName).endpointUrl;
      graph = `http://example.org/sparql-jsonapi-test/linkage/${randomUUID()}`;
      await loadFiles({ endpointUrl, graph, files: [SAMPLE_DATA] });
      store = createHttpStore({ endpointUrl, graph });
      fed = await fedServer(withLinkage(await sampleWithToMany(), 'to-one'), store, graph);
    });
    afterAll(async () => {
      await fed?.close();
      await sparqlUpdate(endpointUrl, `DROP SILENT GRAPH <${graph}>`);
      await store?.close();
    });

    /** Moves a link of the activity: the update to the store, then (`delta: true`) its delta to the listener. */
    async function relink(predicate: string, from: string, to: string, { delta }: { delta: boolean }) {
      const [s, p] = [`<${ACTIVITY}>`, `<${ELOD}${predicate}>`];
      const update = `WITH <${graph}> DELETE { ${s} ${p} <${from}> } INSERT { ${s} ${p} <${to}> } WHERE {}`;
      expect(await sparqlUpdate(endpointUrl, update)).toBeLessThan(300);
      if (!delta) return;
      const triple = (object: string) => ({
        subject: { type: 'uri', value: ACTIVITY },
        predicate: { type: 'uri', value: `${ELOD}${predicate}` },
        object: { type: 'uri', value: object },
        graph: { type: 'uri', value: graph },
      });
      const body = [{ inserts: [triple(to)], deletes: [triple(from)] }];
      expect((await postDelta(fed.deltaUrl, body as never)).status).toBe(204);
    }

    const READS = {
      resource: async () => (await fed.api.get('/trade-activities/86b4c2aa')).body.data,
      page: async () =>
        (await fed.api.get('/trade-activities?sort=id&page[size]=20')).body.data.find(
          (item: { id: string }) => item.id === '86b4c2aa',
        ),
    };

    it('a to-one link moved: every cached document shows the new target after the delta, not before', async () => {
      const origin = async () => ({
        resource: (await READS.resource()).relationships.origin.data.id,
        page: (await READS.page()).relationships.origin.data.id,
      });
      const before = await origin(); // agent:de
      expect(before.page).toBe(before.resource);
      expect(before.resource).not.toBe('19c4aa');
      await relink('hasOrigin', `${AGENT}de`, `${AGENT}fr`, { delta: false });
      expect(await origin(), 'cached: the delta has not come').toEqual(before);
      await relink('hasOrigin', `${AGENT}de`, `${AGENT}fr`, { delta: true });
      expect(await origin()).toEqual({ resource: '19c4aa', page: '19c4aa' });
    });

    it('a to-many link added: the linkage lists the new member after the delta', async () => {
      const concerns = async () =>
        (await READS.resource()).relationships.concerns.data.map((linkage: { id: string }) => linkage.id);
      expect(await concerns()).toEqual(['0a01']);
      await relink('concerns', `${CONCEPT}0a01`, `${CONCEPT}0101`, { delta: false });
      expect(await concerns(), 'cached: the delta has not come').toEqual(['0a01']);
      await relink('concerns', `${CONCEPT}0a01`, `${CONCEPT}0101`, { delta: true });
      expect(await concerns()).toEqual(['0101']);
    });
  },
  ENDPOINT_STORE_NAMES,
);
