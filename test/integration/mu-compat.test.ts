import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { main } from '../../src/cli/main.js';
import { loadMapping } from '../../src/mapping/load-mapping.js';
import type { Mapping } from '../../src/mapping/model.js';
import type { Store } from '../../src/store/store.js';
import { ApiClient, type ApiResponse } from '../support/api-client.js';
import { captureIo } from '../support/cli-io.js';
import {
  describeStores,
  openSampleStore,
  openStoreWith,
  SAMPLE_MAPPING,
  type StoreName,
} from '../support/each-store.js';
import { SAMPLE_DATA } from '../support/global-setup.js';
import { nonEmpty } from '../support/non-empty.js';
import { codePointCompare, Oracle, type Resource } from '../support/oracle.js';
import { filterResources } from '../support/oracle-filter.js';

/**
 * mu-cl-resources compatibility over real HTTP, on every store: (1) the sample dataset served
 * with `filterSyntax: mu-cl-resources`, each mu filter answering what its native twin answers and
 * what the oracle computes from the Turtle file; (2) a mu domain.json (test/fixtures/mu) run
 * through `import-mu`, its mapping served over the matching data: fetch, include, relationships,
 * and mu's filters, README examples included.
 */
const MU = 'mu-cl-resources' as const;
const MU_DOMAIN = 'test/fixtures/mu/domain.json';
const MU_DATA = 'test/fixtures/mu/data.ttl';

/** A query string written decoded (`filter[:exact:name]=Alice Martin`), with each value percent-encoded. */
const encode = (query: string) =>
  query
    .split('&')
    .map((pair) => pair.replace(/=(.*)$/s, (_, value: string) => `=${encodeURIComponent(value)}`))
    .join('&');
const ids = (response: ApiResponse): string[] => {
  expect(response.status, JSON.stringify(response.body?.errors)).toBe(200);
  return response.body.data.map((r: { id: string }) => r.id);
};

/** Serves `mapping` over the store of each kind, for one suite per store; without Virtuoso, as the other suites do. */
function describeMuStores(
  title: string,
  open: (store: StoreName) => Promise<{ store: Store; mapping: Mapping }>,
  body: (api: () => ApiClient, storeName: StoreName) => void,
): void {
  describeStores(title, (storeName) => {
    let store: Store | undefined;
    let api: ApiClient | undefined;
    beforeAll(async () => {
      const opened = await open(storeName);
      store = opened.store;
      // The same data twice: with mu's filter syntax (the default dataset), and without (/api/plain).
      api = await ApiClient.listen(
        createApp({
          datasets: [
            { name: 'mu', mapping: opened.mapping, store, linkBase: '', options: { filterSyntax: MU } },
            { name: 'plain', mapping: opened.mapping, store, linkBase: '/api/plain' },
          ],
          defaultDataset: 'mu',
        }),
      );
    });
    afterAll(async () => {
      await api?.close();
      await store?.close();
    });
    body(() => api!, storeName);
  });
}

// --- 1. The sample dataset with mu's filter syntax ------------------------------------------

const sampleMapping = await loadMapping(SAMPLE_MAPPING);
const sample = Oracle.fromFile(SAMPLE_DATA, sampleMapping);

/** [type, mu query, the native query it means] over the sample; each keeps some but not all. */
const SAMPLE_CASES: [string, string, string][] = [
  ['aid-activities', 'filter[title]=GROVE', 'filter[title][contains]=GROVE'],
  ['aid-activities', 'filter[:exact:title]=School meals programme', 'filter[title][eq]=School meals programme'],
  ['aid-activities', 'filter[:not:title]=School meals programme', 'filter[title][ne]=School meals programme'],
  ['aid-activities', 'filter[budget]=98000', 'filter[budget][eq]=98000'],
  ['aid-activities', 'filter[:gt:budget]=200000', 'filter[budget][gt]=200000'],
  ['aid-activities', 'filter[:lte:budget]=250000', 'filter[budget][lte]=250000'],
  ['aid-activities', 'filter[completed]=true', 'filter[completed][eq]=true'],
  ['aid-activities', 'filter[:has-no:completed]=t', 'filter[completed][exists]=false'],
  ['aid-activities', 'filter[:has:public-project]=true', 'filter[public-project][exists]=true'],
  ['aid-activities', 'filter[:has-no:public-project]=yes', 'filter[public-project][exists]=false'],
  ['aid-activities', 'filter[public-project][title]=WATER', 'filter[public-project.title][contains]=WATER'],
  ['aid-activities', 'filter[keywords]=agri', 'filter[keywords][contains]=agri'],
  ['aid-activities', 'filter[:id:]=b4d1e7,0e93c5', 'filter[id]=b4d1e7,0e93c5'],
  ['trade-activities', 'filter[concerns][:id:]=0101,0a01', 'filter[concerns]=0101,0a01'],
  ['trade-activities', 'filter[concerns][label]=meat', 'filter[concerns.label][contains]=meat'],
  ['trade-activities', 'filter[origin][country][:exact:iso-code]=GR', 'filter[origin.country.iso-code][eq]=GR'],
  ['trade-activities', 'filter[origin][country][name]=GREE', 'filter[origin.country.name][contains]=GREE'],
  ['trade-activities', 'filter[:gte:financial-year]=2016-01-01Z', 'filter[financial-year][gte]=2016-01-01Z'],
  ['trade-activities', 'filter[:has-no:destination]=t', 'filter[destination][exists]=false'],
  ['concepts', 'filter[broader-concepts][:id:]=01', 'filter[broader-concepts]=01'],
  ['concepts', 'filter[narrower-concepts][notation]=0a0', 'filter[narrower-concepts.notation][contains]=0a0'],
];

