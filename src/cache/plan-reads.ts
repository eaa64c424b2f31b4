import { fieldPredicates } from '../mapping/compile-attribute.js';
import type { Attribute, Mapping, Relationship, ResourceType } from '../mapping/model.js';
import type { ListRequest, ParentRef, Plan } from '../plan/plan.js';
import { resourceKey } from './resource-key.js';

/**
 * The IRIs an answer can depend on: for every resource type the plan (or list request) touches,
 * its class, its id predicate, every predicate of its attributes and relationships (either
 * direction), and the class and id predicate of each relationship's target (linkage checks a
 * target's type and shows its id). A type is touched when the plan holds it (the requested type, a
 * parent, an include) or follows a relationship to it (a sort, filter or include path). Changes
 * to triples of other predicates, or to `rdf:type` with another class, leave the answer as it is
 * (`change-rules.ts`), so a cache entry is dropped only when one of these changed.
 *
 * An answer about one resource whose IRI is known (the plan's, or `found`: the IRI the store gave
 * for a `predicate` id) reads the predicates of that resource by its {@link resourceKey}s instead:
 * a single resource's attributes and relationships, a related or relationship URL's relationship
 * of its parent. The rest stays keyed by bare IRIs: the resource's class and id predicate, and
 * whatever else the plan touches (its include, the listed type of a related URL).
 *
 * A page without `include` whose members are known (`shown`: its primary data) reads the listed
 * type's attributes that its list does not sort or filter by of those members alone, by their
 * resource keys: a new label of a resource the page does not show keeps it. What the list reads
 * (its order, members and filters: {@link listReads}) stays keyed by bare IRIs.
 *
 * The plan is walked whole rather than field by field, so that a new kind of filter or path
 * cannot be forgotten: whatever mapping part it holds is found.
 *
 * @example planReads(mapping, planRequest(mapping, { route, query: parameters, profiles }, options))
 */
export function planReads(mapping: Mapping, plan: Plan, found?: string, shown?: readonly string[]): string[] {
  const one = oneResource(plan, found);
  const { types } = walk(mapping, one ? one.rest : plan);
  const reads = new Set<string>();
  const page = shownPage(plan, shown);
  for (const type of types) {
    if (type === page?.type) identityReads(type, reads);
    else typeReads(type, reads);
    for (const relationship of type.relationships.values()) relationshipReads(mapping, relationship, reads);
  }
  if (page) {
    for (const iri of listReads(mapping, page.list)) reads.add(iri);
    for (const attribute of page.type.attributes.values()) {
      fieldReads(attribute, reads);
      if (reads.has(attribute.predicate)) continue; // read by predicate anyway
      for (const member of page.members) keyReads(attribute.predicate, member, reads);
    }
  }
  if (one?.type) {
    identityReads(one.type, reads);
    for (const attribute of one.type.attributes.values()) {
      keyReads(attribute.predicate, one.iri, reads);
      fieldReads(attribute, reads);
    }
    for (const relationship of one.type.relationships.values())
      relationshipReads(mapping, relationship, reads, one.iri);
  }
  if (one?.parent) parentReads(mapping, one.parent, one.iri, reads);
  return [...reads];
}

/**
 * The IRIs a whole ordered list depends on (what the window cache keeps: its members in order,
 * and their sort key values), narrower than {@link planReads}: the listed type's class and id
 * predicate, and only the predicates its sort keys, filters and parent follow, with the class and
 * id predicate of each type they reach (a member of a hop must be of its type). The attributes the
 * page shows are read by another query, after the list: a change to them leaves the list as it is.
 * A parent known by its IRI is read by its {@link resourceKey} (as in {@link planReads}).
 *
 * @example listReads(mapping, { type, sort: type.defaultSort, filters: [] })
 */
export function listReads(mapping: Mapping, request: ListRequest): string[] {
  const parentIri = request.parent?.lookup.kind === 'iri' ? request.parent.lookup.iri : undefined;
  // A parent known by its IRI: its relationship is read of it alone.
  const { types, relationships, attributes } = walk(mapping, parentIri ? { ...request, parent: undefined } : request);
  const reads = new Set<string>();
  if (parentIri) parentReads(mapping, request.parent!, parentIri, reads);
  for (const type of types) identityReads(type, reads);
  for (const relationship of relationships) reads.add(relationship.predicate);
  for (const attribute of attributes) reads.add(attribute.predicate);
  return [...reads];
}

/**
 * The IRIs a list's filters read: the predicates their paths follow and end on, and the class and
 * id predicate of each type a path reaches (not the listed type's own: its members hold those).
 *
 * @example filterReads(mapping, parseFilters(…)) // [elod:concerns, skos:Concept, skos:prefLabel]
 */
