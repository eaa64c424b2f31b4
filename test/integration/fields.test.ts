import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { loadMapping } from '../../src/mapping/load-mapping.js';
import { ApiClient, queryCount } from '../support/api-client.js';
import { describeEachStore, SAMPLE_MAPPING } from '../support/each-store.js';
import { SAMPLE_DATA } from '../support/global-setup.js';
import { nonEmpty } from '../support/non-empty.js';
import { codePointCompare, type FieldsParameter, Oracle } from '../support/oracle.js';
import { noteQueries } from '../support/query-log.js';

const mapping = await loadMapping(SAMPLE_MAPPING);
const oracle = Oracle.fromFile(SAMPLE_DATA, mapping);
const TYPES = [...mapping.types.keys()];
const fieldsOf = (type: string) => [
  ...mapping.types.get(type)!.attributes.keys(),
  ...mapping.types.get(type)!.relationships.keys(),
];
const query = (fields: FieldsParameter) =>
  Object.entries(fields)
    .map(([type, list]) => `fields[${type}]=${list}`)
    .join('&');
const byTypeAndId = (list: { type: string; id: string }[]) =>
  [...list].sort((a, b) => codePointCompare(a.type, b.type) || codePointCompare(a.id, b.id));

/** Per type: each single field, no field at all, and every field. */
const FIELDSETS = TYPES.flatMap((type) =>
  [...fieldsOf(type), '', fieldsOf(type).join(',')].map((fields) => ({ type, fields })),
);

