import { beforeAll, expect, it } from 'vitest';
import { loadMapping } from '../../src/mapping/load-mapping.js';
import { DEFAULT_PAGE_LIMITS } from '../../src/request/parse-page.js';
import { queryCount } from '../support/api-client.js';
import { describeEachStore, SAMPLE_MAPPING } from '../support/each-store.js';
import { SAMPLE_DATA } from '../support/global-setup.js';
import { nonEmpty } from '../support/non-empty.js';
import { Oracle, type Resource } from '../support/oracle.js';
import { onePageLinks } from '../support/page-links.js';

const mapping = await loadMapping(SAMPLE_MAPPING);
const oracle = Oracle.fromFile(SAMPLE_DATA, mapping);
const TYPES = [...mapping.types.keys()];

/** Every (type, member, relationship) of the sample, for exhaustive relationship checks. */
const RELATIONSHIP_CASES = nonEmpty(
  TYPES.flatMap((type) =>
    nonEmpty(oracle.members(type), type).flatMap((member) =>
      [...mapping.types.get(type)!.relationships.values()].map((rel) => ({
        type,
        member,
        rel: rel.name,
        toMany: rel.cardinality === 'many',
      })),
    ),
  ),
  'the relationship cases',
);

function expectedResource(type: string, member: Resource) {
  const rels = [...mapping.types.get(type)!.relationships.keys()];
  const self = `/${type}/${member.id}`;
  return {
    type,
    id: member.id,
    // A type without attributes shows no `attributes` member.
    ...(mapping.types.get(type)!.attributes.size > 0 && { attributes: oracle.attributes(type, member.iri) }),
    links: { self },
    ...(rels.length > 0 && {
      relationships: Object.fromEntries(
        rels.map((r) => [r, { links: { self: `${self}/links/${r}`, related: `${self}/${r}` } }]),
      ),
    }),
  };
}

describeEachStore('fetching resources (spec: fetching rules 1-5)', (h) => {
  it.each(TYPES)('GET /%s answers every member, with its attributes and relationship links', async (type) => {
    const response = await h().api.get(`/${type}?sort=id`);
    expect(response.status).toBe(200);
    expect(response.body.links).toEqual(onePageLinks(`/${type}`, 'sort=id'));
    const members = nonEmpty(oracle.members(type), type);
    expect(response.body.meta).toEqual({ count: members.length });
    expect(response.body.jsonapi).toEqual({ version: '1.1' });
    expect(response.body.data).toEqual(members.map((m) => expectedResource(type, m)));
    // list, fetch, and the count for meta.count and links.last
    expect(queryCount(response)).toBeLessThanOrEqual(3);
  });

  it('an empty collection is 200 with data [] and links.self', async () => {
    // A to-many related collection is a collection too; this activity concerns nothing.
    const empty = oracle
      .members('trade-activities')
      .find((m) => oracle.related('trade-activities', m.iri, 'concerns').length === 0)!;
    const response = await h().api.get(`/trade-activities/${empty.id}/concerns`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      jsonapi: { version: '1.1' },
      links: onePageLinks(`/trade-activities/${empty.id}/concerns`),
      meta: { count: 0 },
      data: [],
    });
  });

  it.each(TYPES.flatMap((type) => nonEmpty(oracle.members(type), type).map((member) => ({ type, member }))))(
    'GET /$type/$member.id answers that resource',
    async ({ type, member }) => {
      const response = await h().api.get(`/${type}/${member.id}`);
      expect(response.status).toBe(200);
      expect(response.body.links).toEqual({ self: `/${type}/${member.id}` });
      expect(response.body.data).toEqual(expectedResource(type, member));
      expect(queryCount(response)).toBe(1);
    },
  );

  it.each([
    ['a well-formed id nobody has', '/trade-activities/abcdef0123'],
    ['a template IRI with no rdf:type', '/concepts/ee'],
    ['an id of another type', `/concepts/${oracle.members('trade-activities')[0]!.id}`],
    ['a hex id outside the data', '/countries/5858'],
  ])('404 for %s', async (_, path) => {
    const response = await h().api.get(path);
    expect(response.status).toBe(404);
    expect(response.body.errors[0]).toMatchObject({ status: '404', title: 'Not Found' });
  });

  it('every link the server emits can be fetched as it stands', async () => {
    const collection = await h().api.get('/trade-activities');
    const resource = collection.body.data[0];
    const links = [
      resource.links.self,
      ...Object.values<any>(resource.relationships).flatMap((r) => [r.links.self, r.links.related]),
    ];
    for (const link of links) expect((await h().api.get(link)).status, link).toBe(200);
  });

  it('the /api/<dataset> prefix serves the same data; a non-default dataset keeps its prefix in links', async () => {
    const plain = await h().api.get('/concepts?sort=-label');
    const prefixed = await h().api.get('/api/sample/concepts?sort=-label');
    expect(prefixed.body).toEqual(plain.body);
    const mirror = await h().api.get('/api/mirror/concepts/0101');
    expect(mirror.body.links.self).toBe('/api/mirror/concepts/0101');
    expect(mirror.body.data.relationships['broader-concepts'].links.related).toBe(
      '/api/mirror/concepts/0101/broader-concepts',
    );
    expect((await h().api.get(mirror.body.data.relationships['broader-concepts'].links.related)).status).toBe(200);
  });

  it('HEAD gives the GET status and headers with no body', async () => {
    const head = await h().api.request('HEAD', '/concepts/0101');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('application/vnd.api+json');
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(0);
  });
});

