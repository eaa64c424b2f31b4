import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import { compileAttribute, type FieldCompiling, MEMBER_NAME } from './compile-attribute.js';
import { compileId, missingId } from './compile-id.js';
import { isSafeAbsoluteIri } from './iri.js';
import { withLinkage } from './linkage.js';
import { type MappingFile, mappingSchema } from './mapping-schema.js';
import type { Attribute, Mapping, Relationship, ResourceType } from './model.js';
import { resolveSortField } from './resolve-path.js';

/** A mapping that can't be used; `problems` are `key.path: what was expected` lines. */
export class MappingError extends Error {
  constructor(
    readonly file: string,
    readonly problems: readonly string[],
  ) {
    super(`${file}: invalid mapping\n${problems.map((p) => `  ${file}: ${p}`).join('\n')}`);
    this.name = 'MappingError';
  }
}

/** Names the router reserves, and the two JSON:API forbids for fields. */
const RESERVED_TYPES = new Set(['api', 'health']);
const RESERVED_FIELDS = new Set(['id', 'type', 'links', 'relationships']);

/**
 * Whether a mapping may name a type so: a member name the router does not reserve.
 *
 * @example isTypeName('people') // true; isTypeName('api') // false
 */
export function isTypeName(name: string): boolean {
  return MEMBER_NAME.test(name) && !RESERVED_TYPES.has(name);
}

/**
 * Whether a mapping may name an attribute or relationship so: a member name JSON:API does not reserve.
 *
 * @example isFieldName('first-name') // true; isFieldName('type') // false
 */
export function isFieldName(field: string): boolean {
  return MEMBER_NAME.test(field) && !RESERVED_FIELDS.has(field);
}

/** Reads a YAML or JSON mapping file and compiles it; throws {@link MappingError} listing every problem. */
export async function loadMapping(file: string): Promise<Mapping> {
  let raw: unknown;
  try {
    raw = parseYaml(await readFile(file, 'utf8'));
  } catch (error) {
    throw new MappingError(file, [`cannot read the file: ${(error as Error).message}`]);
  }
  return compileMapping(raw, file);
}

/** A relationship target the mapping lacks: the types it has are listed once, on a line of their own. */
const NOT_A_TYPE_END = 'is not a type of this mapping';
const NOT_A_TYPE = (name: string) => `'${name}' ${NOT_A_TYPE_END}`;

/**
 * Validates a parsed mapping document and compiles it into the frozen index requests use.
 *
 * @example compileMapping({ types: { books: { class: 'http://schema.org/Book', id: { hex: true } } } }, 'inline')
 */
export function compileMapping(raw: unknown, source: string): Mapping {
  const parsed = mappingSchema.safeParse(raw);
  if (!parsed.success) {
    throw new MappingError(
      source,
      parsed.error.issues.map((issue) => `${issue.path.join('.') || '(top level)'}: ${issue.message}`),
    );
  }
  const problems: string[] = [];
  const warnings: string[] = [];
  const draft: Mapping = { source, types: compileTypes(parsed.data, problems, warnings) };
  // The choices once, not on each line that names a type the mapping lacks.
  if (problems.some((problem) => problem.endsWith(NOT_A_TYPE_END)))
    problems.push(`types: the types of this mapping are ${Object.keys(parsed.data.types).join(', ')}`);
  // Sort paths cross types, so default sorts resolve once every type exists.
  const types = new Map<string, ResourceType>();
  for (const type of draft.types.values()) {
    const defaultSort = (parsed.data.types[type.name]?.defaultSort ?? []).flatMap((field, index) => {
      const key = resolveSortField(draft, type, field);
      if (typeof key === 'string') problems.push(`types.${type.name}.defaultSort.${index}: ${key}`);
      return typeof key === 'string' ? [] : [key];
    });
    types.set(type.name, Object.freeze({ ...type, defaultSort: Object.freeze(defaultSort) }));
  }
  if (problems.length > 0) throw new MappingError(source, problems);
  return withLinkage({
    source,
    types,
    ...(warnings.length > 0 && { warnings: Object.freeze(warnings.map((w) => `${source}: ${w}`)) }),
  });
}

