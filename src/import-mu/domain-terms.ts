import { isSafeAbsoluteIri } from '../mapping/iri.js';
import type { MuUri } from './domain-schema.js';

/** A mapping term made of a mu class or predicate, or why it can't be one. */
export type Term = { term: string; problem?: undefined } | { problem: string };

/** Records one thing that was not converted: where in the domain file, and why. */
export type Skip = (where: string, why: string) => void;

/** A mu class or predicate as a mapping term: kept as written when it expands to an IRI. */
export function termOf(uri: MuUri, prefixes: Record<string, string>): Term {
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
export function compact(term: string, prefixes: Record<string, string>): string {
  if (!term.includes('://')) return term;
  const found = Object.entries(prefixes).find(
    ([, namespace]) => term.startsWith(namespace) && /^[A-Za-z0-9_-]+$/.test(term.slice(namespace.length)),
  );
  return found ? `${found[0]}:${term.slice(found[1].length)}` : term;
}

/** Skips every key of `object` that is not `known`: the converter ignores what it does not know. */
export function unknownKeys(
  object: Record<string, unknown>,
  known: readonly string[],
  where: string,
  skip: Skip,
): void {
  for (const key of Object.keys(object))
    if (!known.includes(key)) skip(where === '' ? key : `${where}.${key}`, 'not a key this converter knows; ignored');
}

/** zod's issues, one line: where in the value, and what. */
export const issues = (error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }) =>
  error.issues.map((i) => `${i.path.map(String).join('.') || 'value'}: ${i.message}`).join('; ');
