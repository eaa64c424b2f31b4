import type { z } from 'zod';
import { isSafeAbsoluteIri } from '../mapping/iri.js';
import { compileMapping, isFieldName, isTypeName } from '../mapping/load-mapping.js';
import type { MappingFile } from '../mapping/mapping-schema.js';
import { attributeFor, MU_CORE, XSD } from './attribute-types.js';
import {
  attributeSchema,
  domainSchema,
  KNOWN_KEYS,
  type MuResource,
  type MuUri,
  relationshipSchema,
  resourceSchema,
} from './domain-schema.js';

/** A domain file that can't be converted at all (not a domain.json: no `resources`, not an object). */
export class DomainError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join('\n'));
    this.name = 'DomainError';
  }
}

/** What `convertDomain` made of a domain.json. */
export interface Conversion {
  /** The mapping, as a mapping file would hold it; it loads (`compileMapping`) as it is. */
  readonly mapping: MappingFile;
  /** Everything that was not converted, one line each: where in the domain file, what, and why. */
  readonly skipped: readonly string[];
  /** Comment lines per type name: mu's internal name when it differs, where mu created resources. */
  readonly typeNotes: ReadonlyMap<string, readonly string[]>;
  /** Comments per `type.field`: how an attribute's JSON differs from mu's. */
  readonly fieldNotes: ReadonlyMap<string, string>;
}

type Types = MappingFile['types'];
type TypeEntry = Types[string];

/**
 * Converts a mu-cl-resources `domain.json` (parsed JSON) into a mapping: one type per resource,
 * named by its API path (mu's JSON:API `type`), ids from `mu:uuid` (the `predicate` strategy),
 * attributes with their datatypes (`attribute-types.ts`), relationships with `inverse`. What can't
 * be converted (features, unknown keys, a relationship to a resource that is not there, a prefix
 * that is not declared) is left out and listed in `skipped`; the rest still makes a mapping that
 * loads. Throws {@link DomainError} when `raw` is no domain at all.
 *
 * @example convertDomain(JSON.parse(readFileSync('domain.json', 'utf8'))).mapping.types.people.class // 'foaf:Person'
 */
