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
