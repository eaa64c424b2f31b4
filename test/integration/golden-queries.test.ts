import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { loadMapping } from '../../src/mapping/load-mapping.js';
import { createOxigraphStore } from '../../src/store/oxigraph-store.js';
import type { Store } from '../../src/store/store.js';
import { ApiClient } from '../support/api-client.js';
import { SAMPLE_DATA } from '../support/global-setup.js';
import { noteQueries } from '../support/query-log.js';

/**
 * queries/*.rq show the SPARQL each request shape sends, recorded on its way to the embedded store
 * with the sample loaded, so that a change to a query is reviewed as a diff.
 * `npm run queries:update` rewrites them (UPDATE_GOLDEN=1) and removes files no shape produces;
 * without it, a missing, different or extra file fails. One store, by nature: the query text is
 * the same for every store (the stores' answers are compared by same-answers.test.ts).
 */
const UPDATE = process.env.UPDATE_GOLDEN === '1';

/** A cursor page's URL comes from a first page: the `next` link, with a real cursor in it. */
const CURSOR_ACCEPT = {
  Accept: 'application/vnd.api+json; profile="https://jsonapi.org/profiles/ethanresnick/cursor-pagination"',
};
const nextOf = (first: string) => async () => (await api.get(first, CURSOR_ACCEPT)).body.links.next as string;

const SHAPES: readonly (readonly [name: string, request: string | (() => Promise<string>)])[] = [
  ['collection', '/trade-activities'],
  // The same list again: its last histogram places the page, which comes in the histogram's query.
  ['collection-next-page', '/trade-activities?page[size]=5&page[number]=1'],
  ['collection-sorted-by-attribute', '/concepts?sort=-label,notation'],
  ['collection-sorted-by-related-attribute', '/trade-activities?sort=concerns.label,-origin.country.name'],
  ['collection-sorted-to-many', '/trade-activities?sort=concerns.label'],
  ['collection-sorted-by-to-one-path', '/trade-activities?sort=-amount.value'],
  ['collection-filtered', '/trade-activities?filter[concerns.notation]=0101&filter[financial-year][gte]=2016-01-01Z'],
  ['single', '/trade-activities/7c1e0a42'],
  ['single-by-template-id', '/concepts/0101'],
  ['related-to-one', '/trade-activities/7c1e0a42/amount'],
  ['related-to-many', '/trade-activities/7c1e0a42/concerns?sort=notation'],
  ['related-to-many-by-id', '/trade-activities/7c1e0a42/concerns'],
  ['relationship-linkage', '/concepts/0101/links/narrower-concepts'],
  ['collection-include', '/trade-activities?include=concerns.broader-concepts&page[size]=5'],
  ['single-sparse', '/concepts/0101?fields[concepts]=label'],
  ['collection-cursor', nextOf('/trade-activities?sort=-financial-year&page[size]=5')],
  ['collection-cursor-by-id', nextOf('/concepts?page[size]=5')],
];

const sent: string[] = [];
let store: Store;
let api: ApiClient;

beforeAll(async () => {
  store = await createOxigraphStore({ files: [SAMPLE_DATA], workers: 1 });
  // The real store, with every query text noted on the way.
  const recording = noteQueries(store, sent);
  api = await ApiClient.listen(
    createApp({
      datasets: [
        { name: 'sample', mapping: await loadMapping('mappings/sample.yaml'), store: recording, linkBase: '' },
      ],
    }),
  );
});
afterAll(async () => {
  await api?.close();
  await store?.close();
});

it.each(SHAPES)('queries/%s.rq is what its request sends', async (name, given) => {
  const request = typeof given === 'string' ? given : await given();
  sent.length = 0;
  expect((await api.get(request)).status).toBe(200);
  const text = `${[
    `# GET ${request}`,
    `# ${sent.length} ${sent.length === 1 ? 'query' : 'queries'}`,
    ...sent.map((query, i) => `\n# query ${i + 1}\n${query}`),
  ].join('\n')}\n`;
  const file = `queries/${name}.rq`;
  if (UPDATE) writeFileSync(file, text);
  expect(existsSync(file), `${file} is missing: run \`npm run queries:update\` and review the new file`).toBe(true);
  expect(text, `${file} differs from what the request sends: run \`npm run queries:update\` and review the diff`).toBe(
    readFileSync(file, 'utf8'),
  );
});

it('queries/ holds no .rq file that no shape produces', () => {
  const expected = new Set(SHAPES.map(([name]) => `${name}.rq`));
  const stale = readdirSync('queries').filter((file) => file.endsWith('.rq') && !expected.has(file));
  if (UPDATE) for (const file of stale) rmSync(`queries/${file}`);
  else expect(stale, `no request shape produces these: remove them, or run \`npm run queries:update\``).toEqual([]);
});
