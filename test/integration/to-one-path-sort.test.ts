import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadMapping } from '../../src/mapping/load-mapping.js';
import { resolveSortField } from '../../src/mapping/resolve-path.js';
import { describeStores, SAMPLE_MAPPING } from '../support/each-store.js';
import { type GeneratedApi, openGeneratedApi } from '../support/generated-api.js';
import { nonEmpty } from '../support/non-empty.js';
import { sortablePaths } from '../support/sort-cases.js';

/**
 * Sorts through to-one relationships (`amount.value`, `origin.country.iso-code`) answer within
 * the request's deadline at a size where the list's whole order is read (issue 27): on the
 * embedded store, every member once joined every target of the hop's type (the target's class
 * triple came first in the key's OPTIONAL), and `sort=amount.value` answered 504 after 10 s at
 * 3,000 activities. Every such path of the mapping, both directions, first and a deep page, each
 * equal to the oracle's order.
 */
const ACTIVITIES = 3_000;
const PAGE = 20;
const mapping = await loadMapping(SAMPLE_MAPPING);
const tradeActivities = mapping.types.get('trade-activities')!;
const TO_ONE_SORTS = nonEmpty(
  sortablePaths(mapping, tradeActivities)
    .filter((field) => {
      const key = resolveSortField(mapping, tradeActivities, field);
      return typeof key !== 'string' && key.path.hops.length > 0 && key.path.hops.every((h) => h.cardinality === 'one');
    })
    .flatMap((field) => [field, `-${field}`]),
  'the sorts through to-one relationships',
);

describeStores(`sorts through to-one relationships on ${ACTIVITIES} generated activities`, (storeName) => {
  let generated: GeneratedApi | undefined;
  beforeAll(async () => {
    generated = await openGeneratedApi(storeName, ACTIVITIES, 27);
  });
  afterAll(async () => {
    await generated?.close();
  });

  it.each(TO_ONE_SORTS)(
    'GET /trade-activities?sort=%s: the first and a deep page, in the data’s order',
    async (sort) => {
      const { api, oracle } = generated!;
      const order = oracle.order('trade-activities', oracle.members('trade-activities'), sort);
      for (const number of [0, 100]) {
        const response = await api.get(`/trade-activities?sort=${sort}&page[number]=${number}`);
        expect(response.status, `page ${number}`).toBe(200);
        expect(
          response.body.data.map((r: { id: string }) => r.id),
          `page ${number}`,
        ).toEqual(order.slice(number * PAGE, (number + 1) * PAGE));
      }
    },
  );
});
