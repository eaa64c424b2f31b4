import { createRequire } from 'node:module';
import { JSONAPISerializers, JSONAPISource } from '@orbit/jsonapi';
import { MemorySource } from '@orbit/memory';
import type { InitializedRecord, ModelDefinition, RecordTransform } from '@orbit/records';
import { RecordSchema } from '@orbit/records';
import { buildSerializerSettingsFor } from '@orbit/serializers';
import Jsona from 'jsona';
import * as kitsu from 'kitsu-core';
import { expect, it } from 'vitest';
import { loadMapping } from '../../src/mapping/load-mapping.js';
import { describeEachStore, SAMPLE_MAPPING } from '../support/each-store.js';
import { SAMPLE_DATA } from '../support/global-setup.js';
import { nonEmpty } from '../support/non-empty.js';
import { type FieldsParameter, Oracle, type Resource } from '../support/oracle.js';

/**
 * Two JSON:API client libraries from npm read the server's compound documents: the object graph
 * each builds must match the data (the oracle), related resources resolved with their
 * attributes, to-many relationships as arrays in id order, empty to-one relationships as null.
 */
// kitsu-core's bundled types re-export without file extensions, which NodeNext resolution can't follow.
const { deserialise } = kitsu as unknown as { deserialise(document: unknown): { data: any } };

const mapping = await loadMapping(SAMPLE_MAPPING);
const oracle = Oracle.fromFile(SAMPLE_DATA, mapping);
const activities = nonEmpty(oracle.members('trade-activities'), 'trade-activities');

type Model = Record<string, any>;
interface Client {
  readonly name: string;
  /** The primary data of a document as the library deserialises it (a copy: kitsu-core mutates its input). */
  read(document: unknown): Model | Model[] | null;
  /** The related object(s) of a relationship the document includes; `undefined` when the library has no linkage for it. */
  related(model: Model, relationship: string): Model | Model[] | null | undefined;
}

const CLIENTS: Client[] = [
  {
    name: 'kitsu-core',
    read: (document) => deserialise(structuredClone(document)).data,
    // kitsu-core keeps `{ links, data }`; it drops `data: null`, so an empty to-one reads as no data.
    related: (model, relationship) =>
      model[relationship] && 'data' in model[relationship] ? model[relationship].data : model[relationship] && null,
  },
  {
    name: 'jsona',
    read: (document) => new Jsona().deserialize(structuredClone(document) as never) as Model | Model[],
    // jsona lists the relationships that had linkage in `relationshipNames`.
    related: (model, relationship) =>
      model.relationshipNames?.includes(relationship) ? model[relationship] : undefined,
  },
];

/** `concerns.broader-concepts,origin` → { concerns: { 'broader-concepts': {} }, origin: {} } */
type Tree = { [relationship: string]: Tree };
function includeTree(include: string): Tree {
  const tree: Tree = {};
  for (const path of include.split(',').filter(Boolean)) {
    let level = tree;
    for (const name of path.split('.')) level = level[name] ??= {};
  }
  return tree;
}

/** Checks a deserialised model against the oracle, and follows the include tree through its related models. */
function expectGraph(
  client: Client,
  model: Model | null | undefined,
  type: string,
  member: Resource,
  tree: Tree,
  fields: FieldsParameter,
  at: string,
): void {
  expect(model, at).toBeTruthy();
  expect({ type: model!.type, id: model!.id }, at).toEqual({ type, id: member.id });
  const shown = (field: string) => fields[type] === undefined || fields[type].split(',').includes(field);
  for (const [attribute, value] of Object.entries(oracle.attributes(type, member.iri))) {
    if (shown(attribute)) expect(model![attribute], `${at}.${attribute}`).toEqual(value);
    else expect(model, `${at} hides ${attribute}`).not.toHaveProperty(attribute);
  }
  for (const [name, subtree] of Object.entries(tree)) {
    const relationship = mapping.types.get(type)!.relationships.get(name)!;
    const expected = oracle.related(type, member.iri, name);
    const related = client.related(model!, name);
    const path = `${at}.${name}`;
    if (relationship.cardinality === 'one') {
      if (expected[0] === undefined) expect(related, path).toBeNull();
      else expectGraph(client, related as Model, relationship.target, expected[0], subtree, fields, path);
      continue;
    }
    expect(related, path).toBeInstanceOf(Array);
    const models = related as Model[];
    expect(
      models.map((m) => m.id),
      path,
    ).toEqual(expected.map((m) => m.id));
    for (const [i, m] of models.entries()) {
      expectGraph(client, m, relationship.target, expected[i]!, subtree, fields, `${path}[${i}]`);
    }
  }
}

