import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { expect, it } from 'vitest';
import { loadMapping } from '../src/mapping/load-mapping.js';
import { planRequest } from '../src/plan/plan-request.js';
import { parsePath } from '../src/request/parse-path.js';
import { parseQuery } from '../src/request/parse-query.js';
import { queriesFor } from '../src/sparql/queries-for.js';

/**
 * queries/*.rq show what each request shape compiles to, so that a change to a query is reviewed
 * as a diff. `npm run queries:update` rewrites them (UPDATE_GOLDEN=1).
 */
const SHAPES = [
  ['collection', '/trade-activities'],
  ['collection-sorted-by-attribute', '/concepts?sort=-label,notation'],
  ['collection-sorted-by-related-attribute', '/trade-activities?sort=concerns.label,-origin.country.name'],
  ['single', '/trade-activities/7c1e0a42'],
  ['single-by-template-id', '/concepts/0101'],
  ['related-to-one', '/trade-activities/7c1e0a42/origin'],
  ['related-to-many', '/trade-activities/7c1e0a42/concerns?sort=notation'],
  ['relationship-linkage', '/concepts/0101/links/narrower-concepts'],
] as const;

const mapping = await loadMapping('mappings/sample.yaml');
const EXAMPLE_IRIS = ['http://example.org/member/1', 'http://example.org/member/2'];

it.each(SHAPES)('queries/%s.rq is what %s sends', (name, request) => {
  const url = new URL(request, 'http://localhost');
  const plan = planRequest(mapping, parsePath(url.pathname), parseQuery(url.search.slice(1)));
  const queries = queriesFor(mapping, plan, EXAMPLE_IRIS);
  const text = [
    `# GET ${request}`,
    `# ${queries.length} ${queries.length === 1 ? 'query' : 'queries'}${queries.length > 1 ? `; the last fetches the members the first finds (here ${EXAMPLE_IRIS.length} stand-ins)` : ''}`,
    ...queries.map((query, i) => `\n# query ${i + 1}\n${query}`),
  ].join('\n') + '\n';
  const file = `queries/${name}.rq`;
  if (process.env.UPDATE_GOLDEN === '1' || !existsSync(file)) writeFileSync(file, text);
  expect(text).toBe(readFileSync(file, 'utf8'));
});
