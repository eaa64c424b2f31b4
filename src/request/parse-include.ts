import { badParameter } from '../errors/json-api-error.js';
import type { Mapping, Relationship, ResourceType } from '../mapping/model.js';

/** One relationship to include, with the paths that continue from its targets. */
export interface IncludeNode {
  readonly relationship: Relationship;
  /** The relationship's target type. */
  readonly type: ResourceType;
  readonly children: readonly IncludeNode[];
}

/** How many relationships an include path may follow, unless the dataset says otherwise. */
export const DEFAULT_INCLUDE_DEPTH = 3;

/**
 * Parses an `include` value (`concerns.broader-concepts,origin`) into a tree rooted at `type`;
 * shared prefixes merge (`concerns,concerns.broader-concepts` includes `concerns` once). An empty
 * value includes nothing. Throws 400 naming `include` for an unknown relationship, a path that
 * is too deep, or more than `maxPaths` paths once shared prefixes are merged (`concerns,
 * concerns.broader-concepts` is one path, the same path twice is one). `planRequest` passes the
 * dataset's `RequestLimits.includePaths`; without one the count is not bounded.
 *
 * @example parseInclude('concerns.broader-concepts', mapping, tradeActivities, { maxDepth: 3, maxPaths: 20 }) // [{ relationship: concerns, children: [{ relationship: broader-concepts, … }] }]
 */
export function parseInclude(
  value: string,
  mapping: Mapping,
  type: ResourceType,
  { maxDepth, maxPaths = Number.POSITIVE_INFINITY }: { maxDepth: number; maxPaths?: number },
): IncludeNode[] {
  type Mutable = { relationship: Relationship; type: ResourceType; children: Mutable[] };
  const roots: Mutable[] = [];
  if (value === '') return roots;
  for (const path of value.split(',')) {
    const names = path.split('.');
    if (names.length > maxDepth)
      throw badParameter(
        'include',
        `'${path}' follows ${names.length} relationships; include paths may follow at most ${maxDepth}.`,
      );
    let level = roots;
    let current = type;
    for (const name of names) {
      if (name === '')
        throw badParameter(
          'include',
          `The include list '${value}' has an empty relationship name; expected comma-separated paths of relationship names joined by dots. Relationships of ${current.name}: ${[...current.relationships.keys()].join(', ') || 'none'}.`,
        );
      const relationship = current.relationships.get(name);
      if (!relationship) {
        throw badParameter(
          'include',
          `Cannot include '${path}': ${current.name} has no relationship '${name}'. Relationships: ${[...current.relationships.keys()].join(', ') || 'none'}.`,
        );
      }
      const target = mapping.types.get(relationship.target)!;
      let node = level.find((n) => n.relationship === relationship);
      if (!node) level.push((node = { relationship, type: target, children: [] }));
      level = node.children;
      current = target;
    }
  }
  const paths = countPaths(roots);
  if (paths > maxPaths)
    throw badParameter(
      'include',
      `include names ${paths} paths (once shared prefixes are merged); at most ${maxPaths} are allowed.`,
    );
  return roots;
}

/** The paths of an include tree: one per leaf. */
function countPaths(nodes: readonly IncludeNode[]): number {
  return nodes.reduce((sum, node) => sum + (node.children.length === 0 ? 1 : countPaths(node.children)), 0);
}
