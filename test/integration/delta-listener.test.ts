import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ChangeSet } from '../../src/live/delta-body.js';
import { loadFiles } from '../../src/load/load-files.js';
import { loadMapping } from '../../src/mapping/load-mapping.js';
import type { Mapping } from '../../src/mapping/model.js';
import { createHttpStore } from '../../src/store/http-store.js';
import type { Row, SelectOptions, Store } from '../../src/store/store.js';
import {
  describeStores,
  ENDPOINT_STORE_NAMES,
  endpointOf,
  openSampleStore,
  SAMPLE_MAPPING,
} from '../support/each-store.js';
import { SAMPLE_DATA } from '../support/global-setup.js';
import { type FedServer, fedServer, plainServer, postDelta, sparqlUpdate } from '../support/live-servers.js';
import { metricValue } from '../support/metrics-text.js';

const SKOS = 'http://www.w3.org/2004/02/skos/core#';
const CONCEPT = 'http://linkedeconomy.org/resource/concept/0101';
const OTHER_GRAPH = 'http://example.org/not-the-dataset-graph';

/** A delta exactly as delta-notifier sends it with `resourceFormat: "v0.0.1"`: one change set, `graph` on each triple. */
const labelDelta = (graph: string, predicate = `${SKOS}prefLabel`): ChangeSet[] => [
  {
    inserts: [
      {
        subject: { type: 'uri', value: CONCEPT },
        predicate: { type: 'uri', value: predicate },
        object: { type: 'literal', value: 'Live animals', 'xml:lang': 'en' },
        graph: { type: 'uri', value: graph },
      },
    ],
    deletes: [
      {
        subject: { type: 'uri', value: CONCEPT },
        predicate: { type: 'uri', value: predicate },
        object: { type: 'typed-literal', value: '7', datatype: 'http://www.w3.org/2001/XMLSchema#integer' },
        graph: { type: 'uri', value: graph },
      },
    ],
  },
];

/** The SPARQL UPDATE that gives {@link CONCEPT} `label` as its English label in `graph`, in place of the one it has. */
const relabelUpdate = (graph: string, label: string) =>
  `DELETE { GRAPH <${graph}> { <${CONCEPT}> <${SKOS}prefLabel> ?l } } INSERT { GRAPH <${graph}> { <${CONCEPT}> <${SKOS}prefLabel> "${label}"@en } } WHERE { GRAPH <${graph}> { <${CONCEPT}> <${SKOS}prefLabel> ?l FILTER(lang(?l) = 'en') } }`;

/** A body of one change set with one triple, `changed` replacing its terms. */
const oneTriple = (list: 'inserts' | 'deletes', changed: Record<string, unknown>) =>
  JSON.stringify([
    {
      [list]: [
        {
          subject: { type: 'uri', value: 'urn:s' },
          predicate: { type: 'uri', value: 'urn:p' },
          object: { type: 'uri', value: 'urn:o' },
          ...changed,
        },
      ],
    },
  ]);

/** One term of a delta's triple. */
type DeltaTerm = ChangeSet['inserts'][number]['object'];

/** Whether the fed server answered `path` from its response cache (Server-Timing says so). */
async function fromCache(fed: FedServer, path: string): Promise<boolean> {
  const response = await fed.api.get(path);
  expect(response.status, path).toBe(200);
  return /cache;desc=hit/.test(response.headers.get('server-timing') ?? '');
}

const LABELS = '/concepts?sort=label&page[size]=5';
const YEARS = '/trade-activities?sort=financial-year&page[size]=5';

