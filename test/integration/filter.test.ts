import { describe, expect, it } from 'vitest';
import { loadMapping } from '../../src/mapping/load-mapping.js';
import { type ApiClient, queryCount } from '../support/api-client.js';
import { describeEachStore, SAMPLE_MAPPING } from '../support/each-store.js';
import { SAMPLE_DATA } from '../support/global-setup.js';
import { fetchGoesWithPage, histogramKey } from '../support/list-cost.js';
import { nonEmpty } from '../support/non-empty.js';
import { Oracle, type Resource } from '../support/oracle.js';
import { filterResources } from '../support/oracle-filter.js';

const mapping = await loadMapping(SAMPLE_MAPPING);
const oracle = Oracle.fromFile(SAMPLE_DATA, mapping);

/** A query string written decoded (`filter[label]=Olive oil`), with each value percent-encoded. */
const encode = (query: string) =>
  query
    .split('&')
    .map((pair) => pair.replace(/=(.*)$/s, (_, value: string) => `=${encodeURIComponent(value)}`))
    .join('&');
const ids = (body: any): string[] => body.data.map((r: { id: string }) => r.id);
const sortOf = (type: string, query = '') =>
  new URLSearchParams(query).get('sort') ??
  (oracle
    .type(type)
    .defaultSort.map((key) => `${key.descending ? '-' : ''}${key.field}`)
    .join(',') ||
    'id');
/** What a collection of `type` should list for `query`, in order. */
const expected = (type: string, query: string, from: Resource[] = oracle.members(type)) =>
  oracle.order(type, filterResources(oracle, type, from, encode(query)), sortOf(type, query));

/**
 * Every operator on every path kind of the sample: attributes of each datatype (date, decimal,
 * integer, boolean, text, language-tagged, many), id, relationships, dot paths, exists, search.
 * `keeps` says how much of the collection the filter should keep, so that each case proves something.
 */
