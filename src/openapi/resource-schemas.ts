import { hash } from 'node:crypto';
import { describeIds } from '../mapping/ids.js';
import { EVERY_LANGUAGE, UNTAGGED_KEY } from '../mapping/language.js';
import type { Attribute, Relationship, ResourceType } from '../mapping/model.js';
import { FLOATING_TYPES, INTEGER_TYPES, XSD, XSD_BOOLEAN, XSD_DECIMAL } from '../rdf/vocabulary.js';
import { SHARED } from './document-schemas.js';
import { type Json, names, orNull, ref } from './json-schema.js';
import { EXAMPLE_ID, link } from './words.js';

/**
 * The JSON one value of an attribute becomes (`shape/literal-to-json.ts`). The datatype the mapping
 * gives types the data's plain literals; a value the data types itself keeps its own datatype's
 * JSON. So a mapping that names a datatype promises it, and one that names none promises nothing:
 * such an attribute shows numbers for `xsd:integer` values and booleans for `xsd:boolean` ones.
 */
function valueSchema(attribute: Attribute): Json {
  const { datatype } = attribute;
  const short = datatype?.startsWith(XSD) ? `xsd:${datatype.slice(XSD.length)}` : datatype;
  if (attribute.language !== undefined && attribute.language !== EVERY_LANGUAGE && datatype === undefined)
    return { type: 'string', description: `Text, preferably in the language '${attribute.language}'.` };
  if (attribute.language === EVERY_LANGUAGE && datatype === undefined) return { type: 'string' };
  if (datatype === undefined) {
    return {
      type: ['string', 'number', 'boolean'],
      description:
        'No datatype in the mapping: the value’s own datatype decides (xsd numbers are numbers, xsd:boolean a boolean, anything else its lexical form).',
    };
  }
  if (INTEGER_TYPES.has(datatype))
    return {
      type: ['integer', 'string'],
      description: `${short}: a number; a string (its lexical form) past 2^53 or when not an integer, so no digit is lost.`,
    };
  if (datatype === XSD_DECIMAL || FLOATING_TYPES.has(datatype))
    return {
      type: ['number', 'string'],
      description: `${short}: a number; a string (its lexical form) when a JSON number could not hold it exactly${datatype === XSD_DECIMAL ? ' (more than 15 significant digits, an integer past 2^53)' : ''} or it is no number (INF, NaN).`,
    };
  if (datatype === XSD_BOOLEAN)
    return {
      type: ['boolean', 'string'],
      description: 'xsd:boolean: true or false (1 and 0 too); a string when the data holds no boolean.',
    };
  return { type: 'string', description: `${short}, in its lexical form.` };
}

/**
 * An attribute's schema: a value, or `null` when the resource has none; an array of values with
 * `many`; an object from lowercase language tag (`und` for untagged values) with `language: '*'`.
 *
 * @example attributeSchema({ name: 'budget', predicate, datatype: xsd:integer, many: false }) // { anyOf: [{ type: ['integer', 'string'] }, { type: 'null' }] }
 */
function attributeSchema(attribute: Attribute, values: Record<string, Json>): Json {
  const schema = attribute.fields ? structuredSchema(attribute.fields, values) : valueSchema(attribute);
  // Shared by every attribute of the same kind: a document that grows with the kinds of values,
  // not with each attribute's copy of the description.
  const name = `value.${hash('sha256', JSON.stringify(schema), 'base64url').slice(0, 10)}`;
  values[name] = schema;
  const value = ref(name);
  const about = `RDF predicate <${attribute.predicate}>.`;
  if (attribute.language === EVERY_LANGUAGE) {
    return {
      type: 'object',
      description: `${about} Every language: lowercase language tag (${UNTAGGED_KEY} for untagged values) → ${attribute.many ? 'the values in that language' : 'the least value in that language'}; {} when there is none.`,
      additionalProperties: attribute.many ? { type: 'array', items: value } : value,
    };
  }
  const order = attribute.fields ? 'the code point order of their JSON' : 'sort order';
  if (attribute.many)
    return { type: 'array', description: `${about} Every value, in ${order} ([] when none).`, items: value };
  return {
    description: `${about} The ${attribute.fields ? `first value in ${order}` : 'least value'}, or null when the resource has none.`,
    ...orNull(value),
  };
}

/** A structured attribute's value: an object of its fields, each as an attribute's schema. */
function structuredSchema(fields: ReadonlyMap<string, Attribute>, values: Record<string, Json>): Json {
  return {
    type: 'object',
    description: 'A node the predicate reaches (a blank node or a resource): the values of its fields.',
    required: [...fields.keys()],
    additionalProperties: false,
    properties: Object.fromEntries([...fields.values()].map((field) => [field.name, attributeSchema(field, values)])),
  };
}

/** A relationship object: its links always, its linkage (`data`) when the request includes it. */
function relationshipSchema(type: ResourceType, relationship: Relationship): Json {
  const at = `/${type.name}/${EXAMPLE_ID}`;
  const identifier = ref(names.identifier(relationship.target));
  return {
    type: 'object',
    description: `${relationship.cardinality === 'one' ? 'To-one' : 'To-many'} relationship to ${relationship.target} (RDF predicate <${relationship.predicate}>${relationship.inverse ? ', followed from object to subject' : ''}). \`data\` is there when the request includes it.`,
    required: ['links'],
    additionalProperties: false,
    properties: {
      links: {
        type: 'object',
        required: ['self', 'related'],
        additionalProperties: false,
        properties: { self: link(`${at}/links/${relationship.name}`), related: link(`${at}/${relationship.name}`) },
      },
      data: relationship.cardinality === 'one' ? orNull(identifier) : { type: 'array', items: identifier },
    },
  };
}

/** `meta` of a resource or identifier: on a cursor page, the item's cursor. */
const ITEM_META = ref(SHARED.itemMeta);

/**
 * A type's resource object schema and its resource identifier schema, by component name, and the
 * value schemas its attributes refer to (`value.<digest of the schema>`, shared by every type).
 *
 * @example Object.keys(resourceSchemas(countries)) // ['value.Xk3…', 'countries', 'countries.identifier']
 */
export function resourceSchemas(type: ResourceType): Record<string, Json> {
  const id = { type: 'string', description: `The resource's id: ${describeIds(type.id)}.` };
  const typeName = { type: 'string', const: type.name };
  const values: Record<string, Json> = {};
  const attributes = Object.fromEntries([...type.attributes.values()].map((a) => [a.name, attributeSchema(a, values)]));
  const relationships = Object.fromEntries(
    [...type.relationships.values()].map((r) => [r.name, relationshipSchema(type, r)]),
  );
  return {
    ...values,
    [names.resource(type.name)]: {
      type: 'object',
      title: type.name,
      description: `A ${type.name} resource: a member of RDF class <${type.classIri}>. Attributes and relationships left out by fields[${type.name}] are absent, and so is an empty \`attributes\` or \`relationships\`.`,
      required: ['type', 'id', 'links'],
      additionalProperties: false,
      properties: {
        type: typeName,
        id,
        attributes: { type: 'object', additionalProperties: false, properties: attributes },
        relationships: { type: 'object', additionalProperties: false, properties: relationships },
        links: {
          type: 'object',
          required: ['self'],
          additionalProperties: false,
          properties: { self: link(`/${type.name}/${EXAMPLE_ID}`) },
        },
        meta: ITEM_META,
      },
    },
    [names.identifier(type.name)]: {
      type: 'object',
      title: `${type.name} identifier`,
      required: ['type', 'id'],
      additionalProperties: false,
      properties: { type: typeName, id, meta: ITEM_META },
    },
  };
}