describeEachStore('sparse fieldsets (fields[type])', (h) => {
  /** The SPARQL text each request sends, recorded on its way to the suite's store. */
  const sent: string[] = [];
  let recorded: ApiClient;
  beforeAll(async () => {
    const recording = noteQueries(h().store, sent);
    recorded = await ApiClient.listen(
      createApp({ datasets: [{ name: 'sample', mapping, store: recording, linkBase: '' }] }),
    );
  });
  afterAll(() => recorded?.close());

  it.each(FIELDSETS)('GET /$type?fields[$type]=$fields shows those fields only', async ({ type, fields }) => {
    const response = await h().api.get(`/${type}?sort=id&fields[${type}]=${fields}`);
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual(
      nonEmpty(oracle.members(type), type).map((m) => oracle.resourceObject(type, m, fields)),
    );
    const fetches = fields.split(',').some((f) => mapping.types.get(type)!.attributes.has(f));
    // list and count; the fetch only when an attribute is shown
    expect(queryCount(response)).toBe(fetches ? 3 : 2);
  });

  it.each(FIELDSETS)('GET /$type/<first>?fields[$type]=$fields', async ({ type, fields }) => {
    const member = nonEmpty(oracle.members(type), type)[0]!;
    const response = await h().api.get(`/${type}/${member.id}?fields[${type}]=${fields}`);
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual(oracle.resourceObject(type, member, fields));
    expect(queryCount(response)).toBe(1);
  });

  it('fields[type]= (empty) leaves only type, id and links', async () => {
    const response = await h().api.get('/concepts/0101?fields[concepts]=');
    expect(response.body.data).toEqual({ type: 'concepts', id: '0101', links: { self: '/concepts/0101' } });
  });

  it('fieldsets of other types do not change the primary data', async () => {
    const response = await h().api.get('/concepts?sort=id&fields[countries]=name&fields[trade-activities]=');
    expect(response.body.data).toEqual(
      nonEmpty(oracle.members('concepts'), 'concepts').map((m) => oracle.resourceObject('concepts', m)),
    );
  });

  it.each([
    ['trade-activities', 'concerns.broader-concepts', { concepts: 'label' }],
    [
      'trade-activities',
      'concerns.broader-concepts',
      { concepts: 'label,broader-concepts', 'trade-activities': 'concerns' },
    ],
    ['trade-activities', 'origin.country,amount', { 'group-national-agents': '', countries: 'name', amounts: 'value' }],
    // A relationship left out of the fieldset is still followed: its resources are included, without linkage.
    ['trade-activities', 'concerns.broader-concepts', { 'trade-activities': 'financial-year' }],
    ['trade-activities', 'concerns.broader-concepts', { concepts: 'notation' }],
    ['concept-schemes', 'top-concepts.narrower-concepts', { 'concept-schemes': '', concepts: 'narrower-concepts' }],
  ] as const)(
    'GET /%s?include=%s with fieldsets %o applies them to included resources too',
    async (type, include, fields) => {
      const response = await h().api.get(`/${type}?sort=id&include=${include}&${query(fields)}`);
      expect(response.status).toBe(200);
      const expected = oracle.compound(type, nonEmpty(oracle.members(type), type), include, fields);
      expect(response.body.data).toEqual(expected.data);
      expect(byTypeAndId(response.body.included)).toEqual(expected.included);
    },
  );

  it('related URLs take fieldsets', async () => {
    const activity = oracle
      .members('trade-activities')
      .find((m) => oracle.related('trade-activities', m.iri, 'concerns').length > 1)!;
    const many = await h().api.get(`/trade-activities/${activity.id}/concerns?fields[concepts]=notation`);
    expect(many.body.data).toEqual(
      oracle
        .related('trade-activities', activity.iri, 'concerns')
        .map((m) => oracle.resourceObject('concepts', m, 'notation')),
    );
    const one = await h().api.get(`/trade-activities/${activity.id}/amount?fields[amounts]=currency`);
    expect(one.body.data).toEqual(
      oracle.resourceObject('amounts', oracle.related('trade-activities', activity.iri, 'amount')[0]!, 'currency'),
    );
  });

  it('predicates that no requested field needs are not fetched from the store', async () => {
    const label = mapping.types.get('concepts')!.attributes.get('label')!.predicate;
    const notation = mapping.types.get('concepts')!.attributes.get('notation')!.predicate;
    const year = mapping.types.get('trade-activities')!.attributes.get('financial-year')!.predicate;
    const asked = async (path: string) => {
      sent.length = 0;
      expect((await recorded.get(path)).status).toBe(200);
      return sent.join('\n');
    };
    const single = await asked('/concepts/0101?fields[concepts]=label');
    expect(single).toContain(`<${label}>`);
    expect(single).not.toContain(`<${notation}>`);
    const included = await asked(
      '/trade-activities?sort=id&include=concerns&fields[concepts]=notation&fields[trade-activities]=concerns',
    );
    expect(included).toContain(`<${notation}>`);
    expect(included).not.toContain(`<${label}>`);
    expect(included).not.toContain(`<${year}>`);
  });

  it.each([
    ['/concepts?fields[nope]=label', 'fields[nope]', /There is no resource type 'nope'/],
    ['/concepts?fields[concepts]=nope', 'fields[concepts]', /concepts has no field 'nope'/],
    ['/concepts?fields[concepts]=label,', 'fields[concepts]', /empty field name/],
    ['/concepts?fields[concepts]=id', 'fields[concepts]', /has no field 'id'/],
    ['/concepts/0101?fields[countries]=label', 'fields[countries]', /countries has no field 'label'/],
    ['/concepts?fields=label', 'fields', /fields\[type\]/],
    ['/concepts?fields[concepts][x]=label', 'fields[concepts][x]', /fields\[type\]/],
    [
      '/concepts/0101/links/broader-concepts?fields[concepts]=label',
      'fields[concepts]',
      /relationship URL answers with resource identifiers only/,
    ],
  ])('400 for %s naming %s', async (path, parameter, detail) => {
    const response = await h().api.get(path);
    expect(response.status).toBe(400);
    expect(response.body.errors).toHaveLength(1);
    expect(response.body.errors[0]).toMatchObject({
      status: '400',
      title: 'Invalid query parameter',
      source: { parameter },
    });
    expect(response.body.errors[0].detail).toMatch(detail);
    expect(queryCount(response)).toBe(0);
  });
});
