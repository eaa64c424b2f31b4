import { FORBIDDEN_IRI_CHARS } from '../rdf/vocabulary.js';

/**
 * Characters that may not appear in an IRI (RFC 3987 excludes them; SPARQL's IRIREF grammar too).
 * Every IRI that reaches a query passes this check, so nothing can close the `<…>` it is written in.
 */
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/** True when `value` is an absolute IRI that can be written as a SPARQL IRIREF unescaped. */
export function isSafeAbsoluteIri(value: string): boolean {
  return SCHEME.test(value) && !FORBIDDEN_IRI_CHARS.test(value);
}
