/** A JSON Schema (2020-12, OpenAPI 3.1's dialect) or an OpenAPI object, as plain JSON. */
export type Json = { [key: string]: unknown };

/**
 * A reference to a component: `#/components/<kind>/<name>`, with `~` and `/` escaped as JSON
 * Pointer asks (names here never hold them, but a pointer must stay one whatever a mapping says).
 *
 * @example ref('trade-activities') // { $ref: '#/components/schemas/trade-activities' }
 */
export function ref(name: string, kind: 'schemas' | 'parameters' | 'responses' | 'headers' = 'schemas'): Json {
  return { $ref: `#/components/${kind}/${name.replaceAll('~', '~0').replaceAll('/', '~1')}` };
}

/**
 * Component names: a type's resource schema is named after the type; everything else carries a dot,
 * which no type name holds (`[A-Za-z0-9_-]`), so the two never collide.
 */
export const names = {
  resource: (type: string) => type,
  identifier: (type: string) => `${type}.identifier`,
  single: (type: string) => `${type}.document`,
  related: (type: string) => `${type}.nullable-document`,
  collection: (type: string) => `${type}.collection`,
  toOneLinkage: (type: string) => `${type}.to-one-linkage`,
  toManyLinkage: (type: string) => `${type}.to-many-linkage`,
  included: (type: string) => `${type}.included`,
  sort: (type: string) => `${type}.sort`,
  include: (type: string) => `${type}.include`,
  filter: (type: string) => `${type}.filter`,
} as const;

/** `schema` or `null`. */
export const orNull = (schema: Json): Json => ({ anyOf: [schema, { type: 'null' }] });
