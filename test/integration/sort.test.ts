import { expect, it } from 'vitest';
import { loadMapping } from '../../src/mapping/load-mapping.js';
import { queryCount } from '../support/api-client.js';
import { describeEachStore, SAMPLE_MAPPING } from '../support/each-store.js';
import { SAMPLE_DATA } from '../support/global-setup.js';
import { listAfterKeyedWindow } from '../support/list-cost.js';
import { nonEmpty } from '../support/non-empty.js';
import { Oracle } from '../support/oracle.js';
import { MULTI_FIELD_CASES, singleFieldCases } from '../support/sort-cases.js';

const mapping = await loadMapping(SAMPLE_MAPPING);
const oracle = Oracle.fromFile(SAMPLE_DATA, mapping);

const SINGLE_FIELD_CASES = nonEmpty(singleFieldCases(mapping), 'the single-field sort cases');

describeEachStore('sorting collections (spec: sort)', (h) => {
  it.each([...SINGLE_FIELD_CASES, ...MULTI_FIELD_CASES])(
    'GET /$type?sort=$sort orders as the data says',
    async ({ type, sort }) => {
      const response = await h().api.get(`/${type}?sort=${encodeURIComponent(sort)}`);
      expect(response.status).toBe(200);
      expect(response.body.data.map((r: { id: string }) => r.id)).toEqual(
        oracle.order(type, nonEmpty(oracle.members(type), type), sort),
      );
      // keyed window (if short, then the list), count, fetch
      const short = listAfterKeyedWindow(mapping, oracle, type, sort, { offset: 0, limit: 20 });
      expect(queryCount(response)).toBeLessThanOrEqual(short ? 4 : 3);
    },
  );

  it.each(['label', '-label', 'notation', '-broader-concepts.label', 'id', '-id'])(
    'a to-many related collection sorts too: concerns?sort=%s',
    async (sort) => {
      for (const parent of nonEmpty(oracle.members('trade-activities'), 'trade-activities')) {
        const related = oracle.related('trade-activities', parent.iri, 'concerns');
        const response = await h().api.get(`/trade-activities/${parent.id}/concerns?sort=${sort}`);
        expect(
          response.body.data.map((r: { id: string }) => r.id),
          parent.id,
        ).toEqual(oracle.order('concepts', related, sort));
        const linkage = await h().api.get(`/trade-activities/${parent.id}/links/concerns?sort=${sort}`);
        expect(
          linkage.body.data.map((r: { id: string }) => r.id),
          parent.id,
        ).toEqual(oracle.order('concepts', related, sort));
      }
    },
  );

  it('without sort, a type sorts by its defaultSort, else by id', async () => {
    const trade = await h().api.get('/trade-activities');
    expect(trade.body.data.map((r: { id: string }) => r.id)).toEqual(
      oracle.order(
        'trade-activities',
        nonEmpty(oracle.members('trade-activities'), 'trade-activities'),
        '-financial-year',
      ),
    );
    const concepts = await h().api.get('/concepts');
    expect(concepts.body.data.map((r: { id: string }) => r.id)).toEqual(
      oracle.order('concepts', nonEmpty(oracle.members('concepts'), 'concepts'), 'id'),
    );
  });

  it('the sample really exercises the rules: ties, missing keys and multi-valued keys change the order', () => {
    const members = oracle.members('trade-activities');
    // These guard the test data: if they fail, the sort tests above prove less than they claim.
    expect(oracle.order('trade-activities', members, 'financial-year')).not.toEqual(
      oracle.order('trade-activities', members, 'id'),
    );
    expect(oracle.order('trade-activities', members, 'financial-year').reverse()).not.toEqual(
      oracle.order('trade-activities', members, '-financial-year'),
    );
    expect(oracle.order('trade-activities', members, 'concerns.label').reverse()).not.toEqual(
      oracle.order('trade-activities', members, '-concerns.label'),
    );
  });
});
