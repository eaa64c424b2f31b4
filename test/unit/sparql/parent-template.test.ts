import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { templateMemo } from '../../../src/cache/template-memo.js';

/** One app's memo, as the server keeps templates (`cache/template-memo.ts`). */
const memo = templateMemo();

import { DEFAULT_DATASET_OPTIONS } from '../../../src/dataset.js';
import { listQuery, listShape } from '../../../src/execute/paths/list-shape.js';
import { loadMapping } from '../../../src/mapping/load-mapping.js';
import { planRequest } from '../../../src/plan/plan-request.js';
import { shownAttributes } from '../../../src/plan/shown-attributes.js';
import { parsePath } from '../../../src/request/parse-path.js';
import { parseQuery } from '../../../src/request/parse-query.js';
import { buildRelatedPageQuery, offsetListQuery } from '../../../src/sparql/list-shapes.js';
import { relatedListQuery, relatedPageQuery } from '../../../src/sparql/parent-template.js';
import { toText } from '../../../src/sparql/to-text.js';

const mapping = await loadMapping('mappings/sample.yaml');

/** The list, window and attributes of a related URL's first page, as the executor reads it. */
function pageOf(url: string) {
  const [path, query = ''] = url.split('?') as [string, string?];
  const plan = planRequest(mapping, { route: parsePath(path), query: parseQuery(query) }, DEFAULT_DATASET_OPTIONS);
  if (plan.kind !== 'collection' || !plan.paging) throw new Error(`${url} is no related list`);
  const window = { limit: 20, offset: 0 };
  return { request: plan.list, window, attributes: shownAttributes(plan.list.type, plan.view.fields) };
}

// Ids of each strategy: a mu:uuid literal, a concept's hex notation (its IRI from a template).
const ids = fc.oneof(
  fc.stringMatching(/^[0-9a-f][0-9a-f-]{0,15}$/).map((id) => ({ url: `/trade-activities/${id}/concerns` })),
  fc
    .stringMatching(/^[0-9a-f]{2,8}$/)
    .map((id) => ({ url: `/concepts/${id}/narrower-concepts?fields[concepts]=label` })),
);

describe('relatedPageQuery (a template per page shape, the parent slotted in)', () => {
  it('writes what the whole related-page query writes, for any parent', () => {
    fc.assert(
      fc.property(ids, fc.constantFrom('code point', 'UTF-16 code units' as const), ({ url }, order) => {
        const { request, window, attributes } = pageOf(url);
        const whole = buildRelatedPageQuery(mapping, request, window, attributes);
        const templated = relatedPageQuery(mapping, request, { window, attributes, memo });
        expect(whole).toBeDefined();
        expect(toText(templated!, order)).toBe(toText(whole!, order));
      }),
    );
  });

  it('none where the whole query has none (a page that shows no attribute); a filtered list is built whole', () => {
    const bare = pageOf('/trade-activities/a1/concerns?fields[concepts]=broader-concepts');
    expect(relatedPageQuery(mapping, bare.request, { ...bare, memo })).toBeUndefined();
    const filtered = pageOf('/trade-activities/a1/concerns?filter[notation]=0101');
    const query = relatedPageQuery(mapping, filtered.request, { ...filtered, memo });
    expect(query && 'type' in query).toBe(true);
    expect(toText(query!)).toBe(
      toText(buildRelatedPageQuery(mapping, filtered.request, filtered.window, filtered.attributes)!),
    );
  });
});

describe('relatedListQuery (linkage and later related pages from a template, the parent slotted in)', () => {
  // Linkage, a later page, and a sort by a text key (written per engine text order).
  const suffixes = ['/links/concerns', '/concerns?page[number]=1', '/concerns?sort=-label,id&page[number]=2'];
  it('writes what the whole list query writes, for any parent, sort and text order', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[0-9a-f][0-9a-f-]{0,15}$/),
        fc.constantFrom(...suffixes),
        fc.constantFrom('code point', 'UTF-16 code units' as const),
        (id, suffix, order) => {
          const [path, query = ''] = `/trade-activities/${id}${suffix}`.split('?') as [string, string?];
          const plan = planRequest(
            mapping,
            { route: parsePath(path), query: parseQuery(query) },
            DEFAULT_DATASET_OPTIONS,
          );
          if (plan.kind === 'resource' || plan.kind === 'related-one') throw new Error(`${path} is no list`);
          const window = { limit: 20, offset: 20 };
          expect(
            toText(relatedListQuery(mapping, plan.list, { shape: listShape(plan.list), window, memo }), order),
          ).toBe(toText(listQuery(mapping, plan.list, { window }), order));
        },
      ),
    );
  });
});

describe('offsetListQuery (a flat list kept once per type and sort, the window set on a copy)', () => {
  const sorts = [
    '',
    'sort=financial-year',
    'sort=-financial-year,id',
    'sort=origin.country.name',
    'sort=concerns.label',
  ];
  it('writes what the whole list query writes, for any sort, window and text order', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...sorts),
        fc.record({ limit: fc.integer({ min: 1, max: 100 }), offset: fc.integer({ min: 0, max: 10_000 }) }),
        fc.constantFrom('code point', 'UTF-16 code units' as const),
        (sort, window, order) => {
          const plan = planRequest(
            mapping,
            { route: parsePath('/trade-activities'), query: parseQuery(sort) },
            DEFAULT_DATASET_OPTIONS,
          );
          if (plan.kind !== 'collection') throw new Error('/trade-activities is no list');
          const kept = offsetListQuery(mapping, plan.list, { shape: listShape(plan.list), window, memo });
          expect(toText(kept, order)).toBe(toText(listQuery(mapping, plan.list, { window }), order));
        },
      ),
    );
  });
});
