import { notFound } from '../errors/json-api-error.js';
import type { Mapping } from '../mapping/model.js';
import type { Plan, View } from '../plan/plan.js';
import { shownAttributes } from '../plan/shown-attributes.js';
import { type Document, dataDocument, linkageDocument } from '../shape/documents.js';
import type { PageBase } from '../shape/page-links.js';
import { type Member, type ResourceObject, resourceObject } from '../shape/resource-objects.js';
import { fetchQuery } from '../sparql/fetch-query.js';
import type { Store } from '../store/store.js';
import { type Inclusion, includeRelated, type PrimaryResources } from './include-related.js';
import { listPage, listWindow } from './list-page.js';
import type { PathContext, Remembered } from './paths/access-path.js';
import { type FieldValues, groupValues } from './rows.js';
import { runQuery } from './run-query.js';
import { Trace } from './trace.js';

/** Where the document's links point: `self` of this request, `related` for relationship URLs, and the base of page links. */
export interface DocumentLinks {
  readonly linkBase: string;
  readonly self: string;
  readonly related: string;
  readonly page: PageBase;
}

/** What running a plan needs besides the plan: the request's store, its links and trace, and what the app remembers. */
export interface ExecuteOptions extends Remembered {
  readonly store: Store;
  readonly links: DocumentLinks;
  readonly trace?: Trace;
}

/**
 * Runs a plan against the store and shapes the JSON:API document. This is where a request becomes
 * SPARQL: a list query (which members, in which order; `list-page.ts`), a count query when the
 * page needs a total (sent alongside), one fetch query (their attributes, as many as the fieldset shows), and
 * one query per include level (`include-related.ts`), whatever the number of resources. With the
 * dataset's kept lists (`kept`), pages of lists are cut from whole lists instead. Each step (an
 * access path, the fetch, an include level) is written to `trace`, for `Server-Timing` and explain.
 *
 * @example await execute(mapping, plan, { store: recorder, links })
 */
export function execute(mapping: Mapping, plan: Plan, options: ExecuteOptions): Promise<Document> {
  const { store, links, trace = new Trace(), kept, hints, memo } = options;
  const context: PathContext = { mapping, store, trace, kept, hints, memo };
  switch (plan.kind) {
    case 'resource':
      return resource(plan, context, links);
    case 'collection':
      return collection(plan, context, links);
    case 'related-one':
      return relatedOne(plan, context, links);
    case 'linkage':
      return linkage(plan, context, links);
  }
}

/** A single resource by its id. */
async function resource(plan: Extract<Plan, { kind: 'resource' }>, context: PathContext, links: DocumentLinks) {
  const { store, trace, memo } = context;
  const { type, view } = plan;
  // A template or hex id gives the IRI before the store answers: the include levels go alongside the lookup.
  const known = plan.lookup.kind === 'iri' ? { iri: plan.lookup.iri, id: plan.id } : undefined;
  trace.step(
    'resource',
    `one resource by its id (${plan.lookup.kind === 'iri' ? 'its IRI from the id' : 'looked up by the id'})`,
  );
  const fetch = fetchQuery(type, { lookup: plan.lookup }, shownAttributes(type, view.fields), memo);
  const [rows, early] = await Promise.all([
    runQuery(store, fetch, 'light', 'resource'),
    known && include(view, { type, members: [known] }, context, links.linkBase),
  ]);
  const values = groupValues(rows);
  const iri = values.keys().next().value;
  if (iri === undefined) throw notFound(`There is no ${type.name} with this id.`);
  // Two resources sharing a `predicate` id: which one shows is the store's pick, read of neither alone.
  if (values.size === 1) trace.found = iri;
  const member = { iri, id: plan.id };
  const inclusion = known ? early : await include(view, { type, members: [member] }, context, links.linkBase);
  const object = resourceObject(type, member, values.get(iri), {
    linkBase: links.linkBase,
    fields: view.fields.get(type.name),
    linkage: inclusion?.linkageOf(member),
  });
  return dataDocument(object, links.self, undefined, inclusion?.included);
}

/** A page of a collection, or of a related list. */
async function collection(plan: Extract<Plan, { kind: 'collection' }>, context: PathContext, links: DocumentLinks) {
  const { type } = plan.list;
  const attributes = shownAttributes(type, plan.view.fields);
  const page = await listPage(context, { request: plan.list, paging: plan.paging, base: links.page, attributes });
  context.trace.shown = page.members.map((member) => member.iri);
  const { data, included } = await fetchResources({ type, members: page.members }, plan.view, context, {
    linkBase: links.linkBase,
    fetched: page.values,
  });
  return dataDocument(data, links.self, page.parts, included);
}

/** What a to-one relationship points at. */
async function relatedOne(plan: Extract<Plan, { kind: 'related-one' }>, context: PathContext, links: DocumentLinks) {
  const [first] = await listWindow(context, plan.list, { limit: 1, offset: 0 });
  context.trace.shown = first ? [first.iri] : [];
  const primary = { type: plan.list.type, members: first ? [first] : [] };
  const { data, included } = await fetchResources(primary, plan.view, context, { linkBase: links.linkBase });
  return dataDocument(data[0] ?? null, links.self, undefined, included);
}

/** A relationship's linkage: one identifier (to-one), or a page of them. */
async function linkage(plan: Extract<Plan, { kind: 'linkage' }>, context: PathContext, links: DocumentLinks) {
  const identifiers = (members: readonly Member[]) => members.map(({ id }) => ({ type: plan.list.type.name, id }));
  if (!plan.paging) {
    const [first] = identifiers(await listWindow(context, plan.list, { limit: 1, offset: 0 }));
    return linkageDocument(first ?? null, links.self, links.related);
  }
  const page = await listPage(context, { request: plan.list, paging: plan.paging, base: links.page });
  return linkageDocument(identifiers(page.members), links.self, links.related, page.parts);
}

/**
 * The resource objects of known members, and the included resources when the request has
 * `include`. The fetch (none when the fieldset shows no attribute, or when the list query
 * brought the `fetched` values already) and the first include level go out together.
 */
async function fetchResources(
  primary: PrimaryResources,
  view: View,
  context: PathContext,
  { linkBase, fetched }: { linkBase: string; fetched?: Map<string, FieldValues> | undefined },
): Promise<{ data: ResourceObject[]; included?: ResourceObject[] }> {
  const { type, members } = primary;
  const { store, trace, memo } = context;
  const attributes = shownAttributes(type, view.fields);
  const fetch = !fetched && members.length > 0 && attributes.length > 0;
  if (fetch) trace.step('fetch', `the attributes of the page's ${members.length} resources, by VALUES`);
  const iris = members.map((m) => m.iri);
  const [rows, inclusion] = await Promise.all([
    fetch ? runQuery(store, fetchQuery(type, { iris }, attributes, memo), 'light', 'fetch') : [],
    include(view, primary, context, linkBase),
  ]);
  const values = fetched ?? groupValues(rows);
  const fields = view.fields.get(type.name);
  const data = members.map((member) =>
    resourceObject(type, member, values.get(member.iri), { linkBase, fields, linkage: inclusion?.linkageOf(member) }),
  );
  return inclusion ? { data, included: inclusion.included } : { data };
}

/** The include levels of a request that has `include` (possibly empty); undefined otherwise, and the document has no `included`. */
function include(
  view: View,
  primary: PrimaryResources,
  { store, trace }: PathContext,
  linkBase: string,
): Promise<Inclusion> | undefined {
  const { include: tree, fields: fieldsets, maxIncluded } = view;
  return tree && includeRelated(tree, primary, { store, linkBase, fieldsets, maxIncluded, trace });
}