const GRAPHS = [
  {
    type: 'trade-activities',
    sort: '-financial-year',
    include: 'concerns.broader-concepts,origin.country,destination.country,amount',
  },
  { type: 'concept-schemes', sort: 'id', include: 'top-concepts.narrower-concepts.narrower-concepts' },
  // Cycles: a concept's broader concept links back to it through narrower-concepts.
  { type: 'concepts', sort: '-label', include: 'broader-concepts.narrower-concepts,concept-scheme' },
  { type: 'aid-activities', sort: 'id', include: 'public-project' },
];

describeEachStore('JSON:API client libraries read compound documents (kitsu-core, jsona)', (h) => {
  for (const client of CLIENTS) {
    it.each(GRAPHS)(
      `${client.name}: GET /$type?sort=$sort&include=$include builds the graph of the data`,
      async ({ type, sort, include }) => {
        const response = await h().api.get(`/${type}?sort=${sort}&include=${include}`);
        expect(response.status).toBe(200);
        const models = client.read(response.body) as Model[];
        const ids = oracle.order(type, nonEmpty(oracle.members(type), type), sort);
        expect(models.map((m) => m.id)).toEqual(ids);
        for (const [i, model] of models.entries()) {
          expectGraph(client, model, type, oracle.member(type, ids[i]!)!, includeTree(include), {}, `${type}[${i}]`);
        }
      },
    );

    it(`${client.name}: a single resource and a related collection`, async () => {
      for (const member of activities) {
        const include = 'concerns.broader-concepts.broader-concepts,destination.country,amount';
        const single = await h().api.get(`/trade-activities/${member.id}?include=${include}`);
        expectGraph(
          client,
          client.read(single.body) as Model,
          'trade-activities',
          member,
          includeTree(include),
          {},
          member.id,
        );
        const related = await h().api.get(
          `/trade-activities/${member.id}/concerns?include=narrower-concepts,top-concept-of`,
        );
        const concepts = client.read(related.body) as Model[];
        const expected = oracle.related('trade-activities', member.iri, 'concerns');
        expect(concepts.map((m) => m.id)).toEqual(expected.map((m) => m.id));
        for (const [i, m] of concepts.entries()) {
          expectGraph(
            client,
            m,
            'concepts',
            expected[i]!,
            includeTree('narrower-concepts,top-concept-of'),
            {},
            `${member.id}/concerns[${i}]`,
          );
        }
      }
    });

    it(`${client.name}: sparse fieldsets reach the models`, async () => {
      const fields = {
        'trade-activities': 'concerns,origin',
        concepts: 'label,broader-concepts',
        'group-national-agents': 'country',
        countries: 'name',
      };
      const include = 'concerns.broader-concepts,origin.country';
      const query = Object.entries(fields)
        .map(([type, list]) => `fields[${type}]=${list}`)
        .join('&');
      const response = await h().api.get(`/trade-activities?sort=id&include=${include}&${query}`);
      const models = client.read(response.body) as Model[];
      expect(models.map((m) => m.id)).toEqual(activities.map((m) => m.id));
      for (const [i, model] of models.entries()) {
        expectGraph(
          client,
          model,
          'trade-activities',
          activities[i]!,
          includeTree(include),
          fields,
          `trade-activities[${i}]`,
        );
      }
    });

    it(`${client.name}: following links.next with page[size]=3 reads every resource exactly once`, async () => {
      const include = 'concerns.broader-concepts,origin.country';
      const seen: string[] = [];
      for (let url: string | null = `/trade-activities?include=${include}&page[size]=3`; url !== null; ) {
        const response = await h().api.get(url);
        expect(response.status, url).toBe(200);
        const models = client.read(response.body) as Model[];
        expect(models.length).toBeLessThanOrEqual(3);
        for (const model of models)
          expectGraph(
            client,
            model,
            'trade-activities',
            oracle.member('trade-activities', model.id)!,
            includeTree(include),
            {},
            model.id,
          );
        seen.push(...models.map((m) => m.id));
        url = response.body.links.next;
        expect(seen.length, 'the walk ends').toBeLessThanOrEqual(activities.length);
      }
      expect(seen).toEqual(oracle.order('trade-activities', activities, '-financial-year'));
      expect(new Set(seen).size).toBe(activities.length);
    });
  }
});

/*
 * Two client libraries that do their own HTTP: Orbit (`@orbit/jsonapi`'s JSONAPISource, synced
 * into an `@orbit/memory` MemorySource, as an Orbit app is set up) and devour-client. Each is set
 * up from the mapping, with no URL code of ours: they build every request URL themselves. Orbit
 * pages by `page[offset]`/`page[limit]` (its `page({ offset, limit })`); devour sends the `page`
 * parameters it is given and reads `links` back, so it walks by following `links.next` with its
 * own `request(url)`. What each sent is checked too, from the library's own record of it.
 */
const require = createRequire(import.meta.url);
// devour-client ships no types.
const DevourJsonApi = require('devour-client') as new (options: Record<string, unknown>) => any;

