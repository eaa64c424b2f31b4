import type { z } from 'zod';
import { isFieldName } from '../mapping/load-mapping.js';
import type { MappingFile } from '../mapping/mapping-schema.js';
import { attributeFor, XSD } from './attribute-types.js';
import { attributeSchema, KNOWN_KEYS, type MuResource, type MuUri, relationshipSchema } from './domain-schema.js';
import { compact, issues, type Skip, type Term, unknownKeys } from './domain-terms.js';

type TypeEntry = MappingFile['types'][string];

/** What converting one resource needs from the whole domain. */
export interface DomainContext {
  readonly prefixes: Record<string, string>;
  readonly skip: Skip;
  /** A mu class or predicate as a mapping term (`termOf` with the domain's prefixes). */
  readonly term: (uri: MuUri) => Term;
  /** A term of one of mu's own namespaces, under its usual prefix unless the domain uses that otherwise. */
  readonly own: (name: string, namespace: string, local: string) => string;
  /** The type name of a relationship's target: a mu name (case-insensitive), a key or a path. */
  readonly targetType: (target: string) => string | undefined;
  /** Comments per `type.field`, filled in as attributes are converted. */
  readonly fieldNotes: Map<string, string>;
}

/** A resource of the domain that becomes a type: its key, its type name (the path), its class. */
export interface IndexedResource {
  readonly key: string;
  readonly type: string;
  readonly classTerm: string;
  readonly resource: MuResource;
}

/** One resource in the making: where it is, and the field names it has taken. */
interface ResourceAt extends IndexedResource {
  readonly where: string;
  readonly fields: Set<string>;
}

/**
 * Converts one resource of the domain (mu name `name`) into its mapping entry, with the comment
 * lines its type gets; every attribute or relationship that can't be converted is skipped.
 */
export function convertResource(
  context: DomainContext,
  name: string,
  indexed: IndexedResource,
): { entry: TypeEntry; notes: string[] } {
  const { key, type, classTerm, resource } = indexed;
  const where = `resources.${key}`;
  const { skip } = context;
  unknownKeys(resource, KNOWN_KEYS.resource, where, skip);
  const notes: string[] = [];
  if (name !== type) notes.push(`mu name: ${name}`);
  if (resource['new-resource-base'])
    notes.push(`mu created new resources under ${resource['new-resource-base']} (this server never writes)`);
  for (const feature of resource.features ?? [])
    skip(`${where}.features`, `'${feature}' is a mu-cl-resources feature with no equivalent here`);
  const at: ResourceAt = { ...indexed, where, fields: new Set<string>() };
  const attributes = convertAttributes(context, at);
  const relationships = convertRelationships(context, at);
  const entry: TypeEntry = {
    class: classTerm,
    ...(Object.keys(attributes).length > 0 && { attributes }),
    ...(Object.keys(relationships).length > 0 && { relationships }),
  };
  return { entry, notes };
}

function convertAttributes(context: DomainContext, at: ResourceAt): NonNullable<TypeEntry['attributes']> {
  const attributes: NonNullable<TypeEntry['attributes']> = {};
  for (const [attributeKey, value] of Object.entries(at.resource.attributes ?? {})) {
    const where = `${at.where}.attributes.${attributeKey}`;
    // mu ignores capitals in attribute names.
    const field = attributeKey.toLowerCase();
    const read = readField(context, at, { where, field, value, schema: attributeSchema, known: KNOWN_KEYS.attribute });
    if (read === undefined) continue;
    const converted = attributeFor(read.data.type, (local) => context.own('xsd', XSD, local));
    if (converted.kind === 'unknown')
      context.skip(`${where}.type`, `'${read.data.type}' is not a type mu-cl-resources documents; served as text`);
    if (converted.note) context.fieldNotes.set(`${at.type}.${field}`, converted.note);
    const { language, many } = converted;
    const datatype = converted.datatype && compact(converted.datatype, context.prefixes);
    attributes[field] =
      datatype || language || many
        ? {
            predicate: read.predicate,
            ...(datatype && { datatype }),
            ...(language && { language }),
            ...(many && { many }),
          }
        : read.predicate;
    at.fields.add(field);
  }
  return attributes;
}

function convertRelationships(context: DomainContext, at: ResourceAt): NonNullable<TypeEntry['relationships']> {
  const relationships: NonNullable<TypeEntry['relationships']> = {};
  for (const [field, value] of Object.entries(at.resource.relationships ?? {})) {
    const where = `${at.where}.relationships.${field}`;
    const known = KNOWN_KEYS.relationship;
    const read = readField(context, at, { where, field, value, schema: relationshipSchema, known });
    if (read === undefined) continue;
    const target = context.targetType(read.data.target);
    if (target === undefined) {
      context.skip(where, `the target '${read.data.target}' is no resource of this domain (or was skipped)`);
      continue;
    }
    relationships[field] = {
      predicate: read.predicate,
      target,
      cardinality: read.data.cardinality.toLowerCase() as 'one' | 'many',
      ...(read.data.inverse && { inverse: true }),
    };
    at.fields.add(field);
  }
  return relationships;
}

/** An attribute or relationship entry as the domain has it. */
interface FieldEntry<T> {
  readonly where: string;
  readonly field: string;
  readonly value: unknown;
  readonly schema: z.ZodType<T>;
  readonly known: readonly string[];
}

/** What attributes and relationships share: the entry's shape, its keys, the field name, the predicate. */
function readField<T extends Record<string, unknown> & { predicate: MuUri }>(
  context: DomainContext,
  at: ResourceAt,
  { where, field, value, schema, known }: FieldEntry<T>,
): { data: T; predicate: string } | undefined {
  const { skip } = context;
  const checked = schema.safeParse(value);
  if (!checked.success) {
    skip(where, `not converted: ${issues(checked.error)}`);
    return undefined;
  }
  unknownKeys(checked.data, known, where, skip);
  if (!isFieldName(field) || at.fields.has(field)) {
    skip(where, `'${field}' can't be a field name here (a member name, unique, not id, type, links or relationships)`);
    return undefined;
  }
  const predicate = context.term(checked.data.predicate);
  if (predicate.problem !== undefined) {
    skip(where, predicate.problem);
    return undefined;
  }
  return { data: checked.data, predicate: predicate.term };
}
