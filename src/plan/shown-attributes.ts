import type { Attribute, ResourceType } from '../mapping/model.js';
import type { Fieldsets } from '../request/parse-fields.js';

/**
 * The attributes a type's resource objects show under the request's sparse fieldsets: the ones
 * to fetch from the store (no other predicate is asked for).
 *
 * @example shownAttributes(concepts, new Map([['concepts', new Set(['label'])]])) // [label]
 */
export function shownAttributes(type: ResourceType, fieldsets: Fieldsets): Attribute[] {
  const fields = fieldsets.get(type.name);
  return [...type.attributes.values()].filter((attribute) => fields === undefined || fields.has(attribute.name));
}
