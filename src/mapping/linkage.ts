import type { LinkField, Mapping, Relationship, ResourceType } from './model.js';

/**
 * Which relationships show resource linkage (`data`) without `include`: `none` (the default),
 * only those whose mapping says `linkage: true`; `to-one`, every to-one relationship too, unless
 * its mapping says `linkage: false`. A to-many relationship shows it only with `linkage: true`:
 * its `data` is every target, with no cap (a client such as WarpDrive reads it as the whole
 * membership), so only the mapping's author can tell that the memberships stay small.
 */
export type LinkageSetting = 'none' | 'to-one';

/**
 * The mapping with each type's {@link ResourceType.linkFields}: the relationships whose objects
 * carry linkage under `setting` (see {@link LinkageSetting}), as fields the attribute fetch reads
 * with the attribute values (`sparql/link-fields.ts`). A mapping where none does is returned with
 * its types as they are, so that every query and document stays as without the setting.
 *
 * @example withLinkage(await loadMapping('mappings/sample.yaml'), 'to-one').types.get('trade-activities')!.linkFields!.keys() // origin, destination, amount
 */
export function withLinkage(mapping: Mapping, setting: LinkageSetting = 'none'): Mapping {
  const linked = (relationship: Relationship) =>
    relationship.linkage ?? (setting === 'to-one' && relationship.cardinality === 'one');
  const types = new Map<string, ResourceType>();
  for (const type of mapping.types.values()) {
    const { linkFields: _, ...plain } = type;
    const fields = [...type.relationships.values()].filter(linked).map((relationship) => {
      const target = mapping.types.get(relationship.target)!;
      const field: LinkField = {
        name: relationship.name,
        predicate: relationship.predicate,
        many: true,
        link: { relationship, target },
      };
      return [relationship.name, Object.freeze(field)] as const;
    });
    types.set(type.name, Object.freeze(fields.length > 0 ? { ...plain, linkFields: new Map(fields) } : plain));
  }
  return Object.freeze({ ...mapping, types });
}
