import { notFound } from './errors/json-api-error.js';
import type { Mapping, ResourceType } from './mapping/model.js';
import type { Plan } from './plan/plan-request.js';
import { buildFetchQuery } from './sparql/fetch-query.js';
import { buildListQuery, type ListRequest } from './sparql/list-query.js';
import { toText } from './sparql/to-text.js';
import { dataDocument, linkageDocument, type Document } from './shape/documents.js';
import { groupValues, membersOf, resourceObject, type Member, type ResourceObject } from './shape/resource-objects.js';
import type { QueryRecorder } from './store/query-recorder.js';

/** Where the document's links point: `self` of this request, `related` for relationship URLs. */
export interface DocumentLinks {
  readonly linkBase: string;
  readonly self: string;
  readonly related: string;
}

/**
 * Runs a plan against the store and shapes the JSON:API document. This is where a request becomes
 * SPARQL: at most one list query (which members, in which order) and one fetch query (their
 * attributes) per request, whatever the number of resources.
 */
export async function execute(mapping: Mapping, plan: Plan, store: QueryRecorder, links: DocumentLinks): Promise<Document> {
  switch (plan.kind) {
    case 'resource': {
      const rows = await store.select(toText(buildFetchQuery(plan.type, { lookup: plan.lookup })));
      const iri = rows[0]?.s?.value;
      if (iri === undefined) throw notFound(`There is no ${plan.type.name} with this id.`);
      return dataDocument(resourceObject(plan.type, { iri, id: plan.id }, groupValues(rows).get(iri), links.linkBase), links.self);
    }
    case 'collection': {
      const members = await list(mapping, plan.list, store);
      return dataDocument(await fetchResources(plan.list.type, members, store, links.linkBase), links.self);
    }
    case 'related-one': {
      const [first] = await list(mapping, plan.list, store);
      const [resource] = first ? await fetchResources(plan.list.type, [first], store, links.linkBase) : [];
      return dataDocument(resource ?? null, links.self);
    }
    case 'linkage': {
      const identifiers = (await list(mapping, plan.list, store)).map(({ id }) => ({ type: plan.list.type.name, id }));
      return linkageDocument(plan.toMany ? identifiers : (identifiers[0] ?? null), links.self, links.related);
    }
  }
}

/** The ordered members of a list; 404 when the list hangs off a parent that does not exist. */
async function list(mapping: Mapping, request: ListRequest, store: QueryRecorder): Promise<Member[]> {
  const rows = await store.select(toText(buildListQuery(mapping, request)));
  if (request.parent && rows.length === 0) throw notFound(`There is no ${request.parent.type.name} with this id.`);
  return membersOf(request.type, rows);
}

async function fetchResources(type: ResourceType, members: Member[], store: QueryRecorder, linkBase: string): Promise<ResourceObject[]> {
  const needsFetch = members.length > 0 && type.attributes.size > 0;
  const values = needsFetch ? groupValues(await store.select(toText(buildFetchQuery(type, { iris: members.map((m) => m.iri) })))) : new Map();
  return members.map((member) => resourceObject(type, member, values.get(member.iri), linkBase));
}