const sortOf = (oracle: Oracle, type: string) =>
  oracle
    .type(type)
    .defaultSort.map((key) => `${key.descending ? '-' : ''}${key.field}`)
    .join(',') || 'id';
const expected = (oracle: Oracle, type: string, nativeQuery: string, from: Resource[] = oracle.members(type)) =>
  oracle.order(type, filterResources(oracle, type, from, encode(nativeQuery)), sortOf(oracle, type));

describeMuStores(
  'mu-cl-resources filters on the sample',
  async (name) => ({ store: await openSampleStore(name), mapping: sampleMapping }),
  (api) => {
    it.each(SAMPLE_CASES)('%s ?%s answers as ?%s', async (type, mu, native) => {
      const want = expected(sample, type, native);
      expect(want.length, 'the case keeps something').toBeGreaterThan(0);
      expect(want.length, 'the case leaves something out').toBeLessThan(sample.members(type).length);
      const query = `page[size]=100&${encode(mu)}`;
      expect(ids(await api().get(`/${type}?${query}`))).toEqual(want);
      // The native twin, on the dataset without the switch: what the native syntax means.
      expect(ids(await api().get(`/api/plain/${type}?page[size]=100&${encode(native)}`))).toEqual(want);
    });

    it.each([
      'filter[financial-year][gte]=2016-01-01Z&filter[concerns.notation]=0101,0a01',
      'filter[concerns][ne]=0201&filter[destination][exists]=true',
      'filter[origin.country]=4752',
    ])('keeps the native ?%s where mu has no such form', async (native) => {
      const want = expected(sample, 'trade-activities', native);
      expect(want.length, 'the case keeps something').toBeGreaterThan(0);
      expect(want.length, 'the case leaves something out').toBeLessThan(sample.members('trade-activities').length);
      expect(ids(await api().get(`/trade-activities?page[size]=100&${encode(native)}`))).toEqual(want);
    });

    it('filters a to-many related URL the same way', async () => {
      const parent = sample.member('trade-activities', '7c1e0a42')!;
      const related = nonEmpty(sample.related('trade-activities', parent.iri, 'concerns'));
      const want = expected(sample, 'concepts', 'filter[label][contains]=live', related);
      const response = await api().get(`/trade-activities/7c1e0a42/concerns?${encode('filter[label]=LIVE')}`);
      expect(ids(response)).toEqual(want);
      expect(want.length).toBeLessThan(related.length);
    });

    it('keeps mu filters in page links, so paging walks the filtered list', async () => {
      const want = nonEmpty(expected(sample, 'trade-activities', 'filter[concerns.label][contains]=meat'));
      expect(want.length).toBeGreaterThan(1);
      const seen: string[] = [];
      let next: string | undefined = `/trade-activities?page[size]=1&${encode('filter[concerns][label]=meat')}`;
      while (next) {
        const response = await api().get(next);
        seen.push(...ids(response));
        expect(response.body.meta.count).toBe(want.length);
        next = response.body.links.next;
      }
      expect(seen).toEqual(want);
    });

    it.each([
      ['aid-activities', 'filter[:or:][title]=a'],
      ['aid-activities', 'filter[:uri:]=http://linkedeconomy.org/resource/AidActivity/1'],
      ['trade-activities', 'filter[concerns]=meat'],
      ['aid-activities', 'filter[:like:title]=x'],
    ])('%s ?%s: a 400 naming the mu parameter', async (type, query) => {
      const response = await api().get(`/${type}?${encode(query)}`);
      expect(response.status).toBe(400);
      const [error] = response.body.errors;
      expect(error.source).toEqual({ parameter: query.replace(/=.*$/, '') });
      expect(error.detail).toContain('mu-cl-resources filter');
    });

    it('leaves a dataset without the switch as it was', async () => {
      const colon = await api().get(`/api/plain/aid-activities?${encode('filter[:exact:title]=Ferry port dredging')}`);
      expect(colon.status).toBe(400);
      expect(colon.body.errors[0].source).toEqual({ parameter: 'filter[:exact:title]' });
      // filter[title]=… is an equality there, a case-insensitive contains here.
      const plain = await api().get(`/api/plain/aid-activities?${encode('filter[title]=GROVE')}`);
      expect(ids(plain)).toEqual(expected(sample, 'aid-activities', 'filter[title][eq]=GROVE'));
      expect(ids(plain)).toEqual([]);
    });
  },
);

