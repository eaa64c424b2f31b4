/**
 * The `local` id strategy's encoding: the id is the text of the IRI after the strategy's base, with
 * every character percent-encoded (its UTF-8 bytes, uppercase hex) except
 * - letters, digits and combining marks, in any script (`\p{L}`, `\p{N}`, `\p{M}`): `M`, `été`, `m²`;
 * - `-` `.` `_` `~` (RFC 3986's other unreserved characters) and `!` `$` `'` `(` `)` `*` `:` `@`,
 *   which a path segment holds as they are.
 *
 * So an id is always one URL path segment: `/`, `?`, `#` and `%` itself are encoded, and so are
 * the characters a query string or a filter list treats specially (`&`, `=`, `+`, `,`, `;`) and
 * every space, symbol, control or private-use character. A local name that is `.` or `..` has no
 * id (a dot segment, which URL parsers resolve away in any spelling): the IRIs `base.` and
 * `base..` are no members (`sparql/members.ts`). An id has exactly one spelling: a
 * character that is kept must not be encoded (`%41`) and hex digits are uppercase (`%2F`, not
 * `%2f`); any other spelling is no id ({@link decodeLocalId} says `syntax`).
 */

/** The longest id accepted, in UTF-16 code units: like `hex` (4096 digits), it keeps a query small. */
export const LOCAL_ID_MAX = 4096;

const KEPT_CLASS = String.raw`A-Za-z0-9\-._~!$'()*:@\p{L}\p{N}\p{M}`;
/** One character that stands for itself in an id. */
const KEPT = new RegExp(`^[${KEPT_CLASS}]$`, 'u');
/** An id's shape: kept characters and uppercase percent-encodings (canonical or not: see decodeLocalId). */
const ID_SYNTAX = new RegExp(`^(?:[${KEPT_CLASS}]|%[0-9A-F]{2})+$`, 'u');
/**
 * `.` and `..`: dot segments, which URL parsers resolve away however they are written
 * (`/units/..` and `/units/%2E%2E` are both `/`), so no id can stand for them.
 */
const DOT_SEGMENT = /^\.\.?$/;
/** Most local names (QUDT's `KiloGM-PER-M3`) are ASCII that needs no encoding: no per-character walk. */
const PLAIN = /^[A-Za-z0-9\-._~!$'()*:@]*$/;

/**
 * The id of an IRI's local part (the text after the base).
 *
 * @example encodeLocalId('KiloGM-PER-M3') // 'KiloGM-PER-M3'
 * @example encodeLocalId('m/s, été') // 'm%2Fs%2C%20été'
 * @example encodeLocalId('100%25') // '100%2525'
 */
export function encodeLocalId(local: string): string {
  if (PLAIN.test(local)) return local;
  let id = '';
  for (const char of local) {
    if (KEPT.test(char)) id += char;
    // A lone surrogate (no store should give one) becomes U+FFFD's bytes: an id no lookup accepts.
    else for (const byte of Buffer.from(char, 'utf8')) id += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return id;
}

/** What an id decodes to: the local part, or why it has none. */
export type DecodedLocalId =
  | { readonly kind: 'text'; readonly text: string }
  /** Not of the id syntax, too long, or not in its one canonical spelling. */
  | { readonly kind: 'syntax' }
  /** Canonical in shape, but its percent-encoded bytes are no UTF-8 (`%FF`, an overlong `%C0%AF`, a surrogate). */
  | { readonly kind: 'not-utf8' };

/**
 * The local part an id stands for, when the id is in the one spelling {@link encodeLocalId}
 * gives. Whether base + local part is an IRI is the caller's check (`ids.ts`).
 *
 * @example decodeLocalId('m%2Fs') // { kind: 'text', text: 'm/s' }
 * @example decodeLocalId('m%2fs') // { kind: 'syntax' } (lowercase hex)
 * @example decodeLocalId('%4D') // { kind: 'syntax' } (M is written as it is)
 * @example decodeLocalId('%FF') // { kind: 'not-utf8' }
 */
export function decodeLocalId(id: string): DecodedLocalId {
  if (id.length === 0 || id.length > LOCAL_ID_MAX || !ID_SYNTAX.test(id) || DOT_SEGMENT.test(id))
    return { kind: 'syntax' };
  if (PLAIN.test(id)) return { kind: 'text', text: id };
  let text: string;
  try {
    text = decodeURIComponent(id); // strict UTF-8: refuses overlong forms, surrogates, truncated sequences
  } catch {
    return { kind: 'not-utf8' };
  }
  return encodeLocalId(text) === id ? { kind: 'text', text } : { kind: 'syntax' };
}
