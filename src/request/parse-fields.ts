import { badParameter } from '../errors/json-api-error.js';
import type { Mapping } from '../mapping/model.js';
import type { FamilyParameter } from './parse-query.js';

/** Sparse fieldsets: type name → the fields (attributes and relationships) to show. Types not in it show every field. */
export type Fieldsets = ReadonlyMap<string, ReadonlySet<string>>;

/**
 * Reads the `fields[type]` parameters; an empty value means no fields. Throws 400 naming the
 * parameter for an unknown type, an unknown field (`id` and `type` are not fields), or an empty
 * name in the list.
 *
 * @example parseFields([{ name: 'fields[concepts]', members: ['concepts'], value: 'label' }], mapping) // Map { 'concepts' => Set { 'label' } }
 */
export function parseFields(parameters: readonly FamilyParameter[], mapping: Mapping): Fieldsets {
  const fieldsets = new Map<string, ReadonlySet<string>>();
  for (const { name, members, value } of parameters) {
    const type = mapping.types.get(members[0]!);
    if (!type)
      throw badParameter(
        name,
        `There is no resource type '${members[0]}'. Types: ${[...mapping.types.keys()].join(', ')}.`,
      );
    const known = [...type.attributes.keys(), ...type.relationships.keys()];
    const fields = value === '' ? [] : value.split(',');
    for (const field of fields) {
      if (field === '')
        throw badParameter(
          name,
          `'${value}' has an empty field name; give comma-separated fields of ${type.name}, or an empty value for none. Fields: ${known.join(', ') || 'none'}.`,
        );
      if (!known.includes(field))
        throw badParameter(name, `${type.name} has no field '${field}'. Fields: ${known.join(', ') || 'none'}.`);
    }
    fieldsets.set(type.name, new Set(fields));
  }
  return fieldsets;
}