/** The sample mapping as an Orbit schema: one model per type, named as the type; untyped attributes (no Date conversion). */
function orbitSchema(): RecordSchema {
  const models: Record<string, ModelDefinition> = {};
  for (const type of mapping.types.values())
    models[type.name] = {
      attributes: Object.fromEntries([...type.attributes.keys()].map((name) => [name, {}])),
      relationships: Object.fromEntries(
        [...type.relationships.values()].map((r) => [
          r.name,
          { kind: r.cardinality === 'one' ? 'hasOne' : 'hasMany', type: r.target },
        ]),
      ),
    };
  return new RecordSchema({ models });
}

interface OrbitSetup {
  readonly remote: JSONAPISource;
  readonly memory: MemorySource;
}

function orbitSetup(host: string): OrbitSetup {
  const schema = orbitSchema();
  const remote = new JSONAPISource({
    schema,
    host,
    name: 'remote',
    // Orbit pluralizes model names in URL paths by default; the models here are named as the JSON:API types already.
    serializerSettingsFor: buildSerializerSettingsFor({
      settingsByType: { [JSONAPISerializers.ResourceTypePath]: { serializationOptions: { inflectors: [] } } },
    }),
  });
  const memory = new MemorySource({ schema, name: 'memory' });
  // What an Orbit coordinator's sync strategy does: every transform the remote source applies reaches memory.
  remote.on('transform', (transform: RecordTransform) => memory.sync(transform));
  return { remote, memory };
}

/** An Orbit record from the memory source as a plain model: type, id and attributes, for expectGraph. */
const orbitModel = (record: InitializedRecord | undefined | null): Model | null | undefined =>
  record && { type: record.type, id: record.id, ...record.attributes };

/** expectGraph's view of Orbit: related records as the memory source holds them. */
const orbitClient = (memory: MemorySource): Client => ({
  name: 'orbit',
  read: () => null,
  related: (model, relationship) => {
    const identity = { type: model.type as string, id: model.id as string };
    const kind = mapping.types.get(identity.type)!.relationships.get(relationship)!.cardinality;
    if (kind === 'one')
      return orbitModel(memory.cache.query((q) => q.findRelatedRecord(identity, relationship)) as InitializedRecord);
    const records = memory.cache.query((q) => q.findRelatedRecords(identity, relationship)) as InitializedRecord[];
    // Orbit's relationship data keeps the document's order; the oracle's is id order, as the server's linkage.
    return records?.map((r) => orbitModel(r)!);
  },
});

interface DevourSetup {
  readonly api: any;
  /** The path and query of every request devour sent, as its HTTP layer (axios) sent it. */
  readonly sent: string[];
}

function devourSetup(apiUrl: string): DevourSetup {
  const api = new DevourJsonApi({ apiUrl, pluralize: false, logger: false });
  for (const type of mapping.types.values()) {
    const fields: Record<string, unknown> = Object.fromEntries([...type.attributes.keys()].map((name) => [name, '']));
    for (const r of type.relationships.values())
      fields[r.name] = { jsonApi: r.cardinality === 'one' ? 'hasOne' : 'hasMany', type: r.target };
    api.define(type.name, fields);
  }
  const sent: string[] = [];
  // Devour's own extension point: a response middleware that notes the path axios requested.
  api.insertMiddlewareBefore('response', {
    name: 'note-request',
    res: (payload: { res: { request: { path: string } } }) => {
      sent.push(payload.res.request.path);
      return payload;
    },
  });
  return { api, sent };
}

const devourClient: Client = {
  name: 'devour',
  read: () => null,
  related: (model, relationship) => model[relationship],
};

const WALKS = [
  { type: 'trade-activities', include: 'concerns.broader-concepts,origin.country', sort: '-financial-year', limit: 3 },
  { type: 'concepts', include: 'broader-concepts,concept-scheme', sort: 'label', limit: 4 },
];
/**
 * Devour resolves related resources from `included` only: one that is primary data of the same
 * document (a concept's broader concept on the same page) comes back as a bare identifier, or is
 * left out of a to-many array. The spec puts each resource once, in `data` then, so devour's
 * walks include other types only.
 */
const DEVOUR_WALKS = [
  WALKS[0]!,
  { type: 'concepts', include: 'concept-scheme,top-concept-of', sort: 'label', limit: 4 },
];

