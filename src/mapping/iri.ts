import { namedNode } from 'oxigraph';
import { IRI_SCHEME } from '../rdf/vocabulary.js';

/**
 * Characters RFC 3987 lets an IRI hold that the server refuses all the same: the bidi formatting
 * characters (§4.1 forbids them in IRIs), U+2028/U+2029, line and paragraph separators to
 * JavaScript, which some query writers and clients treat as line ends, and private-use characters,
 * which RFC 3987 allows in the query but Jena (so Fuseki) refuses in any IRI of a query.
 */
const REFUSED = /[\u200E\u200F\u202A-\u202E\u2028\u2029\p{Co}]/u;

/**
 * True when `value` is an IRI the server accepts: an absolute RFC 3987 IRI as Oxigraph's own IRI
 * parser (oxiri) reads it, less {@link REFUSED}. Every IRI that reaches a query passes this check,
 * so every tested store takes it (Virtuoso is more lenient than oxiri, Jena stricter on private use) and nothing can close the `<…>`
 * it is written in.
 *
 * @example isSafeAbsoluteIri('http://x/GR') // true
 * @example isSafeAbsoluteIri('http://x/GR\u2028') // false
 */
export function isSafeAbsoluteIri(value: string): boolean {
  return iriProblem(value) === undefined;
}

/**
 * Why `value` is not an IRI the server accepts, in words for an error detail (it never quotes the
 * value, which may hold anything); `undefined` when it is one.
 *
 * @example iriProblem('http://x/INJ%') // 'it holds a % that does not start a percent-encoding (% and two hex digits)'
 */
export function iriProblem(value: string): string | undefined {
  // A lone surrogate would reach the parser as U+FFFD (strings cross into WebAssembly as UTF-8).
  const refused = REFUSED.exec(value) ?? LONE_SURROGATE.exec(value);
  if (refused) return `it holds ${codePoint(refused[0])}, which no IRI may hold`;
  let message: string;
  try {
    namedNode(value);
    return undefined;
  } catch (error) {
    message = error instanceof Error ? error.message : String(error);
  }
  if (!IRI_SCHEME.test(value)) return 'it does not start with a scheme (such as http: or urn:)';
  if (/percent encoding/i.test(message))
    return 'it holds a % that does not start a percent-encoding (% and two hex digits)';
  // oxiri names the character it stopped at; say which code point it is, without quoting text.
  const char = /code point '(.+)'$/su.exec(message)?.[1];
  if (char !== undefined && [...char].length === 1 && !SYNTAX_CHARS.has(char)) {
    return `it holds ${codePoint(char)}, which no IRI may hold`;
  }
  return 'it does not follow the IRI syntax of RFC 3987 (a second #, [ ] outside the host, …)';
}

/** Characters an IRI may hold in some places only: oxiri names them where they are out of place. */
const SYNTAX_CHARS = new Set(['#', '[', ']', ':', '@', '/', '?']);
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** `U+2028`, or the character itself when it is printable ASCII: `'<'`. */
function codePoint(char: string): string {
  const code = char.codePointAt(0)!;
  const name = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  return code > 0x20 && code < 0x7f ? `'${char}' (${name})` : name;
}