// --- 2. A mu domain.json, imported and served -----------------------------------------------

const workDir = await mkdtemp(join(tmpdir(), 'mu-compat-'));
afterAll(() => rm(workDir, { recursive: true, force: true }));
const imported = join(workDir, 'mapping.yaml');
const io = captureIo();
const exitCode = await main(['import-mu', MU_DOMAIN, '--out', imported], io);
const muMapping = await loadMapping(imported);
const mu = Oracle.fromFile(MU_DATA, muMapping);
const uuid = (type: string, name: string, predicate: string) =>
  nonEmpty(
    mu.members(type).filter((m) => mu.objects(m.iri, predicate).some((t) => t.value === name)),
    `${type} ${name}`,
  )[0]!.id;
const ALICE = uuid('people', 'Alice Martin', 'http://xmlns.com/foaf/0.1/name');
const BOB = uuid('people', 'Bob Martinez', 'http://xmlns.com/foaf/0.1/name');

/** [type, mu query, the native query it means] over the imported domain. */
const DOMAIN_CASES: [string, string, string][] = [
  ['people', 'filter[name]=martin', 'filter[name][contains]=martin'],
  ['people', 'filter[:exact:name]=Alice Martin', 'filter[name][eq]=Alice Martin'],
  ['people', 'filter[age]=34', 'filter[age][eq]=34'],
  ['people', 'filter[:gt:age]=40', 'filter[age][gt]=40'],
  ['people', 'filter[:lt:birth-date]=1980-01-01', 'filter[birth-date][lt]=1980-01-01'],
  ['people', 'filter[:has:birth-date]=t', 'filter[birth-date][exists]=true'],
  ['people', 'filter[:has-no:mentor]=t', 'filter[mentor][exists]=false'],
  ['people', 'filter[nicknames]=BOB', 'filter[nicknames][contains]=BOB'],
  ['people', 'filter[accounts][:exact:name]=Dropbox', 'filter[accounts.name][eq]=Dropbox'],
  [
    'people',
    'filter[accounts][:exact:name]=Dropbox&filter[:gt:age]=30',
    'filter[accounts.name]=Dropbox&filter[age][gt]=30',
  ],
  ['people', `filter[mentor][:id:]=${ALICE}`, `filter[mentor]=${ALICE}`],
  ['people', 'filter[mentor][mentor][name]=alice', 'filter[mentor.mentor.name][contains]=alice'],
  ['people', 'filter[:has:mentees]=true', 'filter[mentees][exists]=true'],
  ['accounts', 'filter[owner][name]=martin', 'filter[owner.name][contains]=martin'],
  ['accounts', 'filter[verified]=true', 'filter[verified][eq]=true'],
  ['accounts', 'filter[:has-no:owner]=yes', 'filter[owner][exists]=false'],
  ['books', `filter[authors][:id:]=${ALICE},${BOB}`, `filter[authors]=${ALICE},${BOB}`],
  ['books', 'filter[:lt:price]=10', 'filter[price][lt]=10'],
  ['books', 'filter[title]=stars', 'filter[title][contains]=stars'],
  ['books', 'filter[library][name]=central', 'filter[library.name][contains]=central'],
  ['books', 'filter=JARDIN', 'filter=JARDIN'],
  ['books', 'filter[:has-no:authors]=t', 'filter[authors][exists]=false'],
  ['libraries', 'filter[holdings][authors][name]=dubois', 'filter[holdings.authors.name][contains]=dubois'],
];