describeEachStore('JSON:API client libraries fetch, include and page (Orbit, devour-client)', (h) => {
  it.each(WALKS)(
    'orbit: findRecords($type).sort($sort).page({ offset, limit: $limit }) with include walks the list to the end',
    async ({ type, include, sort, limit }) => {
      const { remote, memory } = orbitSetup(h().api.baseUrl);
      const expected = oracle.order(type, nonEmpty(oracle.members(type), type), sort);
      const seen: string[] = [];
      const urls: string[] = [];
      for (let offset: number | undefined = 0; offset !== undefined; ) {
        const page = offset;
        const result = (await remote.query((q) => q.findRecords(type).sort(sort).page({ offset: page, limit }), {
          include: include.split(','),
          fullResponse: true,
        })) as unknown as { data: InitializedRecord[]; details: { response: Response; document: any }[] };
        const { response, document } = result.details[0]!;
        urls.push(response.url);
        expect(result.data.length).toBeLessThanOrEqual(limit);
        seen.push(...result.data.map((r) => r.id));
        const next = document.links.next as string | null;
        // The next page is the one Orbit asks for with the offset the server's next link gives.
        offset = next === null ? undefined : Number(new URL(next, h().api.baseUrl).searchParams.get('page[offset]'));
        if (offset !== undefined) expect(offset).toBe(page + limit);
        expect(seen.length, 'the walk ends').toBeLessThanOrEqual(expected.length);
      }
      expect(seen).toEqual(expected);
      for (const url of urls) {
        const params = new URL(url).searchParams;
        expect([params.get('page[offset]'), params.get('page[limit]')], url).toEqual([expect.any(String), `${limit}`]);
        expect(params.has('page[number]'), url).toBe(false);
      }
      // The whole graph, from what Orbit's memory source now holds.
      const client = orbitClient(memory);
      const records = memory.cache.query((q) => q.findRecords(type)) as InitializedRecord[];
      expect(records.map((r) => r.id).sort()).toEqual([...expected].sort());
      for (const id of expected) {
        const record = memory.cache.query((q) => q.findRecord({ type, id })) as InitializedRecord;
        expectGraph(
          client,
          orbitModel(record),
          type,
          oracle.member(type, id)!,
          includeTree(include),
          {},
          `${type}/${id}`,
        );
      }
    },
  );

  it('orbit: findRecord and findRelatedRecords reach single resources and related collections', async () => {
    const { remote, memory } = orbitSetup(h().api.baseUrl);
    for (const member of activities) {
      const include = 'concerns.broader-concepts,destination.country';
      await remote.query((q) => q.findRecord({ type: 'trade-activities', id: member.id }), {
        include: include.split(','),
      });
      const record = memory.cache.query((q) =>
        q.findRecord({ type: 'trade-activities', id: member.id }),
      ) as InitializedRecord;
      expectGraph(
        orbitClient(memory),
        orbitModel(record),
        'trade-activities',
        member,
        includeTree(include),
        {},
        member.id,
      );
      const related = (await remote.query((q) =>
        q.findRelatedRecords({ type: 'trade-activities', id: member.id }, 'concerns'),
      )) as InitializedRecord[];
      expect(related.map((r) => r.id)).toEqual(
        oracle.related('trade-activities', member.iri, 'concerns').map((m) => m.id),
      );
    }
  });

  it.each(DEVOUR_WALKS)(
    'devour: findAll($type, { include, sort, page: { size: $limit } }), then its request(links.next) to the end',
    async ({ type, include, sort, limit }) => {
      const { api, sent } = devourSetup(h().api.baseUrl);
      const expected = oracle.order(type, nonEmpty(oracle.members(type), type), sort);
      const seen: string[] = [];
      let result = await api.findAll(type, { include, sort, page: { size: limit } });
      for (;;) {
        const models = result.data as Model[];
        expect(models.length).toBeLessThanOrEqual(limit);
        for (const model of models)
          expectGraph(devourClient, model, type, oracle.member(type, model.id)!, includeTree(include), {}, model.id);
        seen.push(...models.map((m) => m.id));
        expect(seen.length, 'the walk ends').toBeLessThanOrEqual(expected.length);
        if (result.links.next === null) break;
        result = await api.request(new URL(result.links.next, h().api.baseUrl).href);
      }
      expect(seen).toEqual(expected);
      // Devour sent the page parameters it was given (page[size], brackets encoded by axios), then the server's links.
      const first = new URL(sent[0]!, 'http://x').searchParams;
      expect([first.get('page[size]'), first.get('include'), first.get('sort')]).toEqual([`${limit}`, include, sort]);
      expect(sent).toHaveLength(Math.ceil(expected.length / limit));
      for (const path of sent.slice(1))
        expect(new URL(path, 'http://x').searchParams.get('page[size]')).toBe(`${limit}`);
    },
  );

  it('devour: find(type, id) with include and a related collection', async () => {
    const { api } = devourSetup(h().api.baseUrl);
    for (const member of activities) {
      const include = 'concerns.broader-concepts,destination.country,amount';
      const single = await api.find('trade-activities', member.id, { include });
      expectGraph(devourClient, single.data, 'trade-activities', member, includeTree(include), {}, member.id);
    }
  });
});
