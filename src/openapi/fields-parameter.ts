import type { Mapping } from '../mapping/model.js';
import type { Json } from './json-schema.js';

/** The component name of the one `fields[type]` parameter of every type. */
export const FIELDS = 'fields';

/**
 * `fields[type]` for every type, as one deepObject parameter (`fields[concepts]=label,notation`):
 * each operation refers to it once, where one parameter per type made every operation list them
 * all (a document of types × paths). Each property: a comma-separated list of the type's
 * attributes and relationships, or nothing.
 *
 * @example fieldsParameter(mapping).schema.properties.concepts.pattern // '^(?:(?:label|notation)(?:,(?:label|notation))*)?$'
 */
export function fieldsParameter(mapping: Mapping): Json {
  const properties = Object.fromEntries(
    [...mapping.types.values()].map((type) => {
      const fields = [...type.attributes.keys(), ...type.relationships.keys()];
      const list = fields.length > 0 ? `(?:${fields.join('|')})` : '(?!)';
      return [type.name, { type: 'string', pattern: `^(?:${list}(?:,${list})*)?$` }];
    }),
  );
  return {
    name: 'fields',
    in: 'query',
    description:
      "Sparse fieldsets: fields[type]=a,b shows only those fields of the type's resources (in data and in included); empty for none. Without it, every field.",
    style: 'deepObject',
    explode: true,
    schema: { type: 'object', additionalProperties: false, properties },
  };
}
