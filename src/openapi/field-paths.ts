import type { Mapping, Relationship, ResourceType } from '../mapping/model.js';
import { MAX_HOPS } from '../mapping/resolve-path.js';

/**
 * The most values an enumeration of paths (sort fields, include paths, filter paths) may list.
 * Paths through three relationships multiply: a type with many relationships between a few types
 * reaches thousands. Past the bound the document states the grammar (a pattern) instead, which is
 * still exactly right, only less specific.
 */
export const MAX_ENUMERATED = 60;

/** A chain of relationships followed from a type, and the type it ends on. */
export interface Chain {
  /** The relationship names, joined by dots (`concerns.broader-concepts`); `''` for no hop. */
  readonly path: string;
  readonly hops: readonly Relationship[];
  readonly end: ResourceType;
}

/**
 * Every chain of at most `maxHops` relationships from `type`, breadth first (the empty chain
 * first), or `undefined` when there are more than `limit`.
 *
 * @example chains(mapping, concepts, 1, 400)?.map((c) => c.path) // ['', 'broader-concepts', 'narrower-concepts', …]
 */
export function chains(mapping: Mapping, type: ResourceType, maxHops: number, limit: number): Chain[] | undefined {
  const found: Chain[] = [{ path: '', hops: [], end: type }];
  let level = found;
  for (let depth = 0; depth < maxHops; depth++) {
    const next: Chain[] = [];
    for (const chain of level) {
      for (const relationship of chain.end.relationships.values()) {
        const end = mapping.types.get(relationship.target);
        if (!end) continue;
        const path = chain.path === '' ? relationship.name : `${chain.path}.${relationship.name}`;
        next.push({ path, hops: [...chain.hops, relationship], end });
        if (found.length + next.length > limit) return undefined;
      }
    }
    found.push(...next);
    level = next;
  }
  return found;
}

/**
 * The fields `sort` takes on a list of `type` (without their `-`): `id`, every attribute, and
 * dot paths through up to three relationships to an attribute (`mapping/resolve-path.ts`); or
 * `undefined` when there are more than {@link MAX_ENUMERATED}.
 *
 * @example sortFields(mapping, countries) // ['id', 'iso-code', 'name']
 */
export function sortFields(mapping: Mapping, type: ResourceType): string[] | undefined {
  const all = chains(mapping, type, MAX_HOPS, MAX_ENUMERATED);
  if (!all) return undefined;
  const fields = all.flatMap((chain) =>
    [...chain.end.attributes.values()]
      .filter((a) => !a.fields)
      .map(({ name }) => (chain.path === '' ? name : `${chain.path}.${name}`)),
  );
  return fields.length + 1 > MAX_ENUMERATED ? undefined : ['id', ...fields];
}

/**
 * The paths `include` takes from `type`: every chain of 1 to `depth` relationships; `undefined`
 * when there are more than {@link MAX_ENUMERATED}.
 *
 * @example includePaths(mapping, tradeActivities, 1) // ['concerns', 'origin', 'destination', 'amount']
 */
export function includePaths(mapping: Mapping, type: ResourceType, depth: number): string[] | undefined {
  return chains(mapping, type, depth, MAX_ENUMERATED + 1)
    ?.slice(1)
    .map((chain) => chain.path);
}

/** The types whose resources an `include` from `type` can reach, within `depth` relationships. */
export function reachableTypes(mapping: Mapping, type: ResourceType, depth: number): ResourceType[] {
  const seen = new Set<ResourceType>();
  let level = [type];
  for (let hop = 0; hop < depth && level.length > 0; hop++) {
    const next: ResourceType[] = [];
    for (const from of level) {
      for (const relationship of from.relationships.values()) {
        const target = mapping.types.get(relationship.target);
        if (target && !seen.has(target)) {
          seen.add(target);
          next.push(target);
        }
      }
    }
    level = next;
  }
  return [...seen];
}
