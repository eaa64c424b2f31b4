import { ABSOLUTE_IRI, IRI_CODE_POINT, IRI_SCHEME } from '../rdf/vocabulary.js';

/**
 * True when `value` is an IRI the server accepts (`rdf/vocabulary.ts` {@link ABSOLUTE_IRI}: an
 * absolute RFC 3987 IRI, no bidi formatting characters, no U+2028/U+2029). Every IRI that reaches
 * a query passes this check, so both stores take it and nothing can close the `<…>` it is written in.
 *
 * @example isSafeAbsoluteIri('http://x/GR') // true
 * @example isSafeAbsoluteIri('http://x/GR\u2028') // false
 */
export function isSafeAbsoluteIri(value: string): boolean {
  return ABSOLUTE_IRI.test(value);
}

/**
 * Why `value` is not an IRI the server accepts, in words for an error detail (it never quotes the
 * value, which may hold anything); `undefined` when it is one.
 *
 * @example iriProblem('http://x/INJ%') // 'it holds a % that does not start a percent-encoding (% and two hex digits)'
 */
export function iriProblem(value: string): string | undefined {
  if (isSafeAbsoluteIri(value)) return undefined;
  if (!IRI_SCHEME.test(value)) return 'it does not start with a scheme (such as http: or urn:)';
  for (const char of value) {
    if (!IRI_CODE_POINT.test(char)) return `it holds ${codePoint(char)}, which no IRI may hold`;
  }
  if (/%(?![0-9A-Fa-f]{2})/.test(value))
    return 'it holds a % that does not start a percent-encoding (% and two hex digits)';
  return 'it does not follow the IRI syntax of RFC 3987 (a second #, [ ] outside the host, a private-use character outside the query, …)';
}

/** `U+2028`, or the character itself when it is printable ASCII: `'<'`. */
function codePoint(char: string): string {
  const code = char.codePointAt(0)!;
  const name = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  return code > 0x20 && code < 0x7f ? `'${char}' (${name})` : name;
}
