/**
 * RDF vocabulary the server relies on, defined once: namespaces, the XSD datatypes it treats
 * specially, and the lexical rules of IRIs and language tags. Every stage imports from here.
 */

export const XSD = 'http://www.w3.org/2001/XMLSchema#';
export const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';

export const XSD_STRING = `${XSD}string`;
export const XSD_BOOLEAN = `${XSD}boolean`;
export const XSD_DECIMAL = `${XSD}decimal`;
export const RDF_TYPE = `${RDF}type`;
export const RDF_LANG_STRING = `${RDF}langString`;

/** The local names of `xsd:integer` and the XSD types derived from it. */
export const INTEGER_TYPE_NAMES: readonly string[] = Object.freeze([
  'integer',
  'long',
  'int',
  'short',
  'byte',
  'nonNegativeInteger',
  'positiveInteger',
  'negativeInteger',
  'nonPositiveInteger',
  'unsignedLong',
  'unsignedInt',
  'unsignedShort',
  'unsignedByte',
]);

/** `xsd:integer` and its derived types, as full IRIs. */
export const INTEGER_TYPES: ReadonlySet<string> = new Set(INTEGER_TYPE_NAMES.map((name) => XSD + name));

/**
 * The characters SPARQL's IRIREF and N-Triples exclude (controls, space, `<>"{}|^\`` and
 * backslash); the loader escapes them. What the server accepts as an IRI is {@link ABSOLUTE_IRI}.
 */
export const FORBIDDEN_IRI_CHARS = /[\u0000-\u0020<>"{}|^`\\]/u;

// RFC 3987 §2.2, the IRI grammar, as a regular expression over code points (hence the u flag).
/**
 * `ucschar` less what RFC 3987 §4.1 forbids (the bidi formatting characters U+200E, U+200F and
 * U+202A–U+202E) and less U+2028/U+2029 (line and paragraph separators: a JavaScript `^` matches
 * after them, so the query writer's indentation corrupts an IRI that holds one). Not in ucschar:
 * controls, surrogates, private use (allowed in the query part), U+FFF0–U+FFFF,
 * U+E0000–U+E0FFF and every noncharacter.
 */
const UCSCHAR = [
  '\\u{A0}-\\u{200D}\\u{2010}-\\u{2027}\\u{202F}-\\u{D7FF}\\u{F900}-\\u{FDCF}\\u{FDF0}-\\u{FFEF}',
  // planes 1 to D: U+x0000–U+xFFFD
  ...Array.from({ length: 13 }, (_, i) => (i + 1).toString(16)).map((p) => `\\u{${p}0000}-\\u{${p}FFFD}`),
  '\\u{E1000}-\\u{EFFFD}',
].join('');
const IPRIVATE = '\\u{E000}-\\u{F8FF}\\u{F0000}-\\u{FFFFD}\\u{100000}-\\u{10FFFD}';
/** Inside a character class; `-` goes last. */
const UNRESERVED = `A-Za-z0-9._~${UCSCHAR}`;
const SUB_DELIMS = "!$&'()*+,;=";
const PCT_ENCODED = '%[0-9A-Fa-f]{2}';
const IPCHAR = `(?:[${UNRESERVED}${SUB_DELIMS}:@-]|${PCT_ENCODED})`;
const SEGMENT = `${IPCHAR}*`;
const SEGMENT_NZ = `${IPCHAR}+`;
const USERINFO = `(?:[${UNRESERVED}${SUB_DELIMS}:-]|${PCT_ENCODED})*`;
const REG_NAME = `(?:[${UNRESERVED}${SUB_DELIMS}-]|${PCT_ENCODED})*`;
const H16 = '[0-9A-Fa-f]{1,4}';
const DEC_OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])';
const IPV4 = `${DEC_OCTET}(?:\\.${DEC_OCTET}){3}`;
const LS32 = `(?:${H16}:${H16}|${IPV4})`;
/** `n` times `h16 ":"`; `upTo` times when `upTo` is set (RFC 3986 writes `*n( h16 ":" )`). */
const h16Colons = (n: number, upTo = false) => `(?:${H16}:)${upTo ? `{0,${n}}` : `{${n}}`}`;
const IPV6 = [
  `${h16Colons(6)}${LS32}`,
  `::${h16Colons(5)}${LS32}`,
  `(?:${H16})?::${h16Colons(4)}${LS32}`,
  `(?:${h16Colons(1, true)}${H16})?::${h16Colons(3)}${LS32}`,
  `(?:${h16Colons(2, true)}${H16})?::${h16Colons(2)}${LS32}`,
  `(?:${h16Colons(3, true)}${H16})?::${H16}:${LS32}`,
  `(?:${h16Colons(4, true)}${H16})?::${LS32}`,
  `(?:${h16Colons(5, true)}${H16})?::${H16}`,
  `(?:${h16Colons(6, true)}${H16})?::`,
].join('|');
const IPV_FUTURE = `v[0-9A-Fa-f]+\\.[A-Za-z0-9._~${SUB_DELIMS}:-]+`;
/** An IPv4 address is also a reg-name, so the host needs no alternative of its own for it. */
const HOST = `(?:\\[(?:${IPV6}|${IPV_FUTURE})\\]|${REG_NAME})`;
const AUTHORITY = `(?:${USERINFO}@)?${HOST}(?::[0-9]*)?`;
const HIER_PART = `(?://${AUTHORITY}(?:/${SEGMENT})*|/(?:${SEGMENT_NZ}(?:/${SEGMENT})*)?|${SEGMENT_NZ}(?:/${SEGMENT})*|)`;
const QUERY = `(?:${IPCHAR}|[${IPRIVATE}/?])*`;
const FRAGMENT = `(?:${IPCHAR}|[/?])*`;

/** A URI scheme (RFC 3986 §3.1) and its colon: what makes an IRI absolute. */
export const IRI_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/**
 * What the server accepts as an IRI: an absolute IRI by RFC 3987's grammar (`scheme ":"
 * ihier-part [ "?" iquery ] [ "#" ifragment ]`), without bidi formatting characters (§4.1) and
 * without U+2028/U+2029. So no controls (C0, DEL, C1), no space or `<>"{}|^\`` or backslash, no
 * noncharacters or lone surrogates, `%` only as `%` and two hex digits, `[` `]` only around an IP
 * address, one `#`. Both stores take every IRI it accepts (Oxigraph checks this same grammar;
 * Virtuoso is more lenient), and no such IRI can close the `<…>` it is written in.
 */
export const ABSOLUTE_IRI = new RegExp(`^[A-Za-z][A-Za-z0-9+.-]*:${HIER_PART}(?:\\?${QUERY})?(?:#${FRAGMENT})?$`, 'u');

/** The code points that may appear somewhere in an IRI: ASCII ones, ucschar (as above) and iprivate. */
export const IRI_CODE_POINT = new RegExp(`[A-Za-z0-9._~${SUB_DELIMS}:@/?#%[\\]${UCSCHAR}${IPRIVATE}-]`, 'u');

/** A BCP 47 language tag as RDF 1.1 writes them (`en`, `pt-BR`, `de-CH-1996`). */
export const LANGUAGE_TAG = /^[a-zA-Z]{1,8}(?:-[a-zA-Z0-9]{1,8})*$/;
