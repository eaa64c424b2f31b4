import type { Mapping, Relationship, ResourceType } from '../mapping/model.js';

/**
 * The IRIs an answer can depend on: for every resource type the plan (or list request) touches,
 * its class, its id predicate, every predicate of its attributes and relationships (either
 * direction), and the class and id predicate of each relationship's target (linkage checks a
 * target's type and shows its id). A type is touched when the plan holds it (the requested type, a
 * parent, an include) or follows a relationship to it (a sort, filter or include path). Changes
 * to triples of other predicates, or to `rdf:type` with another class, leave the answer as it is
 * (`change-rules.ts`), so a cache entry is dropped only when one of these changed.
 *
 * The plan is walked whole rather than field by field, so that a new kind of filter or path
 * cannot be forgotten: whatever mapping part it holds is found.
 *
 * @example planReads(mapping, planRequest(mapping, route, parameters, options, profiles))
 */
export function planReads(mapping: Mapping, plan: object): string[] {
  const types = new Set<ResourceType>();
  const seen = new WeakSet<object>();
  const walk = (value: unknown): void => {
    if (value === null || typeof value !== 'object' || seen.has(value)) return;
    seen.add(value);
    if (isResourceType(value)) {
      types.add(value);
      return;
    }
    if (isRelationship(value)) {
      const target = mapping.types.get(value.target);
      if (target) types.add(target);
    }
    const children = value instanceof Map ? value.values() : Array.isArray(value) ? value : Object.values(value);
    for (const child of children) walk(child);
  };
  walk(plan);
  const reads = new Set<string>();
  for (const type of types) {
    typeReads(type, reads);
    for (const relationship of type.relationships.values()) {
      reads.add(relationship.predicate);
      const target = mapping.types.get(relationship.target);
      if (target) identityReads(target, reads);
    }
  }
  return [...reads];
}

/** A type's class, id predicate and attribute predicates. */
function typeReads(type: ResourceType, reads: Set<string>): void {
  identityReads(type, reads);
  for (const attribute of type.attributes.values()) reads.add(attribute.predicate);
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