export function convertDomain(raw: unknown): Conversion {
  const parsed = domainSchema.safeParse(raw);
  if (!parsed.success)
    throw new DomainError(parsed.error.issues.map((i) => `${i.path.join('.') || '(top level)'}: ${i.message}`));
  const domain = parsed.data;
  const skipped: string[] = [];
  const skip = (where: string, why: string) => skipped.push(`${where}: ${why}`);
  if (domain.version !== undefined && domain.version !== '0.1')
    skip('version', `'${domain.version}' is not 0.1, the only version mu-cl-resources reads; converted as 0.1`);
  unknownKeys(domain, KNOWN_KEYS.domain, '', skip);

  const prefixes: Record<string, string> = {};
  for (const [name, namespace] of Object.entries(domain.prefixes ?? {})) {
    if (isSafeAbsoluteIri(namespace)) prefixes[name] = namespace;
    else skip(`prefixes.${name}`, `'${namespace}' is not an absolute IRI; terms using it are skipped too`);
  }
  // mu's own namespaces, under their usual names unless the domain uses those names otherwise.
  const own = (name: string, namespace: string, local: string) => {
    if (prefixes[name] === undefined) prefixes[name] = namespace;
    return prefixes[name] === namespace ? `${name}:${local}` : namespace + local;
  };
  const uuid = own('mu', MU_CORE, 'uuid');
  const term = (uri: MuUri) => termOf(uri, prefixes);

  // Resources by mu name (case-insensitive, as mu interns them) → type name (the path).
  const resources = new Map<string, { key: string; type: string; classTerm: string; resource: MuResource }>();
  const typeNames = new Set<string>();
  for (const [key, value] of Object.entries(domain.resources)) {
    const where = `resources.${key}`;
    const checked = resourceSchema.safeParse(value);
    if (!checked.success) {
      skip(where, `not converted: ${issues(checked.error)}`);
      continue;
    }
    const resource = checked.data;
    const type = resource.path ?? key;
    const classTerm = term(resource.class);
    if (classTerm.problem !== undefined) {
      skip(`${where}.class`, `${classTerm.problem}; the resource is skipped`);
      continue;
    }
    if (!isTypeName(type)) {
      skip(where, `the path '${type}' can't be a type name here (letters, digits, - and _; not api or health)`);
      continue;
    }
    if (typeNames.has(type)) {
      skip(where, `a second resource on the path '${type}'`);
      continue;
    }
    const name = (resource.name ?? key).toLowerCase();
    if (resources.has(name)) {
      skip(where, `a second resource named '${name}'`);
      continue;
    }
    typeNames.add(type);
    resources.set(name, { key, type, classTerm: classTerm.term, resource });
  }
  const targetType = (target: string) =>
    resources.get(target.toLowerCase())?.type ??
    [...resources.values()].find((r) => r.key === target || r.type === target)?.type;

  const types: Types = {};
  const typeNotes = new Map<string, string[]>();
  const fieldNotes = new Map<string, string>();
  for (const [name, { key, type, classTerm, resource }] of resources) {
    const where = `resources.${key}`;
    unknownKeys(resource, KNOWN_KEYS.resource, where, skip);
    const notes: string[] = [];
    if (name !== type) notes.push(`mu name: ${name}`);
    if (resource['new-resource-base'])
      notes.push(`mu created new resources under ${resource['new-resource-base']} (this server never writes)`);
    for (const feature of resource.features ?? [])
      skip(`${where}.features`, `'${feature}' is a mu-cl-resources feature with no equivalent here`);
    const fields = new Set<string>();
    // What attributes and relationships share: the entry's shape, its keys, the field name, the predicate.
    const readField = <T extends Record<string, unknown> & { predicate: MuUri }>(
      at: string,
      field: string,
      value: unknown,
      schema: z.ZodType<T>,
      known: readonly string[],
    ): { data: T; predicate: string } | undefined => {
      const checked = schema.safeParse(value);
      if (!checked.success) {
        skip(at, `not converted: ${issues(checked.error)}`);
        return undefined;
      }
      unknownKeys(checked.data, known, at, skip);
      if (!isFieldName(field) || fields.has(field)) {
        skip(at, `'${field}' can't be a field name here (a member name, unique, not id, type, links or relationships)`);
        return undefined;
      }
      const predicate = term(checked.data.predicate);
      if (predicate.problem !== undefined) {
        skip(at, predicate.problem);
        return undefined;
      }
      return { data: checked.data, predicate: predicate.term };
    };
    const attributes: NonNullable<TypeEntry['attributes']> = {};
    for (const [attributeKey, value] of Object.entries(resource.attributes ?? {})) {
      const at = `${where}.attributes.${attributeKey}`;
      // mu ignores capitals in attribute names.
      const field = attributeKey.toLowerCase();
      const read = readField(at, field, value, attributeSchema, KNOWN_KEYS.attribute);
      if (read === undefined) continue;
      const converted = attributeFor(read.data.type, (local) => own('xsd', XSD, local));
      if (converted.kind === 'unknown')
        skip(`${at}.type`, `'${read.data.type}' is not a type mu-cl-resources documents; served as text`);
      if (converted.note) fieldNotes.set(`${type}.${field}`, converted.note);
      const { language, many } = converted;
      const datatype = converted.datatype && compact(converted.datatype, prefixes);
      attributes[field] =
        datatype || language || many
          ? {
              predicate: read.predicate,
              ...(datatype && { datatype }),
              ...(language && { language }),
              ...(many && { many }),
            }
          : read.predicate;
      fields.add(field);
    }
    const relationships: NonNullable<TypeEntry['relationships']> = {};
    for (const [field, value] of Object.entries(resource.relationships ?? {})) {
      const at = `${where}.relationships.${field}`;
      const read = readField(at, field, value, relationshipSchema, KNOWN_KEYS.relationship);
      if (read === undefined) continue;
      const target = targetType(read.data.target);
      if (target === undefined) {
        skip(at, `the target '${read.data.target}' is no resource of this domain (or was skipped)`);
        continue;
      }
      relationships[field] = {
        predicate: read.predicate,
        target,
        cardinality: read.data.cardinality.toLowerCase() as 'one' | 'many',
        ...(read.data.inverse && { inverse: true }),
      };
      fields.add(field);
    }
    types[type] = {
      class: classTerm,
      ...(Object.keys(attributes).length > 0 && { attributes }),
      ...(Object.keys(relationships).length > 0 && { relationships }),
    };
    if (notes.length > 0) typeNotes.set(type, notes);
  }
  const mapping: MappingFile = { prefixes, id: { predicate: uuid }, types };
  compileMapping(mapping, 'the converted mapping'); // by construction it loads; a MappingError here is a bug
  return { mapping, skipped, typeNotes, fieldNotes };
}

/** A mu class or predicate as a mapping term: kept as written when it expands to an IRI. */
function termOf(
  uri: MuUri,
  prefixes: Record<string, string>,
): { term: string; problem?: undefined } | { problem: string } {
  // mu reads a string with :// as a URL and anything else as a prefixed name.
  const [text, isUrl] = typeof uri === 'string' ? [uri, uri.includes('://')] : [uri.value, uri.type === 'url'];
  if (isUrl) {
    if (!isSafeAbsoluteIri(text)) return { problem: `'${text}' is not an absolute IRI` };
    return { term: /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(text) ? text : `<${text}>` };
  }
  const colon = text.indexOf(':');
  const prefix = text.slice(0, Math.max(colon, 0));
  if (colon < 0 || !(prefix in prefixes))
    return {
      problem: `'${text}' uses a prefix this domain does not declare${colon < 0 ? ' (no prefix at all)' : ` ('${prefix}')`}`,
    };
  if (!isSafeAbsoluteIri(prefixes[prefix] + text.slice(colon + 1)))
    return { problem: `'${text}' does not expand to an absolute IRI` };
  return { term: text };
}

/** A full IRI as a prefixed name when a declared namespace gives a simple one (`geo:wktLiteral`). */
function compact(term: string, prefixes: Record<string, string>): string {
  if (!term.includes('://')) return term;
  const found = Object.entries(prefixes).find(
    ([, namespace]) => term.startsWith(namespace) && /^[A-Za-z0-9_-]+$/.test(term.slice(namespace.length)),
  );
  return found ? `${found[0]}:${term.slice(found[1].length)}` : term;
}

function unknownKeys(
  object: Record<string, unknown>,
  known: readonly string[],
  where: string,
  skip: (where: string, why: string) => void,
): void {
  for (const key of Object.keys(object))
    if (!known.includes(key)) skip(where === '' ? key : `${where}.${key}`, 'not a key this converter knows; ignored');
}

const issues = (error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }) =>
  error.issues.map((i) => `${i.path.map(String).join('.') || 'value'}: ${i.message}`).join('; ');