const CASES: { type: string; query: string; keeps?: 'none' | 'all' }[] = [
  // xsd:date
  { type: 'trade-activities', query: 'filter[financial-year]=2016-01-01Z' },
  { type: 'trade-activities', query: 'filter[financial-year]=2016-01-01Z,2018-01-01Z' },
  { type: 'trade-activities', query: 'filter[financial-year][eq]=2012-01-01Z' },
  { type: 'trade-activities', query: 'filter[financial-year][ne]=2016-01-01Z' },
  { type: 'trade-activities', query: 'filter[financial-year][lt]=2014-01-01Z' },
  { type: 'trade-activities', query: 'filter[financial-year][lte]=2014-01-01Z' },
  { type: 'trade-activities', query: 'filter[financial-year][gt]=2016-01-01Z' },
  { type: 'trade-activities', query: 'filter[financial-year][gte]=2016-01-01Z' },
  { type: 'trade-activities', query: 'filter[financial-year][exists]=false' },
  { type: 'trade-activities', query: 'filter[financial-year][exists]=true' },
  { type: 'trade-activities', query: 'filter[financial-year]=1999-01-01Z', keeps: 'none' },
  // id
  { type: 'trade-activities', query: 'filter[id]=7c1e0a42,86b4c2aa' },
  { type: 'trade-activities', query: 'filter[id][ne]=7c1e0a42' },
  { type: 'trade-activities', query: 'filter[id]=NOT-AN-ID', keeps: 'none' },
  { type: 'trade-activities', query: 'filter[id][ne]=NOT-AN-ID', keeps: 'all' },
  { type: 'concepts', query: 'filter[id]=0101,0a,0A01' },
  { type: 'countries', query: 'filter[id]=4752,4445' },
  { type: 'group-national-agents', query: 'filter[id]=6a1f03' },
  // relationships: the related resources' ids (members only), or whether there are any
  { type: 'trade-activities', query: 'filter[concerns]=0101' },
  { type: 'trade-activities', query: 'filter[concerns]=0201,0a01' },
  { type: 'trade-activities', query: 'filter[concerns][ne]=0201' },
  { type: 'trade-activities', query: 'filter[concerns][exists]=false' },
  { type: 'trade-activities', query: 'filter[concerns][exists]=true' },
  { type: 'trade-activities', query: 'filter[concerns]=ee', keeps: 'none' },
  { type: 'trade-activities', query: 'filter[destination][exists]=false' },
  { type: 'trade-activities', query: 'filter[destination]=6a1f03' },
  { type: 'trade-activities', query: 'filter[destination][ne]=6a1f03' },
  { type: 'trade-activities', query: 'filter[origin.country]=4752' },
  { type: 'trade-activities', query: 'filter[origin.country][exists]=false' },
  { type: 'concepts', query: 'filter[broader-concepts]=01' },
  { type: 'concepts', query: 'filter[broader-concepts][ne]=01' },
  { type: 'concepts', query: 'filter[narrower-concepts][exists]=false' },
  { type: 'concepts', query: 'filter[top-concept-of][exists]=true' },
  { type: 'concepts', query: 'filter[broader-concepts.broader-concepts][exists]=true' },
  { type: 'trade-activities', query: 'filter[concerns.broader-concepts.broader-concepts]=01' },
  { type: 'group-national-agents', query: 'filter[country][exists]=false' },
  { type: 'group-national-agents', query: 'filter[country]=4752,4652' },
  { type: 'aid-activities', query: 'filter[public-project][exists]=false' },
  // dot paths to attributes
  { type: 'trade-activities', query: 'filter[concerns.notation]=0101' },
  { type: 'trade-activities', query: 'filter[concerns.notation][starts-with]=0a' },
  { type: 'trade-activities', query: 'filter[concerns.label][contains]=LIVE' },
  { type: 'trade-activities', query: 'filter[concerns.label]=Olive oil' },
  { type: 'trade-activities', query: 'filter[concerns.broader-concepts.label][starts-with]=live' },
  { type: 'trade-activities', query: 'filter[origin.country.name]=Greece' },
  { type: 'trade-activities', query: 'filter[origin.country.name][ne]=Greece' },
  { type: 'trade-activities', query: 'filter[destination.country.iso-code][lt]=FR' },
  { type: 'trade-activities', query: 'filter[amount.currency]=EUR', keeps: 'all' },
  { type: 'concepts', query: 'filter[concept-scheme.label]=Animal products' },
  { type: 'aid-activities', query: 'filter[public-project.title][contains]=CRETE' },
  // xsd:decimal (one value is an xsd:integer beyond 2^53; 20000.00 equals 20000)
  { type: 'trade-activities', query: 'filter[amount.value][gte]=1000' },
  { type: 'trade-activities', query: 'filter[amount.value][lt]=412.5' },
  { type: 'trade-activities', query: 'filter[amount.value][lte]=412.5' },
  { type: 'trade-activities', query: 'filter[amount.value]=20000' },
  { type: 'trade-activities', query: 'filter[amount.value]=1250.000,7.05' },
  { type: 'trade-activities', query: 'filter[amount.value][gt]=90071992547409930' },
  { type: 'trade-activities', query: 'filter[amount.value][gt]=90071992547409931', keeps: 'none' },
  { type: 'amounts', query: 'filter[value][lt]=1000' },
  { type: 'amounts', query: 'filter[currency][ne]=EUR', keeps: 'none' },
  // xsd:integer and xsd:boolean
  { type: 'aid-activities', query: 'filter[budget][gt]=100000' },
  { type: 'aid-activities', query: 'filter[budget]=250000' },
  { type: 'aid-activities', query: 'filter[budget][lte]=98000' },
  { type: 'aid-activities', query: 'filter[budget][ne]=98000' },
  { type: 'aid-activities', query: 'filter[completed]=true' },
  { type: 'aid-activities', query: 'filter[completed]=false' },
  { type: 'aid-activities', query: 'filter[completed]=0' },
  { type: 'aid-activities', query: 'filter[completed][ne]=true' },
  { type: 'aid-activities', query: 'filter[completed][exists]=false' },
  // text: plain, many-valued, language-tagged (every language), untagged, escaped commas, code point order
  { type: 'aid-activities', query: 'filter[keywords]=water' },
  { type: 'aid-activities', query: 'filter[keywords]=water,ports' },
  { type: 'aid-activities', query: 'filter[keywords][ne]=water' },
  { type: 'aid-activities', query: 'filter[keywords][contains]=port' },
  { type: 'aid-activities', query: 'filter[keywords][exists]=false' },
  { type: 'aid-activities', query: 'filter[description][contains]=fires' },
  { type: 'aid-activities', query: 'filter[description][exists]=false' },
  { type: 'concepts', query: 'filter[label]=Olive oil' },
  { type: 'concepts', query: 'filter[label]=Ζώα' },
  { type: 'concepts', query: 'filter[label]=Live bovine animals' },
  { type: 'concepts', query: String.raw`filter[label]=calves\, pure-bred` },
  { type: 'concepts', query: 'filter[label]=calves, pure-bred', keeps: 'none' },
  { type: 'concepts', query: 'filter[label]=olive oil', keeps: 'none' },
  { type: 'concepts', query: 'filter[label][ne]=Olive oil' },
  { type: 'concepts', query: 'filter[label][contains]=ÉCLAIR' },
  { type: 'concepts', query: 'filter[label][contains]=éclair' },
  { type: 'concepts', query: 'filter[label][starts-with]=live' },
  { type: 'concepts', query: 'filter[label][starts-with]=olive,pasta' },
  { type: 'concepts', query: 'filter[label][lt]=M' },
  { type: 'concepts', query: 'filter[label][gte]=É' },
  { type: 'concepts', query: 'filter[label][exists]=false' },
  { type: 'concepts', query: 'filter[notation][gte]=0b' },
  { type: 'concepts', query: 'filter[notation]=0101,02,XY' },
  { type: 'concepts', query: `filter[label][contains]="}>\\'\n`, keeps: 'none' },
  { type: 'countries', query: 'filter[name]=España' },
  { type: 'countries', query: 'filter[name][starts-with]=g' },
  { type: 'countries', query: 'filter[iso-code][ne]=GR' },
  // filter=text: the type's text attributes, case-insensitively
  { type: 'concepts', query: 'filter=oil' },
  { type: 'concepts', query: 'filter=ΖΏΑ' },
  { type: 'concepts', query: 'filter=0A0' },
  { type: 'countries', query: 'filter=an' },
  { type: 'aid-activities', query: 'filter=WATER' },
  { type: 'aid-activities', query: 'filter=ferr' },
  { type: 'aid-activities', query: 'filter=Irrigation, network', keeps: 'none' },
  // several filters: AND
  { type: 'trade-activities', query: 'filter[financial-year][gte]=2014-01-01Z&filter[concerns.label][contains]=oil' },
  {
    type: 'trade-activities',
    query:
      'filter[financial-year][gte]=2014-01-01Z&filter[financial-year][lt]=2017-01-01Z&filter[origin.country][ne]=4752',
  },
  { type: 'aid-activities', query: 'filter=re&filter[completed][ne]=false&filter[budget][lt]=2000000' },
  { type: 'concepts', query: 'filter[label]=Olive oil&filter[notation]=0101', keeps: 'none' },
];

