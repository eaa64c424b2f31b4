import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { loadFiles } from '../../src/load/load-files.js';
import { loadMapping } from '../../src/mapping/load-mapping.js';
import type { Mapping } from '../../src/mapping/model.js';
import { createHttpStore } from '../../src/store/http-store.js';
import type { Store } from '../../src/store/store.js';
import type { ApiClient } from '../support/api-client.js';
import { describeStores, endpointOf, SAMPLE_MAPPING } from '../support/each-store.js';
import { SAMPLE_DATA } from '../support/global-setup.js';
import { deltaOf, SampleChanges, seededRandom, updateOf } from '../support/live-rounds.js';
import {
  comparedUrls,
  expectSame,
  type FedServer,
  fedServer,
  plainServer,
  postDelta,
  sparqlUpdate,
} from '../support/live-servers.js';
import { metricValue } from '../support/metrics-text.js';

/** Rounds in CI; LIVE_ROUNDS scales it up for a soak. LIVE_SEED picks the walk (a number, or `random`). */
const ROUNDS = Number(process.env.LIVE_ROUNDS ?? 250);
const SEED =
  process.env.LIVE_SEED === 'random' ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.LIVE_SEED ?? 26);
/** URLs compared after each round, drawn from the set: every URL is compared often over the rounds. */
const COMPARED_PER_ROUND = 3;

describeStores(
  'live data: a server fed deltas, caches on, answers as one with every cache off',
  (storeName) => {
    let mapping: Mapping;
    let store: Store;
    let fed: FedServer;
    let plain: ApiClient;
    let endpointUrl: string;
    let graph: string;

    beforeAll(async () => {
      const endpoint = endpointOf(storeName);
      endpointUrl = endpoint.endpointUrl;
      graph = `http://example.org/sparql-jsonapi-test/live/${randomUUID()}`;
      await loadFiles({ endpointUrl, graph, files: [SAMPLE_DATA] });
      store = createHttpStore({ endpointUrl, graph });
      mapping = await loadMapping(SAMPLE_MAPPING);
      fed = await fedServer(mapping, store, graph);
      plain = await plainServer(mapping, store);
    });
    afterAll(async () => {
      await fed?.close();
      await plain?.close();
      await sparqlUpdate(endpointUrl, `DROP SILENT GRAPH <${graph}>`);
      await store?.close();
    });

    test(`${ROUNDS} rounds of random changes, each followed by its delta: byte-identical answers and ETags`, async () => {
      const random = seededRandom(SEED);
      const changes = await SampleChanges.open(store, random);
      const conceptIds = changes.conceptIds();
      const started = performance.now();
      for (let round = 1; round <= ROUNDS; round++) {
        const change = await changes.next();
        const context = `seed ${SEED} (LIVE_SEED=${SEED}), round ${round}: ${change.what}`;
        expect(await sparqlUpdate(endpointUrl, updateOf(change, graph)), `${context}: the update`).toBeLessThan(300);
        expect((await postDelta(fed.deltaUrl, deltaOf(change, graph))).status, `${context}: the delta`).toBe(204);
        const urls = comparedUrls(changes.activityIds(), conceptIds, (a) => changes.pick(a));
        for (let i = 0; i < COMPARED_PER_ROUND; i++) await expectSame(fed.api, plain, changes.pick(urls), context);
      }
      const metrics = await fed.api.metrics();
      // The comparison means something only if the fed server answered from its caches.
      expect(metricValue(metrics, 'response_cache_hits_total', { dataset: 'sample' })).toBeGreaterThan(ROUNDS / 4);
      expect(metricValue(metrics, 'delta_messages_total', { outcome: 'applied' })).toBe(ROUNDS);
      // And only if kept lists were patched, not only read whole again: the patches were compared too.
      const patched = metricValue(metrics, 'window_cache_patched_total', { dataset: 'sample' });
      expect(patched).toBeGreaterThan(0);
      const hits = metricValue(metrics, 'response_cache_hits_total', { dataset: 'sample' });
      const windowHits = metricValue(metrics, 'window_cache_hits_total', { dataset: 'sample' });
      const time = Math.round(performance.now() - started);
      console.log(
        `live data [${storeName}]: ${ROUNDS} rounds in ${time} ms, ${hits} response cache hits, ${windowHits} window cache hits, ${patched} lists patched`,
      );
    }, 600_000);
  },
  ['virtuoso'],
);
