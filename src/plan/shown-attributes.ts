import type { Attribute, ResourceType } from '../mapping/model.js';
import type { Fieldsets } from '../request/parse-fields.js';

/**
 * The attributes a type's resource objects show under the request's sparse fieldsets: the ones
 * to fetch from the store (no other predicate is asked for); then the link fields of the
 * relationships they show whose objects carry linkage (`mapping/linkage.ts`), read alongside.
 *
 * @example shownAttributes(concepts, new Map([['concepts', new Set(['label'])]])) // [label]
 */
export function shownAttributes(type: ResourceType, fieldsets: Fieldsets): Attribute[] {
  const fields = fieldsets.get(type.name);
  const shown = (field: Attribute) => fields === undefined || fields.has(field.name);
  return [...type.attributes.values(), ...(type.linkFields?.values() ?? [])].filter(shown);
}
