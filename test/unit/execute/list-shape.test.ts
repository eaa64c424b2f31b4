import { describe, expect, it } from 'vitest';
import { DEFAULT_DATASET_OPTIONS } from '../../../src/dataset.js';
import { listShape } from '../../../src/execute/paths/list-shape.js';
import { loadMapping } from '../../../src/mapping/load-mapping.js';
import { planRequest } from '../../../src/plan/plan-request.js';
import { parsePath } from '../../../src/request/parse-path.js';
import { parseQuery } from '../../../src/request/parse-query.js';

const mapping = await loadMapping('mappings/sample.yaml');

const shapeOf = (url: string) => {
  const [path, query = ''] = url.split('?') as [string, string?];
  const plan = planRequest(mapping, { route: parsePath(path), query: parseQuery(query) }, DEFAULT_DATASET_OPTIONS);
  if (plan.kind !== 'collection' && plan.kind !== 'linkage') throw new Error(`${url} is no list`);
  return listShape(plan.list);
};

// The rules of list-shape.ts (flat, per-member, grouped), on the sample mapping's declarations:
// financial-year is one xsd:date per activity, country names and concept labels are `language: en`,
// `concerns` is to-many.
describe('listShape: the query shape the planner gives a list', () => {
  it.each([
    ['/trade-activities', 'flat'], // the default sort, -financial-year
    ['/trade-activities?sort=financial-year,id', 'flat'],
    ['/trade-activities?sort=id', 'flat'],
    ['/trade-activities/a1/links/concerns', 'flat'], // by id, under a parent
    ['/trade-activities?sort=origin.country.name', 'per-member'], // one text key with a language to choose
    ['/trade-activities?sort=-concerns.label', 'per-member'], // one text key of several values
    ['/trade-activities?sort=concerns.label,financial-year', 'grouped'], // two attribute keys, one not flat
    ['/trade-activities/a1/concerns?sort=-label', 'grouped'], // a language key under a parent
  ])('%s: %s', (url, shape) => {
    expect(shapeOf(url)).toBe(shape);
  });
});