describe('the filter cases prove something', () => {
  it.each(CASES)('$type?$query keeps $keeps', ({ type, query, keeps }) => {
    const members = nonEmpty(oracle.members(type), type);
    const kept = filterResources(oracle, type, members, encode(query)).length;
    if (keeps === 'none') expect(kept).toBe(0);
    else if (keeps === 'all') expect(kept).toBe(members.length);
    else expect(kept === 0 || kept === members.length, `${kept} of ${members.length}`).toBe(false);
  });
});

/** Follows `next` links from `start`; every page must validate and carry at most `size` resources. */
async function walk(api: ApiClient, start: string, size: number) {
  const pages: any[] = [];
  for (let url: string | null = start; url !== null; url = pages.at(-1).links.next) {
    const response = await api.get(url);
    expect(response.status, url).toBe(200);
    expect(response.body.data.length, url).toBeLessThanOrEqual(size);
    expect(queryCount(response), url).toBeLessThanOrEqual(3);
    pages.push(response.body);
    expect(pages.length, 'walk ends').toBeLessThan(20);
  }
  return pages;
}

const activities = nonEmpty(oracle.members('trade-activities'), 'trade-activities');

describeEachStore('filtering collections (filter)', (h) => {
  it.each(CASES)('GET /$type?$query lists what the data says', async ({ type, query }) => {
    const response = await h().api.get(`/${type}?${encode(query)}`);
    expect(response.status).toBe(200);
    const wanted = expected(type, query);
    expect(ids(response.body)).toEqual(wanted);
    expect(response.body.meta).toEqual({ count: wanted.length });
    const fetches = wanted.length > 0 && oracle.type(type).attributes.size > 0;
    // List and count (sent together), then fetch; an empty list sorted by a key of few values is
    // told empty by its count and histogram alone (docs/performance.md).
    // And a page read through that histogram, of values that can't tie, brings its values.
    const emptyCost = histogramKey(mapping, type) ? 1 : 2;
    const fetchCost = fetchGoesWithPage(mapping, oracle, type) ? 2 : 3;
    expect(queryCount(response)).toBe(fetches ? fetchCost : wanted.length > 0 ? 2 : emptyCost);
  });

  it.each([
    { type: 'trade-activities', query: 'sort=-amount.value&filter[financial-year][gte]=2014-01-01Z' },
    {
      type: 'trade-activities',
      query: 'sort=concerns.label,-id&filter[concerns][exists]=true&filter[destination.country.name][ne]=Germany',
    },
    { type: 'concepts', query: 'sort=-label&filter[label][contains]=e' },
    { type: 'concepts', query: 'filter[broader-concepts][exists]=true&sort=-broader-concepts.label,notation' },
    { type: 'aid-activities', query: 'sort=-keywords&filter[keywords][exists]=true' },
    { type: 'concepts', query: 'sort=-label&filter[id]=0101,0a,0a02,0a03' },
    { type: 'concepts', query: 'sort=label&filter[id][ne]=0101&filter[label][contains]=a' },
    { type: 'countries', query: 'sort=name&filter[id][ne]=4752' },
  ])('filters and sort together: /$type?$query', async ({ type, query }) => {
    const response = await h().api.get(`/${type}?${encode(query)}`);
    const wanted = expected(type, query);
    expect(wanted.length).toBeGreaterThan(1);
    expect(ids(response.body)).toEqual(wanted);
    expect(response.body.meta).toEqual({ count: wanted.length });
  });

  it.each(['', '/api/uncounted'])(
    'page[size]=2 walks the filtered list through next links (%s), each page counting the filtered total',
    async (prefix) => {
      const query = 'filter[financial-year][gte]=2014-01-01Z&filter[concerns][exists]=true&sort=financial-year';
      const wanted = expected('trade-activities', query);
      expect(wanted.length).toBeGreaterThan(4);
      expect(wanted.length).toBeLessThan(activities.length);
      const pages = await walk(h().api, `${prefix}/trade-activities?${encode(query)}&page[size]=2`, 2);
      expect(pages.flatMap(ids)).toEqual(wanted);
      for (const page of pages) {
        expect(page.meta).toEqual(prefix === '' ? { count: wanted.length } : undefined);
        for (const link of ['self', 'first', 'next', 'prev', 'last']) {
          if (page.links[link])
            expect(page.links[link], link).toContain(
              'filter%5Bfinancial-year%5D%5Bgte%5D=2014-01-01Z&filter%5Bconcerns%5D%5Bexists%5D=true',
            );
        }
      }
      expect(pages).toHaveLength(Math.ceil(wanted.length / 2));
      if (prefix === '')
        expect((await h().api.get(pages[0].links.last)).body.data.map((r: { id: string }) => r.id)).toEqual(
          ids(pages.at(-1)),
        );
    },
  );

  it.each([
    { type: 'trade-activities', relationship: 'concerns' },
    { type: 'concepts', relationship: 'narrower-concepts' },
    { type: 'concept-schemes', relationship: 'top-concepts' },
  ])(
    'filters every to-many $type/…/$relationship collection and its linkage, parent by parent',
    async ({ type, relationship }) => {
      const queries = [
        'filter[label][contains]=o',
        'filter[label][contains]=o&sort=-notation',
        'filter[broader-concepts]=01,0102,0b',
        'filter[broader-concepts][exists]=false',
        'filter[notation][ne]=0201',
      ];
      let kept = 0;
      for (const parent of nonEmpty(oracle.members(type), type)) {
        for (const query of queries) {
          const wanted = expected('concepts', query, oracle.related(type, parent.iri, relationship));
          kept += wanted.length;
          const related = await h().api.get(`/${type}/${parent.id}/${relationship}?${encode(query)}`);
          expect(ids(related.body), `${parent.id} ${query}`).toEqual(wanted);
          expect(related.body.meta, `${parent.id} ${query}`).toEqual({ count: wanted.length });
          const linkage = await h().api.get(`/${type}/${parent.id}/links/${relationship}?${encode(query)}`);
          expect(ids(linkage.body), `${parent.id} ${query}`).toEqual(wanted);
        }
      }
      expect(kept).toBeGreaterThan(0);
    },
  );

  it('an inverse related collection filters and pages too', async () => {
    const parent = oracle.member('concepts', '01')!;
    const query = 'filter[notation][starts-with]=010&sort=-notation';
    const wanted = expected('concepts', query, oracle.related('concepts', parent.iri, 'narrower-concepts'));
    expect(wanted.length).toBeGreaterThan(1);
    const pages = await walk(h().api, `/concepts/01/narrower-concepts?${encode(query)}&page[size]=1`, 1);
    expect(pages.flatMap(ids)).toEqual(wanted);
  });

  it('a related collection filtered to nothing is empty; a missing parent is still 404', async () => {
    const empty = await h().api.get('/trade-activities/7c1e0a42/concerns?filter[notation]=nope');
    expect(empty.status).toBe(200);
    expect(empty.body.data).toEqual([]);
    expect(empty.body.meta).toEqual({ count: 0 });
    expect((await h().api.get('/trade-activities/7c1e0a42/links/concerns?filter[notation]=nope')).body.data).toEqual(
      [],
    );
    expect((await h().api.get('/trade-activities/abcdef0123/concerns?filter[notation]=nope')).status).toBe(404);
    expect(
      (await h().api.get('/api/uncounted/trade-activities/abcdef0123/concerns?filter[notation]=nope')).status,
    ).toBe(404);
  });

  it.each([
    ['/concepts?filter[]=x', 'filter[]', /is not a filter/],
    [
      '/concepts?filter[label][foo]=x',
      'filter[label][foo]',
      /Unknown filter operator 'foo'.*operators: eq, ne, lt, lte, gt, gte, contains, starts-with, exists/,
    ],
    ['/concepts?filter[label][eq][x]=1', 'filter[label][eq][x]', /is not a filter/],
    [
      '/concepts?filter[nope]=x',
      'filter[nope]',
      /'concepts' has no attribute or relationship 'nope'.*Filterable: id, notation, label, broader-concepts/,
    ],
    [
      '/trade-activities?filter[financial-year]=2016',
      'filter[financial-year]',
      /'2016' is not a value of 'financial-year' \(xsd:date\); expected a date/,
    ],
    ['/trade-activities?filter[amount.value][gt]=lots', 'filter[amount.value][gt]', /expected a decimal number/],
    ['/aid-activities?filter[budget]=1.5', 'filter[budget]', /expected an integer/],
    ['/aid-activities?filter[completed]=yes', 'filter[completed]', /expected true or false/],
    [
      '/trade-activities?filter[financial-year][contains]=2016',
      'filter[financial-year][contains]',
      /it takes: eq, ne, lt, lte, gt, gte, exists/,
    ],
    ['/trade-activities?filter[concerns][lt]=01', 'filter[concerns][lt]', /it takes: eq, ne, exists/],
    ['/trade-activities?filter[id][exists]=true', 'filter[id][exists]', /it takes: eq, ne\./],
    ['/trade-activities?filter[destination][exists]=maybe', 'filter[destination][exists]', /takes true or false/],
    [
      '/trade-activities?filter[financial-year][lt]=2014-01-01Z,2016-01-01Z',
      'filter[financial-year][lt]',
      /takes one value/,
    ],
    ['/trade-activities?filter=x', 'filter', /no text attributes/],
    ['/concepts?filter=', 'filter', /search text is empty/],
    ['/concepts?filter=\u0000', 'filter', /U\+0000/],
    ['/concepts?filter[label]=a&filter[nope]=b', 'filter[nope]', /no attribute or relationship 'nope'/],
    [
      '/trade-activities/7c1e0a42/concerns?filter[financial-year]=2016-01-01Z',
      'filter[financial-year]',
      /'concepts' has no attribute or relationship 'financial-year'/,
    ],
    ['/trade-activities/7c1e0a42/links/concerns?filter[label][gt]=a,b', 'filter[label][gt]', /takes one value/],
    ['/trade-activities/7c1e0a42?filter[id]=7c1e0a42', 'filter[id]', /applies to collections/],
    ['/trade-activities/7c1e0a42/origin?filter[id]=6a1f03', 'filter[id]', /applies to collections/],
    ['/trade-activities/7c1e0a42/links/origin?filter[id]=6a1f03', 'filter[id]', /applies to collections/],
  ])('%s → 400 naming %s, and no SPARQL', async (url, parameter, detail) => {
    const [path, query] = url.split('?');
    const response = await h().api.get(`${path}?${encode(query!)}`);
    expect(response.status).toBe(400);
    expect(response.body.errors).toHaveLength(1);
    expect(response.body.errors[0]).toMatchObject({
      status: '400',
      title: 'Invalid query parameter',
      source: { parameter },
    });
    expect(response.body.errors[0].detail).toMatch(detail);
    expect(response.headers.get('server-timing'), 'no query may be sent').toBeNull();
  });
});