describeStores('delta listener: bad input, the public port, other graphs, precision', (storeName) => {
  let mapping: Mapping;
  let store: Store;
  let fed: FedServer;
  const TOKEN = 'a-token-of-at-least-16-characters';

  beforeAll(async () => {
    [mapping, store] = await Promise.all([loadMapping(SAMPLE_MAPPING), openSampleStore(storeName)]);
    fed = await fedServer(mapping, store, 'http://example.org/the-dataset-graph', { token: TOKEN, maxBytes: 4096 });
  });
  afterAll(async () => {
    await fed?.close();
    await store?.close();
  });
  const auth = { authorization: `Bearer ${TOKEN}` };
  /** Both URLs are cached before each test. */
  const warm = async () => {
    await fromCache(fed, LABELS);
    await fromCache(fed, YEARS);
    await fed.api.listsRead(); // their whole lists, read in the background, kept
    expect(await fromCache(fed, LABELS)).toBe(true);
    expect(await fromCache(fed, YEARS)).toBe(true);
  };

  test('the public port answers /.mu/delta as any unknown path, and drops nothing', async () => {
    await warm();
    for (const method of ['POST', 'GET']) {
      const asDelta = await fetch(`${fed.api.baseUrl}/.mu/delta`, {
        method,
        body: method === 'POST' ? JSON.stringify(labelDelta('g')) : null,
        headers: { 'content-type': 'application/json' },
      });
      const unknown = await fetch(`${fed.api.baseUrl}/.mu/no-such-path`, {
        method,
        body: method === 'POST' ? '[]' : null,
        headers: { 'content-type': 'application/json' },
      });
      expect(asDelta.status, method).toBe(unknown.status);
      expect(asDelta.status, method).toBeGreaterThanOrEqual(400);
      const [a, b] = [(await asDelta.json()) as any, (await unknown.json()) as any];
      expect(a.errors[0].title, method).toBe(b.errors[0].title);
    }
    expect(await fromCache(fed, LABELS)).toBe(true);
  });

  test('without the bearer token: 401, and nothing dropped', async () => {
    await warm();
    const refused = await postDelta(fed.deltaUrl, labelDelta('g'));
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.text).errors[0].status).toBe('401');
    expect((await postDelta(fed.deltaUrl, labelDelta('g'), { authorization: 'Bearer wrong' })).status).toBe(401);
    expect(await fromCache(fed, LABELS)).toBe(true);
  });

  test.each([
    ['not JSON', '[{"inserts": ['],
    ['not an array', '{"inserts": [], "deletes": []}'],
    ['a predicate that is a literal', oneTriple('inserts', { predicate: { type: 'literal', value: 'p' } })],
    ['a term of an unknown type', oneTriple('deletes', { subject: { type: 'iri', value: 'urn:s' } })],
    [
      'a triple without an object',
      JSON.stringify([
        { inserts: [{ subject: { type: 'uri', value: 'urn:s' }, predicate: { type: 'uri', value: 'urn:p' } }] },
      ]),
    ],
  ])('%s: 400 with a JSON:API error, and every cache dropped whole', async (_, body) => {
    await warm();
    const before = metricValue(await fed.api.metrics(), 'cache_whole_drops_total', { reason: 'invalid-body' });
    const answer = await postDelta(fed.deltaUrl, body, auth);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text).errors[0]).toMatchObject({ status: '400', title: 'Bad Request' });
    expect(await fromCache(fed, LABELS)).toBe(false);
    expect(await fromCache(fed, YEARS)).toBe(false);
    expect(metricValue(await fed.api.metrics(), 'cache_whole_drops_total', { reason: 'invalid-body' })).toBe(
      before + 1,
    );
  });

  test('a body over the limit: 413, and every cache dropped whole', async () => {
    await warm();
    const big = JSON.stringify([{ inserts: Array.from({ length: 100 }, () => labelDelta('g')[0]!.inserts[0]) }]);
    expect(big.length).toBeGreaterThan(4096);
    const answer = await postDelta(fed.deltaUrl, big, auth);
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.text).errors[0].status).toBe('413');
    expect(await fromCache(fed, LABELS)).toBe(false);
    expect(await fromCache(fed, YEARS)).toBe(false);
  });

  test('a label changed: the responses of lists sorted by label are dropped and their kept lists patched; lists that do not read labels stay', async () => {
    await warm();
    const dropped = (text: string, cache: string) =>
      metricValue(text, 'cache_entries_dropped_total', { cache, reason: 'delta' });
    const patched = (text: string) => metricValue(text, 'window_cache_patched_total', { dataset: 'sample' });
    const before = await fed.api.metrics();
    expect((await postDelta(fed.deltaUrl, labelDelta('http://example.org/the-dataset-graph'), auth)).status).toBe(204);
    const after = await fed.api.metrics();
    // The label-sorted list: its response dropped; its whole list kept, stale, for the next request to patch.
    expect(dropped(after, 'response')).toBeGreaterThan(dropped(before, 'response'));
    expect(dropped(after, 'window')).toBe(dropped(before, 'window'));
    expect(metricValue(after, 'delta_duration_seconds_count', { outcome: 'applied' })).toBe(
      metricValue(before, 'delta_duration_seconds_count', { outcome: 'applied' }) + 1,
    );
    const response = await fed.api.get(LABELS);
    expect(response.status).toBe(200);
    expect(response.headers.get('server-timing')).toMatch(/path;desc="window-cache\+patch\+/);
    expect(patched(await fed.api.metrics())).toBe(patched(after) + 1);
    expect(await fromCache(fed, YEARS)).toBe(true);
  });

  test('a year changed: the kept list sorted by year is patched, not dropped; a blank node subject drops it', async () => {
    await warm();
    const ELOD = 'http://linkedeconomy.org/ontology#';
    const yearDelta = (subject: DeltaTerm): ChangeSet[] => [
      {
        inserts: [
          {
            subject,
            predicate: { type: 'uri', value: `${ELOD}financialYear` },
            object: { type: 'typed-literal', value: '2031-01-01Z', datatype: 'http://www.w3.org/2001/XMLSchema#date' },
          },
        ],
        deletes: [],
      },
    ];
    const figures = async () => {
      const text = await fed.api.metrics();
      return {
        dropped: metricValue(text, 'cache_entries_dropped_total', { cache: 'window', reason: 'delta' }),
        patched: metricValue(text, 'window_cache_patched_total', { dataset: 'sample' }),
      };
    };
    const path = async () => (await fed.api.get(YEARS)).headers.get('server-timing') ?? '';
    const activity = { type: 'uri', value: 'http://linkedeconomy.org/resource/TradeActivity/001' } as const;
    const before = await figures();
    expect((await postDelta(fed.deltaUrl, yearDelta(activity), auth)).status).toBe(204);
    expect((await figures()).dropped).toBe(before.dropped); // kept, stale, for the next request to patch
    expect(await path()).toMatch(/path;desc="window-cache\+patch\+/);
    expect((await figures()).patched).toBe(before.patched + 1);
    expect(await fromCache(fed, YEARS)).toBe(true);
    // A blank node's subject can't be told: the list is dropped, and read whole.
    expect((await postDelta(fed.deltaUrl, yearDelta({ type: 'bnode', value: 'b0' }), auth)).status).toBe(204);
    expect((await figures()).dropped).toBeGreaterThan(before.dropped);
    expect(await path()).not.toMatch(/patch/);
    expect((await figures()).patched).toBe(before.patched + 1);
  });

  test('a label changed: the kept list sorted through concerns.label is patched: the activities reaching the concept found, then read again', async () => {
    const BY_CONCEPT_LABEL = '/trade-activities?sort=concerns.label&page[size]=5';
    const timing = async () => (await fed.api.get(BY_CONCEPT_LABEL)).headers.get('server-timing') ?? '';
    await timing();
    await fed.api.listsRead(); // its whole list, read in the background, kept
    expect(await timing()).toMatch(/cache;desc=hit/);
    expect((await postDelta(fed.deltaUrl, labelDelta('http://example.org/the-dataset-graph'), auth)).status).toBe(204);
    const patched = await timing();
    expect(patched).toMatch(/path;desc="window-cache\+patch\+fetch"/);
    expect(patched).toMatch(/desc="3 queries"/); // those reaching the concept, those read again, the page's fetch
  });

  test('a year changed of a resource a filtered list does not hold: the list is patched with no query; of one it holds, with one', async () => {
    const ELOD = 'http://linkedeconomy.org/ontology#';
    const GERMAN = '/trade-activities?filter[origin.country.iso-code]=DE'; // ta:002, not ta:001 (gr)
    const yearOf = (n: string, year: string): ChangeSet[] => [
      {
        inserts: [
          {
            subject: { type: 'uri', value: `http://linkedeconomy.org/resource/TradeActivity/${n}` },
            predicate: { type: 'uri', value: `${ELOD}financialYear` },
            object: { type: 'typed-literal', value: year, datatype: 'http://www.w3.org/2001/XMLSchema#date' },
          },
        ],
        deletes: [],
      },
    ];
    const timing = async () => (await fed.api.get(GERMAN)).headers.get('server-timing') ?? '';
    await timing();
    await fed.api.listsRead(); // its whole list, read in the background, kept
    expect(await timing()).toMatch(/cache;desc=hit/);
    expect((await postDelta(fed.deltaUrl, yearOf('001', '2032-01-01Z'), auth)).status).toBe(204);
    const outside = await timing();
    expect(outside).toMatch(/path;desc="window-cache\+patch\+fetch"/);
    expect(outside).toMatch(/desc="1 query"/); // the page's fetch alone
    expect((await postDelta(fed.deltaUrl, yearOf('002', '2033-01-01Z'), auth)).status).toBe(204);
    const inside = await timing();
    expect(inside).toMatch(/path;desc="window-cache\+patch\+fetch"/);
    expect(inside).toMatch(/desc="2 queries"/); // its member read again, then the fetch
  });

  test('a change to one resource drops its documents and keeps the others’; a blank node drops them all', async () => {
    const term = (value: string): DeltaTerm =>
      value.startsWith('_:') ? { type: 'bnode', value: value.slice(2) } : { type: 'uri', value };
    const change = (subject: string, predicate: string, object: DeltaTerm) =>
      postDelta(
        fed.deltaUrl,
        [{ inserts: [{ subject: term(subject), predicate: term(predicate), object }], deletes: [] }],
        auth,
      );
    const documents = {
      year: '/trade-activities/7c1e0a42', // ta:001, a `predicate` id
      otherYear: '/trade-activities/86b4c2aa',
      narrower: '/concepts/0101', // a template id
      broader: '/concepts/01',
      other: '/concepts/02',
    };
    /** Caches every document, then says which are still cached after `changed`. */
    const kept = async (changed: () => Promise<{ status: number }>) => {
      for (const path of Object.values(documents)) await fromCache(fed, path);
      for (const path of Object.values(documents)) expect(await fromCache(fed, path), path).toBe(true);
      expect((await changed()).status).toBe(204);
      const cached: string[] = [];
      for (const [name, path] of Object.entries(documents)) if (await fromCache(fed, path)) cached.push(name);
      return cached;
    };
    const year: DeltaTerm = {
      type: 'typed-literal',
      value: '2017-01-01Z',
      datatype: 'http://www.w3.org/2001/XMLSchema#date',
    };
    const TA001 = 'http://linkedeconomy.org/resource/TradeActivity/001';
    expect(await kept(() => change(TA001, 'http://linkedeconomy.org/ontology#financialYear', year))).toEqual([
      'otherYear',
      'narrower',
      'broader',
      'other',
    ]);
    // A link: both ends (broader-concepts of one, narrower-concepts of the other).
    const broader: DeltaTerm = { type: 'uri', value: 'http://linkedeconomy.org/resource/concept/01' };
    expect(await kept(() => change(CONCEPT, `${SKOS}broader`, broader))).toEqual(['year', 'otherYear', 'other']);
    // A blank node's label may be any resource's.
    const label: DeltaTerm = { type: 'literal', value: 'x', 'xml:lang': 'en' };
    expect(await kept(() => change('_:b0', `${SKOS}prefLabel`, label))).toEqual(['year', 'otherYear']);
  });

  test('a new label of a concept drops the pages that show it and keeps those that do not, unless the list sorts by it', async () => {
    const pages = {
      showing: '/trade-activities/7c1e0a42/concerns', // 0101 and 0201
      notShowing: '/trade-activities/86b4c2aa/concerns', // 0a01
      sortedByLabel: '/trade-activities/86b4c2aa/concerns?sort=label', // a label may move a member in
      withInclude: '/trade-activities/86b4c2aa/concerns?include=broader-concepts', // labels of other concepts
    };
    for (const path of Object.values(pages)) await fromCache(fed, path);
    for (const path of Object.values(pages)) expect(await fromCache(fed, path), path).toBe(true);
    const label: DeltaTerm = { type: 'literal', value: 'Live animals, new', 'xml:lang': 'en' };
    const answer = await postDelta(
      fed.deltaUrl,
      [
        {
          inserts: [
            {
              subject: { type: 'uri', value: CONCEPT },
              predicate: { type: 'uri', value: `${SKOS}prefLabel` },
              object: label,
            },
          ],
          deletes: [],
        },
      ],
      auth,
    );
    expect(answer.status).toBe(204);
    const cached: string[] = [];
    for (const [name, path] of Object.entries(pages)) if (await fromCache(fed, path)) cached.push(name);
    expect(cached).toEqual(['notShowing']);
  });

  test('a delta for a graph the dataset does not read drops as if it were the dataset’s (the graph is not trusted)', async () => {
    await warm();
    const before = metricValue(await fed.api.metrics(), 'delta_triples_total', { rule: 'other-graph' });
    expect((await postDelta(fed.deltaUrl, labelDelta(OTHER_GRAPH), auth)).status).toBe(204);
    expect(await fromCache(fed, LABELS)).toBe(false);
    expect(await fromCache(fed, YEARS)).toBe(true);
    expect(metricValue(await fed.api.metrics(), 'delta_triples_total', { rule: 'other-graph' })).toBe(before + 2);
  });

  test('a triple no mapping reads drops nothing', async () => {
    await warm();
    expect((await postDelta(fed.deltaUrl, labelDelta('g', 'http://example.org/unmapped'), auth)).status).toBe(204);
    expect(await fromCache(fed, LABELS)).toBe(true);
    expect(await fromCache(fed, YEARS)).toBe(true);
  });

  test('other methods and paths on the listener: 405 and 404', async () => {
    expect((await fetch(fed.deltaUrl, { headers: auth })).status).toBe(405);
    expect((await fetch(fed.deltaUrl.replace('/.mu/delta', '/concepts'), { headers: auth })).status).toBe(404);
  });
});