describeEachStore('related resources and relationships (spec: relationship rules 1-5)', (h) => {
  let sampleTrade: Resource;
  beforeAll(() => {
    sampleTrade = oracle
      .members('trade-activities')
      .find((m) => oracle.related('trade-activities', m.iri, 'concerns').length > 1)!;
  });

  it.each(RELATIONSHIP_CASES)(
    'GET /$type/$member.id/$rel (related) answers the targets',
    async ({ type, member, rel, toMany }) => {
      const target = mapping.types.get(type)!.relationships.get(rel)!.target;
      const related = oracle.related(type, member.iri, rel);
      const response = await h().api.get(`/${type}/${member.id}/${rel}`);
      expect(response.status).toBe(200);
      expect(response.body.links).toEqual(
        toMany ? onePageLinks(`/${type}/${member.id}/${rel}`) : { self: `/${type}/${member.id}/${rel}` },
      );
      if (toMany) expect(response.body.meta).toEqual({ count: related.length });
      const expected = related.map((m) => expectedResource(target, m));
      expect(response.body.data).toEqual(toMany ? expected : (expected[0] ?? null));
      expect(queryCount(response)).toBeLessThanOrEqual(toMany ? 3 : 2);
    },
  );

  it.each(RELATIONSHIP_CASES)(
    'GET /$type/$member.id/links/$rel answers the linkage',
    async ({ type, member, rel, toMany }) => {
      const target = mapping.types.get(type)!.relationships.get(rel)!.target;
      const linkage = oracle.related(type, member.iri, rel).map((m) => ({ type: target, id: m.id }));
      const response = await h().api.get(`/${type}/${member.id}/links/${rel}`);
      expect(response.status).toBe(200);
      const self = `/${type}/${member.id}/links/${rel}`;
      expect(response.body.links).toEqual({
        ...(toMany ? onePageLinks(self) : { self }),
        related: `/${type}/${member.id}/${rel}`,
      });
      expect(response.body.data).toEqual(toMany ? linkage : (linkage[0] ?? null));
      // A to-many linkage is a page: one that is not full gives its count, else the count query follows.
      const fullPage = linkage.length >= DEFAULT_PAGE_LIMITS.defaultSize;
      expect(queryCount(response)).toBe(toMany && fullPage ? 2 : 1);
    },
  );

  it('the /relationships/ form answers like /links/', async () => {
    const links = await h().api.get(`/trade-activities/${sampleTrade.id}/links/concerns`);
    const relationships = await h().api.get(`/trade-activities/${sampleTrade.id}/relationships/concerns`);
    expect(relationships.body.data).toEqual(links.body.data);
    expect(relationships.body.data.length).toBeGreaterThan(1);
  });

  it.each([
    ['related, missing parent', '/trade-activities/abcdef0123/concerns'],
    ['related to-one, missing parent', '/trade-activities/abcdef0123/destination'],
    ['relationship, missing parent', '/trade-activities/abcdef0123/links/concerns'],
    ['relationship to-one, missing parent', '/trade-activities/abcdef0123/links/origin'],
    ['unknown relationship', '/trade-activities/7c1e0a42/links/nope'],
    ['unknown related', '/trade-activities/7c1e0a42/nope'],
  ])('404 for %s', async (_, path) => {
    const response = await h().api.get(path);
    expect(response.status).toBe(404);
    expect(response.body.errors[0].status).toBe('404');
  });
});
