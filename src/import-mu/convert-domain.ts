import { isSafeAbsoluteIri } from '../mapping/iri.js';
import { compileMapping, isTypeName } from '../mapping/load-mapping.js';
import type { MappingFile } from '../mapping/mapping-schema.js';
import { MU_CORE } from './attribute-types.js';
import { convertResource, type DomainContext, type IndexedResource } from './convert-resource.js';
import { domainSchema, KNOWN_KEYS, type MuUri, resourceSchema } from './domain-schema.js';
import { issues, type Skip, type Term, termOf, unknownKeys } from './domain-terms.js';

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
  const resources = indexResources(domain.resources, term, skip);
  const targetType = (target: string) =>
    resources.get(target.toLowerCase())?.type ??
    [...resources.values()].find((r) => r.key === target || r.type === target)?.type;

  const types: Types = {};
  const typeNotes = new Map<string, string[]>();
  const fieldNotes = new Map<string, string>();
  const context: DomainContext = { prefixes, skip, term, own, targetType, fieldNotes };
  for (const [name, indexed] of resources) {
    const { entry, notes } = convertResource(context, name, indexed);
    types[indexed.type] = entry;
    if (notes.length > 0) typeNotes.set(indexed.type, notes);
  }
  const mapping: MappingFile = { prefixes, id: { predicate: uuid }, types };
  compileMapping(mapping, 'the converted mapping'); // by construction it loads; a MappingError here is a bug
  return { mapping, skipped, typeNotes, fieldNotes };
}

/**
 * The resources that become types, by mu name (case-insensitive, as mu interns them); a resource
 * whose shape, class or path can't be converted, or that repeats a path or a name, is skipped.
 */
function indexResources(
  raw: Record<string, unknown>,
  term: (uri: MuUri) => Term,
  skip: Skip,
): Map<string, IndexedResource> {
  const resources = new Map<string, IndexedResource>();
  const typeNames = new Set<string>();
  for (const [key, value] of Object.entries(raw)) {
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
  return resources;
}