export function filterReads(mapping: Mapping, filters: ListRequest['filters']): Set<string> {
  const { types, relationships, attributes } = walk(mapping, filters);
  const reads = new Set<string>();
  for (const type of types) identityReads(type, reads);
  for (const relationship of relationships) reads.add(relationship.predicate);
  for (const attribute of attributes) reads.add(attribute.predicate);
  return reads;
}

/**
 * Every mapping part `value` holds, walked whole: the types it holds or reaches through a
 * relationship, the relationships and the attributes. A type's own attributes and relationships
 * are not walked: holding a type says what it is, not what it shows.
 */
function walk(mapping: Mapping, value: object) {
  const types = new Set<ResourceType>();
  const relationships = new Set<Relationship>();
  const attributes = new Set<Attribute>();
  const seen = new WeakSet<object>();
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    if (isResourceType(node)) {
      types.add(node);
      return;
    }
    if (isRelationship(node)) {
      relationships.add(node);
      const target = mapping.types.get(node.target);
      if (target) types.add(target);
    } else if (isAttribute(node)) attributes.add(node);
    const children = node instanceof Map ? node.values() : Array.isArray(node) ? node : Object.values(node);
    for (const child of children) visit(child);
  };
  visit(value);
  return { types, relationships, attributes };
}

/**
 * The list of a page whose shown attributes can be read of its members alone: a collection or a
 * related to-one document without `include` (an included resource of the listed type would show
 * them of other resources), whose members the executor said (`Trace.shown`).
 */
function shownPage(plan: Plan, shown: readonly string[] | undefined) {
  if (shown === undefined || (plan.kind !== 'collection' && plan.kind !== 'related-one')) return undefined;
  if (plan.view.include !== undefined) return undefined;
  return { type: plan.list.type, list: plan.list, members: shown };
}

/**
 * The one resource an answer is about, if its IRI is known, and what of the plan is read of other
 * resources (`rest`, walked as usual): a single resource's document (its `type`), or the list of
 * a related or relationship URL (its `parent`).
 */
function oneResource(plan: Plan, found: string | undefined) {
  if (plan.kind === 'resource') {
    const iri = plan.lookup.kind === 'iri' ? plan.lookup.iri : found;
    return iri === undefined ? undefined : { iri, type: plan.type, rest: plan.view };
  }
  const { parent } = plan.list;
  if (parent?.lookup.kind !== 'iri') return undefined;
  return { iri: parent.lookup.iri, parent, rest: { ...plan, list: { ...plan.list, parent: undefined } } };
}

/** A parent's class and id predicate, and its relationship read of it alone (`iri`). */
function parentReads(mapping: Mapping, parent: ParentRef, iri: string, reads: Set<string>): void {
  identityReads(parent.type, reads);
  relationshipReads(mapping, parent.relationship, reads, iri);
}

/** A relationship's predicate (of `iri` alone when given), and its target's class and id predicate. */
function relationshipReads(mapping: Mapping, relationship: Relationship, reads: Set<string>, iri?: string): void {
  if (iri === undefined) reads.add(relationship.predicate);
  else keyReads(relationship.predicate, iri, reads);
  const target = mapping.types.get(relationship.target);
  if (target) identityReads(target, reads);
}

/** A predicate read of one resource: its key, and the key of a change whose resource can't be told (a blank node). */
function keyReads(predicate: string, iri: string, reads: Set<string>): void {
  reads.add(resourceKey(predicate, iri));
  reads.add(resourceKey(predicate));
}

/** A type's class, id predicate and attribute predicates. */
function typeReads(type: ResourceType, reads: Set<string>): void {
  identityReads(type, reads);
  for (const attribute of type.attributes.values()) {
    reads.add(attribute.predicate);
    fieldReads(attribute, reads);
  }
}

/**
 * A structured attribute's field predicates, bare: its nodes are no resources an answer is about
 * (a blank node has no key), so any change of those predicates can change it.
 */
function fieldReads(attribute: Attribute, reads: Set<string>): void {
  for (const predicate of fieldPredicates(attribute)) reads.add(predicate);
}

/** What says a resource is of this type and what its id is. */
function identityReads(type: ResourceType, reads: Set<string>): void {
  reads.add(type.classIri);
  if (type.id.kind === 'predicate') reads.add(type.id.predicate);
}

const isResourceType = (value: object): value is ResourceType =>
  'classIri' in value && 'attributes' in value && value.attributes instanceof Map;

const isRelationship = (value: object): value is Relationship =>
  'predicate' in value && 'target' in value && 'inverse' in value;

const isAttribute = (value: object): value is Attribute =>
  'predicate' in value && 'many' in value && !('target' in value);