describeMuStores(
  'an imported mu-cl-resources domain',
  async (name) => ({ store: await openStoreWith(name, [MU_DATA]), mapping: muMapping }),
  (api, _storeName) => {
    it('was imported with exit 0', () => {
      expect(exitCode, io.err.join('\n')).toBe(0);
    });

    it.each(['people', 'accounts', 'books', 'libraries'])('lists every member of %s, by id', async (type) => {
      const members = nonEmpty(mu.members(type));
      expect(ids(await api().get(`/${type}?page[size]=100`))).toEqual(mu.order(type, members, 'id'));
    });

    it('fetches a person with every attribute as the data has it', async () => {
      const alice = mu.member('people', ALICE)!;
      const response = await api().get(`/people/${ALICE}`);
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual(mu.resourceObject('people', alice));
      expect(response.body.data.attributes).toMatchObject({ age: 34, nicknames: ['Al', 'Ally'] });
    });

    it('shows language strings as objects keyed by language tag', async () => {
      const garden = nonEmpty(mu.members('books').filter((b) => b.iri.endsWith('/garden')))[0]!;
      const response = await api().get(`/books/${garden.id}`);
      expect(response.status).toBe(200);
      const byTag = (predicate: string) => {
        const out: Record<string, string[]> = {};
        for (const term of mu.objects(garden.iri, predicate))
          if (term.termType === 'Literal') (out[term.language || 'und'] ??= []).push(term.value);
        for (const values of Object.values(out)) values.sort(codePointCompare);
        return out;
      };
      const titles = byTag('http://purl.org/dc/terms/title');
      const { title, keywords, price, subjects } = response.body.data.attributes;
      expect(title).toEqual(Object.fromEntries(Object.entries(titles).map(([tag, values]) => [tag, values[0]])));
      expect(keywords).toEqual(byTag('http://schema.org/keywords'));
      expect(Object.keys(keywords).length).toBeGreaterThan(1);
      expect(price).toBe(12.5);
      expect(subjects).toEqual(mu.attributes('books', garden.iri).subjects);
    });

    // Three attributes to include: Virtuoso 7.2 got them wrong in an OPTIONAL { {…} UNION {…} UNION {…} }
    // (every account the same `created`); fetch-query.ts orNone avoids that form.
    it('includes related resources, self-references too', async () => {
      const people = mu.order('people', mu.members('people'), 'id');
      const response = await api().get('/people?page[size]=100&include=accounts,mentor.mentor');
      expect(response.status).toBe(200);
      const compound = mu.compound(
        'people',
        people.map((id) => mu.member('people', id)!),
        'accounts,mentor.mentor',
      );
      expect(response.body.data).toEqual(compound.data);
      const included = [...response.body.included].sort(
        (a: { type: string; id: string }, b: { type: string; id: string }) =>
          codePointCompare(a.type, b.type) || codePointCompare(a.id, b.id),
      );
      expect(included).toEqual(nonEmpty(compound.included));
    });

    it('answers relationship linkage at /links/ and /relationships/ alike', async () => {
      const alice = mu.member('people', ALICE)!;
      const accounts = nonEmpty(mu.related('people', alice.iri, 'accounts'));
      for (const segment of ['links', 'relationships']) {
        const response = await api().get(`/people/${ALICE}/${segment}/accounts`);
        expect(response.status).toBe(200);
        expect(response.body.data).toEqual(accounts.map((a) => ({ type: 'accounts', id: a.id })));
      }
      const [account] = accounts;
      const owner = await api().get(`/accounts/${account!.id}/links/owner`);
      expect(owner.body.data).toEqual({ type: 'people', id: ALICE });
    });

    it.each(DOMAIN_CASES)('%s ?%s answers as ?%s', async (type, muQuery, native) => {
      const want = expected(mu, type, native);
      expect(want.length, 'the case keeps something').toBeGreaterThan(0);
      expect(want.length, 'the case leaves something out').toBeLessThan(mu.members(type).length);
      expect(ids(await api().get(`/${type}?page[size]=100&${encode(muQuery)}`))).toEqual(want);
      // The native twin, on the dataset without the switch: what the native syntax means.
      expect(ids(await api().get(`/api/plain/${type}?page[size]=100&${encode(native)}`))).toEqual(want);
    });
  },
);
