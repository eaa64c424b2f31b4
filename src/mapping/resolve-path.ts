import { EVERY_LANGUAGE } from './language.js';
import type { Mapping, Relationship, ResolvedPath, ResourceType, SortKey } from './model.js';

/** Longest relationship chain a sort path may follow (docs/api.md documents this limit). */
export const MAX_HOPS = 3;

/**
 * Resolves `path` from `type` to the attribute it names, or explains why it can't.
 *
 * @example resolvePath(mapping, tradeActivities, 'origin.country.name') // { hops: [origin, country], end: name }
 * @returns the resolved path, or a string saying what is wrong with it.
 */
export function resolvePath(mapping: Mapping, type: ResourceType, path: string): ResolvedPath | string {
  const names = path.split('.');
  const hops: Relationship[] = [];
  let current = type;
  for (const [index, name] of names.entries()) {
    const last = index === names.length - 1;
    if (name === '') return `'${path}' has an empty segment`;
    if (last) {
      if (name === 'id' && hops.length === 0) return { hops, end: 'id', multiValued: false };
      const attribute = current.attributes.get(name);
      if (attribute?.fields)
        return `'${name}' is a structured attribute (an object per value): it has no order, and no value to compare`;
      if (attribute) {
        // `language: '*'` shows every value, so it sorts like a `many` attribute: least ascending, greatest descending.
        const many = attribute.many || attribute.language === EVERY_LANGUAGE;
        return { hops, end: attribute, multiValued: many || hops.some((h) => h.cardinality === 'many') };
      }
      if (current.relationships.has(name))
        return `'${path}' ends on the relationship '${name}'; name one of its attributes (${name}.<attribute>)`;
      return `'${current.name}' has no attribute '${name}'`;
    }
    const relationship = current.relationships.get(name);
    if (current.attributes.get(name)?.fields)
      return `'${name}' is a structured attribute: the fields inside its values can't be sorted or filtered by`;
    if (!relationship) return `'${current.name}' has no relationship '${name}'`;
    if (hops.length === MAX_HOPS) return `'${path}' follows more than ${MAX_HOPS} relationships`;
    const target = mapping.types.get(relationship.target);
    if (!target) return `'${name}' points at '${relationship.target}', which is not a type`;
    hops.push(relationship);
    current = target;
  }
  return `'${path}' is empty`;
}

/**
 * Resolves one sort field (`-financial-year`, `origin.country.name`) from `type`, or explains why
 * it can't.
 *
 * @example resolveSortField(mapping, tradeActivities, '-financial-year') // { field: 'financial-year', descending: true, path }
 */
export function resolveSortField(mapping: Mapping, type: ResourceType, raw: string): SortKey | string {
  const descending = raw.startsWith('-');
  const field = descending ? raw.slice(1) : raw;
  const path = resolvePath(mapping, type, field);
  return typeof path === 'string' ? path : { field, descending, path };
}

/** The names a client may sort `type` by directly, for error details. */
export function sortableFields(type: ResourceType): string[] {
  const attributes = [...type.attributes.values()].filter((a) => !a.fields).map((a) => a.name);
  return ['id', ...attributes, ...[...type.relationships.keys()].map((name) => `${name}.<attribute>`)];
}
