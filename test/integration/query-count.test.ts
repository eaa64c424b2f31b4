import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import type { Mapping } from '../../src/mapping/model.js';
import { type ApiClient, queryCount } from '../support/api-client.js';
import { describeStores } from '../support/each-store.js';
import { type GeneratedApi, openGeneratedApi } from '../support/generated-api.js';
import { fetchGoesWithPage, listAfterKeyedWindow, pageGoesWithHistogram } from '../support/list-cost.js';
import type { Oracle } from '../support/oracle.js';

/**
 * The number of SPARQL queries does not grow with the number of resources: the same request
 * shapes cost the same on a generated dataset of 300 activities as the README's table says.
 */
const ACTIVITIES = 300;
const _endpoint = inject('endpoint');

describeStores(`queries per request on ${ACTIVITIES} generated activities`, (storeName) => {
  let generated: GeneratedApi | undefined;
  let api: ApiClient;
  let mapping: Mapping;
  let oracle: Oracle;
  beforeAll(async () => {
    generated = await openGeneratedApi(storeName, ACTIVITIES, 7);
    ({ api, mapping, oracle } = generated);
  });
  afterAll(async () => {
    await generated?.close();
  });

  it('a full page of the largest size, sorted through a to-many relationship, takes 3 queries (list, count, fetch)', async () => {
    const response = await api.get(
      '/trade-activities?sort=-concerns.label,origin.country.name&page[size]=100&page[number]=1',
    );
    expect(response.body.data).toHaveLength(100);
    expect(response.body.meta.count).toBe(ACTIVITIES);
    expect(queryCount(response)).toBe(3);
  });

  it('each other shape costs what the README says', async () => {
    const [first] = (await api.get('/trade-activities?sort=id')).body.data;
    const fetchWithPage = fetchGoesWithPage(mapping, oracle, 'trade-activities') ? 1 : 0;
    // Each request below is sent twice and counted the second time, its list then read before:
    // the page comes with the histogram query when its values cannot tie.
    const placed = pageGoesWithHistogram(mapping, oracle, 'trade-activities') ? 1 : 0;
    // A key of several values: the keyed window, then the list query if that window is short
    // (few concepts have narrower concepts), count, fetch.
    const keyed = (type: string, sort: string) =>
      3 + (listAfterKeyedWindow(mapping, oracle, type, sort, { offset: 0, limit: 20 }) ? 1 : 0);
    const costs: Array<[string, number]> = [
      [`/trade-activities/${first.id}`, 1],
      [`/trade-activities/${first.id}/concerns?sort=label`, 2], // not a full page: it gives the count
      [`/trade-activities/${first.id}/origin`, 1], // agents have no attributes: nothing to fetch
      [`/trade-activities/${first.id}/amount`, 2],
      [`/trade-activities/${first.id}/links/concerns`, 1],
      [`/trade-activities/${first.id}/links/concerns?page[size]=1`, 2], // a full page: then the count
      [`/trade-activities/${first.id}/links/origin`, 1],
      ['/concepts?sort=-narrower-concepts.label', keyed('concepts', '-narrower-concepts.label')],
      ['/trade-activities?sort=concerns.label', keyed('trade-activities', 'concerns.label')],
      // list, count, fetch (unless the list query brings the values; the list itself unless the
      // page comes with the histogram), and one query per include level for the whole page
      ['/trade-activities?include=concerns.broader-concepts&page[size]=100', 5 - fetchWithPage - placed],
      [
        '/trade-activities?include=concerns.broader-concepts.narrower-concepts,origin.country,destination,amount&page[size]=100',
        6 - fetchWithPage - placed,
      ],
      [`/trade-activities/${first.id}?include=concerns.broader-concepts`, 3],
      // no attribute in the fieldset: nothing to fetch
      ['/trade-activities?fields[trade-activities]=concerns&page[size]=100', 2 - placed],
      [
        '/trade-activities?filter[concerns.label][contains]=e&filter[financial-year][gte]=2000-01-01Z&filter[destination][exists]=true&page[size]=100',
        3 - fetchWithPage - placed,
      ],
      [`/trade-activities/${first.id}/concerns?filter[notation][ne]=x&sort=-label`, 2],
    ];
    for (const [path, queries] of costs) {
      await api.get(path);
      const response = await api.get(path);
      expect(response.status, path).toBe(200);
      expect(queryCount(response), path).toBe(queries);
    }
  });
});
