import { checkDatatype } from './check-datatype.js';
import { EVERY_LANGUAGE } from './language.js';
import type { AttributeSpec } from './mapping-schema.js';
import type { Attribute } from './model.js';

/** How deep structured attributes nest: a field of a field of a field (`structured.ts`). */
export const MAX_DEPTH = 3;

/** What compiling a field needs: where problems and warnings go, and term expansion. */
export interface FieldCompiling {
  readonly problems: string[];
  readonly warnings: string[];
  readonly expand: (value: string, path: string) => string;
}

/** JSON:API 1.1 member names, limited to the characters a URL path segment carries unescaped. */
export const MEMBER_NAME = /^[a-zA-Z0-9](?:[a-zA-Z0-9_-]*[a-zA-Z0-9])?$/;
/** What no object inside an attribute value may be named (JSON:API 1.1, "Attributes"). */
const RESERVED_INSIDE = new Set(['links', 'relationships']);

/**
 * Compiles one attribute as written (`spec`, at key path `at`), with its `fields` when it is
 * structured, nested at most {@link MAX_DEPTH} deep (`depth` is this attribute's: 0 for a type's own).
 *
 * @example compileAttribute('label', 'skos:prefLabel', compiling, { at: 'types.concepts.attributes.label' })
 */
export function compileAttribute(
  name: string,
  spec: string | AttributeSpec,
  compiling: FieldCompiling,
  { at, depth = 0 }: { readonly at: string; readonly depth?: number },
): Attribute {
  const { problems, warnings, expand } = compiling;
  const long = typeof spec === 'string' ? { predicate: spec } : spec;
  const datatype = long.datatype === undefined ? undefined : expand(long.datatype, `${at}.datatype`);
  const verdict = datatype ? checkDatatype(datatype, long.datatype!) : undefined;
  if (verdict) ('problem' in verdict ? problems : warnings).push(`${at}.datatype: ${Object.values(verdict)[0]}`);
  if (long.strictLanguage !== undefined && (long.language === undefined || long.language === EVERY_LANGUAGE))
    problems.push(
      `${at}.strictLanguage: needs a language tag (language: de), not ${long.language === undefined ? 'no language' : "'*'"}`,
    );
  return Object.freeze({
    name,
    predicate: expand(long.predicate, `${at}.predicate`),
    ...(datatype !== undefined && { datatype }),
    ...(long.language !== undefined && { language: long.language.toLowerCase() }),
    ...(long.strictLanguage === true && { strictLanguage: true }),
    many: long.many ?? false,
    ...(long.fields !== undefined && { fields: compileFields(long, at, compiling, depth) }),
  });
}

/** A structured attribute's fields, each compiled one level deeper. */
function compileFields(
  spec: AttributeSpec,
  at: string,
  compiling: FieldCompiling,
  depth: number,
): ReadonlyMap<string, Attribute> {
  const { problems } = compiling;
  if (spec.datatype !== undefined || spec.language !== undefined)
    problems.push(
      `${at}: a structured attribute (fields) has no datatype or language of its own; give them to its fields`,
    );
  if (depth + 1 > MAX_DEPTH) problems.push(`${at}.fields: structured attributes nest at most ${MAX_DEPTH} deep`);
  const entries = Object.entries(spec.fields ?? {});
  if (entries.length === 0) problems.push(`${at}.fields: expected at least one field`);
  const fields = new Map<string, Attribute>();
  for (const [name, field] of entries) {
    const path = `${at}.fields.${name}`;
    if (!MEMBER_NAME.test(name))
      problems.push(`${path}: '${name}' is not a JSON:API member name (letters, digits, - and _, not at either end)`);
    if (RESERVED_INSIDE.has(name)) problems.push(`${path}: JSON:API forbids '${name}' inside an attribute's value`);
    fields.set(name, compileAttribute(name, field, compiling, { at: path, depth: depth + 1 }));
  }
  return fields;
}

/**
 * The predicates of a structured attribute's fields, at every depth (none for another attribute):
 * what else its value reads, beside its own predicate.
 *
 * @example fieldPredicates(ports) // [lv2:index, lv2:symbol, …]
 */
export function fieldPredicates(attribute: Attribute): string[] {
  return [...(attribute.fields?.values() ?? [])].flatMap((field) => [field.predicate, ...fieldPredicates(field)]);
}