function compileTypes(file: MappingFile, problems: string[], warnings: string[]): Map<string, ResourceType> {
  const prefixes = file.prefixes ?? {};
  for (const [name, namespace] of Object.entries(prefixes)) {
    if (!isSafeAbsoluteIri(namespace))
      problems.push(`prefixes.${name}: expected an absolute IRI (http://…), got '${namespace}'`);
  }
  const expand = (value: string, path: string): string => {
    const iri = expandTerm(value, prefixes);
    if (iri === undefined)
      problems.push(
        `${path}: '${value}' is neither a known prefixed name (prefixes: ${Object.keys(prefixes).join(', ') || 'none'}) nor an absolute IRI`,
      );
    return iri ?? '';
  };
  const compiling: Compiling = { file, problems, warnings, expand };
  const types = new Map<string, ResourceType>();
  for (const [name, spec] of Object.entries(file.types)) {
    const at = `types.${name}`;
    if (!isTypeName(name))
      problems.push(`${at}: '${name}' is not a usable type name (letters, digits, - and _; not api or health)`);
    const idSpec = spec.id ?? file.id;
    const attributes = compileAttributes(spec, at, compiling);
    const relationships = compileRelationships(spec, { at, attributes }, compiling);
    types.set(
      name,
      Object.freeze({
        name,
        classIri: expand(spec.class, `${at}.class`),
        id: idSpec ? compileId(idSpec, spec.id ? `${at}.id` : 'id', expand, problems) : missingId(at, problems),
        attributes,
        relationships,
        defaultSort: [],
      }),
    );
  }
  return types;
}

/** What compiling a type's fields needs: the file, where problems go, and term expansion. */
interface Compiling extends FieldCompiling {
  readonly file: MappingFile;
}

type TypeSpec = MappingFile['types'][string];

function compileAttributes(spec: TypeSpec, at: string, compiling: Compiling): Map<string, Attribute> {
  const attributes = new Map<string, Attribute>();
  for (const [field, attr] of Object.entries(spec.attributes ?? {})) {
    const path = `${at}.attributes.${field}`;
    checkFieldName(field, path, compiling.problems);
    attributes.set(field, compileAttribute(field, attr, compiling, { at: path }));
  }
  return attributes;
}

function compileRelationships(
  spec: TypeSpec,
  { at, attributes }: { at: string; attributes: ReadonlyMap<string, Attribute> },
  { file, problems, expand }: Compiling,
): Map<string, Relationship> {
  const relationships = new Map<string, Relationship>();
  for (const [field, rel] of Object.entries(spec.relationships ?? {})) {
    const path = `${at}.relationships.${field}`;
    checkFieldName(field, path, problems);
    if (attributes.has(field)) problems.push(`${path}: '${field}' is also an attribute; fields share one namespace`);
    if (!Object.hasOwn(file.types, rel.target)) problems.push(`${path}.target: ${NOT_A_TYPE(rel.target)}`);
    relationships.set(
      field,
      Object.freeze({
        name: field,
        predicate: expand(rel.predicate, `${path}.predicate`),
        target: rel.target,
        cardinality: rel.cardinality,
        inverse: rel.inverse ?? false,
        ...(rel.linkage !== undefined && { linkage: rel.linkage }),
      }),
    );
  }
  return relationships;
}

function checkFieldName(field: string, path: string, problems: string[]): void {
  if (!MEMBER_NAME.test(field))
    problems.push(`${path}: '${field}' is not a JSON:API member name (letters, digits, - and _, not at either end)`);
  if (RESERVED_FIELDS.has(field)) problems.push(`${path}: '${field}' is reserved by JSON:API`);
}

/** `skos:broader` → full IRI; `<http://…>` and bare absolute IRIs pass through; undefined when neither. */
function expandTerm(value: string, prefixes: Record<string, string>): string | undefined {
  const bracketed = /^<(.*)>$/.exec(value);
  if (bracketed) return isSafeAbsoluteIri(bracketed[1]!) ? bracketed[1] : undefined;
  const colon = value.indexOf(':');
  const prefix = value.slice(0, colon);
  if (colon >= 0 && prefix in prefixes) {
    const iri = prefixes[prefix] + value.slice(colon + 1);
    return isSafeAbsoluteIri(iri) ? iri : undefined;
  }
  return /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(value) || value.startsWith('urn:')
    ? isSafeAbsoluteIri(value)
      ? value
      : undefined
    : undefined;
}