/**
 * A store whose next select returns the store's real answer only when released: a request can
 * be held after it read the old data and before it is answered (and cached).
 */
function gated(store: Store) {
  let held: { resolve: () => void; reached: () => void } | undefined;
  let armed: ((reached: () => void) => Promise<void>) | undefined;
  const gate = {
    ...store,
    select: async (query: string, options?: SelectOptions): Promise<Row[]> => {
      const rows = await store.select(query, options);
      const wait = armed;
      armed = undefined;
      if (wait) await wait(() => held?.reached());
      return rows;
    },
  };
  return {
    store: gate as Store,
    /** Holds the next select after it has read; resolves `reached` once it is held, and a release. */
    hold(): { reached: Promise<void>; release: () => void } {
      let reachedResolve!: () => void;
      const reached = new Promise<void>((resolve) => (reachedResolve = resolve));
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      armed = async (onReach) => {
        onReach();
        await released;
      };
      held = { resolve: () => release(), reached: reachedResolve };
      return { reached, release: () => release() };
    },
  };
}

describeStores(
  'delta listener: a request racing a delta never keeps its old answer',
  (storeName) => {
    let mapping: Mapping;
    let store: Store;
    let graph: string;
    let endpointUrl: string;
    beforeAll(async () => {
      mapping = await loadMapping(SAMPLE_MAPPING);
      endpointUrl = endpointOf(storeName).endpointUrl;
      graph = `http://example.org/sparql-jsonapi-test/race/${randomUUID()}`;
      await loadFiles({ endpointUrl, graph, files: [SAMPLE_DATA] });
      store = createHttpStore({ endpointUrl, graph });
    });
    afterAll(async () => {
      await sparqlUpdate(endpointUrl, `DROP SILENT GRAPH <${graph}>`);
      await store?.close();
    });

    // Each case moves 0101's label to another end of the label order, so that a list kept from
    // before the change has another order than the store's.
    describe.each([
      ['the response cache', `/concepts/0101`, 'zz raced'],
      ['the window cache', `/concepts?sort=label&page[size]=50`, 'AA raced'],
    ])('%s', (_, path, prefix) => {
      test('held after reading, answered after the delta’s 204: the next request sees the new data', async () => {
        const { store: gate, hold } = gated(store);
        const fed = await fedServer(mapping, gate);
        const plain = await plainServer(mapping, store);
        try {
          const label = `${prefix} ${Math.random().toString(36).slice(2)}`;
          const held = hold();
          const racing = fetch(fed.api.baseUrl + path, { headers: { accept: 'application/vnd.api+json' } });
          await held.reached;
          expect(await sparqlUpdate(endpointUrl, relabelUpdate(graph, label))).toBeLessThan(300);
          expect((await postDelta(fed.deltaUrl, labelDelta(graph))).status).toBe(204);
          held.release();
          // Its answer read (some of) the old data; what matters is what the caches keep of it.
          expect((await racing).status).toBe(200);
          const after = await fed.api.get(path);
          expect(JSON.stringify(after.body)).toContain(label);
          expect(after.body).toEqual((await plain.get(path)).body);
        } finally {
          await fed.close();
          await plain.close();
        }
      });
    });

    test('a patch that a second change makes stale while it runs: a request after that change waits for it and patches again, and sees both changes', async () => {
      const path = '/concepts?sort=label&page[size]=50';
      const { store: gate, hold } = gated(store);
      const fed = await fedServer(mapping, gate);
      const plain = await plainServer(mapping, store);
      const relabel = async (label: string) => {
        expect(await sparqlUpdate(endpointUrl, relabelUpdate(graph, label))).toBeLessThan(300);
        expect((await postDelta(fed.deltaUrl, labelDelta(graph))).status).toBe(204);
      };
      const get = (url: string) => fetch(url + path, { headers: { accept: 'application/vnd.api+json' } });
      try {
        expect((await get(fed.api.baseUrl)).status).toBe(200);
        await fed.api.listsRead(); // the list is kept
        const suffix = Math.random().toString(36).slice(2);
        await relabel(`AA first ${suffix}`);
        const held = hold();
        const patching = get(fed.api.baseUrl); // patches the kept list: its query held once it has read
        await held.reached;
        await relabel(`AB second ${suffix}`);
        const later = get(fed.api.baseUrl);
        // It waits for the running patch (it does not read its page from the store meanwhile).
        const first = await Promise.race([later.then(() => 'answered'), sleep(300).then(() => 'waiting')]);
        held.release();
        expect(first).toBe('waiting');
        expect((await patching).status).toBe(200);
        const answer = await later;
        expect(answer.status).toBe(200);
        expect(answer.headers.get('server-timing')).toMatch(/path;desc="window-cache\+patch/);
        const body = await answer.json();
        expect(JSON.stringify(body)).toContain(`AB second ${suffix}`);
        expect(body).toEqual((await plain.get(path)).body);
      } finally {
        await fed.close();
        await plain.close();
      }
    });
  },
  ENDPOINT_STORE_NAMES,
);
