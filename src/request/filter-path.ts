import type { Attribute, Mapping, Relationship, ResourceType } from '../mapping/model.js';
import { MAX_HOPS, resolvePath } from '../mapping/resolve-path.js';

/**
 * What a filter path names, resolved against the mapping:
 * - `attribute`: the values of an attribute, reached through `hops` (maybe none)
 * - `ids`: the ids of resources of `type`: the listed resource itself when `hops` is empty
 *   (`filter[id]`), else what the last relationship of `hops` points at (`filter[concerns]`)
 */
export type FilterPath =
  | { readonly kind: 'attribute'; readonly hops: readonly Relationship[]; readonly attribute: Attribute }
  | { readonly kind: 'ids'; readonly hops: readonly Relationship[]; readonly type: ResourceType };

/**
 * Resolves a filter path: `id`, an attribute, a relationship, or a dot path through
 * relationships to either (at most {@link MAX_HOPS} relationships in all).
 *
 * @example resolveFilterPath(mapping, tradeActivities, 'concerns.notation') // { kind: 'attribute', hops: [concerns], attribute: notation }
 * @example resolveFilterPath(mapping, tradeActivities, 'origin.country') // { kind: 'ids', hops: [origin, country], type: countries }
 * @returns the resolved path, or a string saying what is wrong with it.
 */
export function resolveFilterPath(mapping: Mapping, type: ResourceType, path: string): FilterPath | string {
  const relationships = relationshipChain(mapping, type, path.split('.'));
  if (relationships) {
    if (relationships.hops.length > MAX_HOPS) return `'${path}' follows more than ${MAX_HOPS} relationships`;
    return { kind: 'ids', hops: relationships.hops, type: relationships.end };
  }
  const names = path.split('.');
  const last = names.at(-1)!;
  const before = relationshipChain(mapping, type, names.slice(0, -1));
  if (
    before &&
    before.hops.length <= MAX_HOPS &&
    last !== '' &&
    !before.end.attributes.has(last) &&
    !(last === 'id' && names.length === 1)
  ) {
    return `'${before.end.name}' has no attribute or relationship '${last}'`;
  }
  const resolved = resolvePath(mapping, type, path);
  if (typeof resolved === 'string') return resolved;
  return resolved.end === 'id'
    ? { kind: 'ids', hops: [], type }
    : { kind: 'attribute', hops: resolved.hops, attribute: resolved.end };
}

/** The relationships `names` follow from `type`, when every name is one; `undefined` otherwise. */
function relationshipChain(
  mapping: Mapping,
  type: ResourceType,
  names: string[],
): { hops: Relationship[]; end: ResourceType } | undefined {
  const hops: Relationship[] = [];
  let current = type;
  for (const name of names) {
    const relationship = current.relationships.get(name);
    const target = relationship && mapping.types.get(relationship.target);
    if (!relationship || !target) return undefined;
    hops.push(relationship);
    current = target;
  }
  return { hops, end: current };
}

/**
 * What a client may filter `type` by directly, for error details.
 *
 * @example filterableFields(concepts) // ['id', 'notation', 'label', 'broader-concepts', …, 'broader-concepts.<field>', …]
 */
export function filterableFields(type: ResourceType): string[] {
  const relationships = [...type.relationships.keys()];
  const attributes = [...type.attributes.values()].filter((a) => !a.fields).map((a) => a.name);
  return ['id', ...attributes, ...relationships, ...relationships.map((name) => `${name}.<field>`)];
}
