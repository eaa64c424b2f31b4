import { expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { loadMapping } from '../../src/mapping/load-mapping.js';
import { ApiClient, type ApiResponse, queryCount } from '../support/api-client.js';
import { describeEachStore, SAMPLE_MAPPING } from '../support/each-store.js';
import { SAMPLE_DATA } from '../support/global-setup.js';
import { fetchGoesWithPage, pageGoesWithHistogram } from '../support/list-cost.js';
import { nonEmpty } from '../support/non-empty.js';
import { type Compound, codePointCompare, Oracle, type Resource } from '../support/oracle.js';

const mapping = await loadMapping(SAMPLE_MAPPING);
const oracle = Oracle.fromFile(SAMPLE_DATA, mapping);
/** 1 when a page of trade activities brings its values in its list query: no fetch query then. */
const FETCH_WITH_PAGE = fetchGoesWithPage(mapping, oracle, 'trade-activities') ? 1 : 0;
/** 1 when a page of trade activities, their list read before, comes with its histogram query. */
const PLACED = pageGoesWithHistogram(mapping, oracle, 'trade-activities') ? 1 : 0;
const TYPES = [...mapping.types.keys()];
const relationshipsOf = (type: string) => [...mapping.types.get(type)!.relationships.values()];
const activities = nonEmpty(oracle.members('trade-activities'), 'trade-activities');

/** `included` sorted like the oracle's (the spec gives it no order), after checking that no resource is there twice. */
function sortedIncluded(response: ApiResponse): unknown[] {
  const included: { type: string; id: string }[] = response.body.included;
  expect(included, 'included is present').toBeInstanceOf(Array);
  const keys = [...(response.body.data === null ? [] : [response.body.data].flat()), ...included].map(
    (r) => `${r.type}/${r.id}`,
  );
  expect(new Set(keys).size, 'each resource once in data and included').toBe(keys.length);
  return [...included].sort((a, b) => codePointCompare(a.type, b.type) || codePointCompare(a.id, b.id));
}

function expectCompound(response: ApiResponse, expected: Compound, single = false): void {
  expect(response.status, response.body.errors?.[0]?.detail).toBe(200);
  expect(response.body.data).toEqual(single ? (expected.data[0] ?? null) : expected.data);
  expect(sortedIncluded(response)).toEqual(expected.included);
}

/** Each type with each of its relationships, and the members whose relationship is empty or not (when the sample has both). */
const SINGLE_CASES = nonEmpty(
  TYPES.flatMap((type) =>
    relationshipsOf(type).flatMap((rel) => {
      const members = nonEmpty(oracle.members(type), type);
      const full = members.find((m) => oracle.related(type, m.iri, rel.name).length > 0);
      const empty = members.find((m) => oracle.related(type, m.iri, rel.name).length === 0);
      return [full, empty]
        .filter((m): m is Resource => m !== undefined)
        .map((member) => ({ type, rel: rel.name, member }));
    }),
  ),
  'the single-resource include cases',
);

/** Each relationship of a related URL's target type, from a member whose relationship reaches something. */
const RELATED_CASES = nonEmpty(
  TYPES.flatMap((type) =>
    relationshipsOf(type).flatMap((rel) => {
      const member = oracle.members(type).find((m) => oracle.related(type, m.iri, rel.name).length > 0);
      return member
        ? relationshipsOf(rel.target).map((next) => ({
            type,
            rel: rel.name,
            member,
            include: next.name,
            toMany: rel.cardinality === 'many',
          }))
        : [];
    }),
  ),
  'the related-URL include cases',
);

describeEachStore('include: compound documents (spec: inclusion of related resources)', (h) => {
  it.each(TYPES.flatMap((type) => relationshipsOf(type).map((rel) => ({ type, rel: rel.name }))))(
    'GET /$type?include=$rel includes what every resource of the page reaches, with linkage',
    async ({ type, rel }) => {
      const response = await h().api.get(`/${type}?sort=id&include=${rel}`);
      expectCompound(response, oracle.compound(type, nonEmpty(oracle.members(type), type), rel));
      // list, count, fetch (when the type has attributes), one include level
      expect(queryCount(response)).toBe(3 + (mapping.types.get(type)!.attributes.size > 0 ? 1 : 0));
    },
  );

  it.each(SINGLE_CASES)('GET /$type/$member.id?include=$rel', async ({ type, rel, member }) => {
    const response = await h().api.get(`/${type}/${member.id}?include=${rel}`);
    expectCompound(response, oracle.compound(type, [member], rel), true);
    expect(queryCount(response)).toBe(2);
  });

  it.each(RELATED_CASES)(
    'GET /$type/$member.id/$rel?include=$include',
    async ({ type, rel, member, include, toMany }) => {
      const target = mapping.types.get(type)!.relationships.get(rel)!.target;
      const related = oracle.related(type, member.iri, rel);
      const response = await h().api.get(`/${type}/${member.id}/${rel}?include=${include}`);
      expectCompound(response, oracle.compound(target, toMany ? related : related.slice(0, 1), include), !toMany);
    },
  );

  it.each([
    ['trade-activities', 'concerns.broader-concepts'],
    ['trade-activities', 'concerns.broader-concepts.broader-concepts'],
    ['trade-activities', 'concerns.narrower-concepts'],
    ['trade-activities', 'origin.country'],
    ['trade-activities', 'origin.country,destination.country,amount'],
    ['concept-schemes', 'top-concepts.narrower-concepts.narrower-concepts'],
    ['concepts', 'concept-scheme.top-concepts'],
    // Primary resources reached again along a path are not included, yet carry that path's linkage.
    ['concepts', 'broader-concepts.narrower-concepts'],
    ['aid-activities', 'public-project'],
  ])('nested paths: GET /%s?include=%s', async (type, include) => {
    const response = await h().api.get(`/${type}?include=${include}`);
    const members = nonEmpty(oracle.members(type), type);
    const expected = oracle.compound(type, members, include);
    expect(response.body.data.map((r: { id: string }) => r.id).sort()).toEqual(members.map((m) => m.id).sort());
    const byId = (list: { id: string }[]) => [...list].sort((a, b) => codePointCompare(a.id, b.id));
    expect(byId(response.body.data)).toEqual(expected.data);
    expect(sortedIncluded(response)).toEqual(expected.included);
  });

  it.each([
    // Shared prefixes merge: each intermediate resource once, with the linkage of both branches.
    'concerns,concerns.broader-concepts',
    'concerns.broader-concepts,concerns',
    'concerns.broader-concepts,concerns.narrower-concepts',
    'concerns.broader-concepts,concerns.narrower-concepts,origin.country,destination.country',
    'concerns.broader-concepts,concerns.broader-concepts',
  ])('merged paths: include=%s', async (include) => {
    const response = await h().api.get(`/trade-activities?sort=id&include=${include}`);
    expectCompound(response, oracle.compound('trade-activities', activities, include));
  });

  it('include=concerns.broader-concepts on a page costs one query per level (5 in all), whatever the page holds', async () => {
    // The list read before, so that each page below costs the same: its histogram places the page.
    await h().api.get('/trade-activities');
    const response = await h().api.get('/trade-activities?include=concerns.broader-concepts');
    // list, count, fetch (unless the list query brought the values; the page itself unless it
    // came with the histogram), concerns, broader-concepts
    expect(queryCount(response)).toBe(5 - FETCH_WITH_PAGE - PLACED);
    const levels: Array<[string, number]> = [
      ['concerns', 4],
      ['concerns.broader-concepts.broader-concepts', 6],
      // Two paths of two levels: still two include queries.
      ['concerns.broader-concepts,origin.country', 5],
      ['amount,origin,destination,concerns', 4],
      ['', 3],
    ];
    for (const [include, queries] of levels)
      expect(queryCount(await h().api.get(`/trade-activities?include=${include}`)), include).toBe(
        queries - FETCH_WITH_PAGE - PLACED,
      );
    // A single resource: the lookup and one query per level.
    expect(queryCount(await h().api.get('/concepts/010201?include=broader-concepts.broader-concepts'))).toBe(3);
    expect(queryCount(await h().api.get(`/trade-activities/${activities[0]!.id}?include=origin.country`))).toBe(3);
  });

  it('a level that reaches nothing sends no query for the levels below it', async () => {
    const none = activities.find((m) => oracle.related('trade-activities', m.iri, 'concerns').length === 0)!;
    const response = await h().api.get(
      `/trade-activities/${none.id}?include=concerns.broader-concepts.broader-concepts`,
    );
    expectCompound(response, oracle.compound('trade-activities', [none], 'concerns'), true);
    expect(response.body.data.relationships.concerns.data).toEqual([]);
    expect(queryCount(response)).toBe(2);
  });

  it('with pagination, included holds exactly what the page reaches', async () => {
    const order = oracle.order('trade-activities', activities, '-financial-year');
    const byId = new Map(activities.map((m) => [m.id, m]));
    let url: string | null = '/trade-activities?include=concerns.broader-concepts&page[size]=2';
    await h().api.get(url); // read before: each page of the walk below comes with the histogram
    const seen: string[] = [];
    while (url !== null) {
      const response = await h().api.get(url);
      const page = order.slice(seen.length, seen.length + 2).map((id) => byId.get(id)!);
      expectCompound(response, oracle.compound('trade-activities', page, 'concerns.broader-concepts'));
      expect(queryCount(response)).toBe(5 - FETCH_WITH_PAGE - PLACED);
      seen.push(...page.map((m) => m.id));
      url = response.body.links.next;
      expect(seen.length, 'walk ends').toBeLessThanOrEqual(order.length);
    }
    expect(seen).toEqual(order);
  });

  it('include= (empty) gives an empty included and no linkage', async () => {
    const response = await h().api.get('/trade-activities/7c1e0a42?include=');
    expect(response.status).toBe(200);
    expect(response.body.included).toEqual([]);
    expect(response.body.data).toEqual(
      oracle.resourceObject('trade-activities', oracle.member('trade-activities', '7c1e0a42')!),
    );
  });

  it('without include there is no included member and no linkage', async () => {
    const response = await h().api.get('/trade-activities?sort=id');
    expect(response.body).not.toHaveProperty('included');
    expect(response.body.data).toEqual(activities.map((m) => oracle.resourceObject('trade-activities', m)));
  });

  it('a to-one related URL with include: null data still has included []', async () => {
    const noDestination = activities.find(
      (m) => oracle.related('trade-activities', m.iri, 'destination').length === 0,
    )!;
    const response = await h().api.get(`/trade-activities/${noDestination.id}/destination?include=country`);
    expect(response.status).toBe(200);
    expect(response.body.data).toBeNull();
    expect(response.body.included).toEqual([]);
  });

  it('a missing resource is still a 404 with include', async () => {
    for (const path of [
      '/concepts/0c0c?include=broader-concepts',
      '/trade-activities/abcdef0123?include=concerns',
      '/trade-activities/abcdef0123/concerns?include=broader-concepts',
    ]) {
      const response = await h().api.get(path);
      expect(response.status, path).toBe(404);
    }
  });

  it.each([
    ['/trade-activities?include=nope', /trade-activities has no relationship 'nope'/],
    ['/trade-activities?include=concerns.nope', /concepts has no relationship 'nope'/],
    ['/trade-activities?include=financial-year', /has no relationship 'financial-year'/],
    ['/trade-activities?include=concerns,', /empty relationship name/],
    ['/trade-activities?include=concerns..broader-concepts', /empty relationship name/],
    [
      '/trade-activities?include=concerns.broader-concepts.broader-concepts.broader-concepts',
      /follows 4 relationships; include paths may follow at most 3/,
    ],
    ['/trade-activities/7c1e0a42?include=amount.value', /amounts has no relationship 'value'/],
    // A related URL's include starts from the target type.
    ['/trade-activities/7c1e0a42/concerns?include=concerns', /concepts has no relationship 'concerns'/],
    // Relationship URLs answer with resource identifiers only.
    [
      '/trade-activities/7c1e0a42/links/concerns?include=concerns',
      /relationship URL answers with resource identifiers only/,
    ],
    ['/trade-activities/7c1e0a42/relationships/origin?include=country', /relationship URL/],
  ])('400 naming include: %s', async (path, detail) => {
    const response = await h().api.get(path);
    expect(response.status).toBe(400);
    expect(response.body.errors).toHaveLength(1);
    expect(response.body.errors[0]).toMatchObject({
      status: '400',
      title: 'Invalid query parameter',
      source: { parameter: 'include' },
    });
    expect(response.body.errors[0].detail).toMatch(detail);
    expect(queryCount(response)).toBe(0);
  });

  it('the depth limit is per dataset', async () => {
    const api = await ApiClient.listen(
      createApp({
        datasets: [{ name: 'shallow', mapping, store: h().store, linkBase: '', options: { includeDepth: 1 } }],
      }),
    );
    try {
      const refused = await api.get('/trade-activities?include=origin.country');
      expect(refused.status).toBe(400);
      expect(refused.body.errors[0].source).toEqual({ parameter: 'include' });
      expect(refused.body.errors[0].detail).toMatch(/at most 1/);
      const accepted = await api.get('/trade-activities?sort=id&include=origin');
      expectCompound(accepted, oracle.compound('trade-activities', activities, 'origin'));
    } finally {
      await api.close();
    }
  });
});
