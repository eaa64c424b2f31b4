/**
 * RDF vocabulary the server relies on, defined once: namespaces, the XSD datatypes it treats
 * specially, and the lexical rules of IRIs and language tags. Every stage imports from here.
 */

export const XSD = 'http://www.w3.org/2001/XMLSchema#';
export const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
export const RDFS = 'http://www.w3.org/2000/01/rdf-schema#';
export const SH = 'http://www.w3.org/ns/shacl#';

export const XSD_STRING = `${XSD}string`;
export const XSD_BOOLEAN = `${XSD}boolean`;
export const XSD_DECIMAL = `${XSD}decimal`;
export const XSD_DOUBLE = `${XSD}double`;
export const XSD_FLOAT = `${XSD}float`;
export const RDF_TYPE = `${RDF}type`;
export const RDF_LANG_STRING = `${RDF}langString`;
export const RDFS_CLASS = `${RDFS}Class`;

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
 * backslash); the loader escapes them. What the server accepts as an IRI is `mapping/iri.ts`
 * `isSafeAbsoluteIri`.
 */
export const FORBIDDEN_IRI_CHARS = /[\u0000-\u0020<>"{}|^`\\]/u;

/**
 * Whether a literal's text from a client can go into a query on every store: Virtuoso answers an
 * error for a query holding U+0000 (no literal holds it in practice), and a lone UTF-16 surrogate
 * can't be written as UTF-8 (a cursor's JSON can hold one; a percent-decoded parameter can't).
 *
 * @example isSendableText('a\u0000b') // false
 */
export const isSendableText = (text: string): boolean => text.isWellFormed() && !text.includes('\u0000');

/** A URI scheme (RFC 3986 §3.1) and its colon: what makes an IRI absolute. */
export const IRI_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/** A BCP 47 language tag as RDF 1.1 writes them (`en`, `pt-BR`, `de-CH-1996`). */
export const LANGUAGE_TAG = /^[a-zA-Z]{1,8}(?:-[a-zA-Z0-9]{1,8})*$/;

/** `xsd:double` and `xsd:float`: the binary floating-point types. */
export const FLOATING_TYPES: ReadonlySet<string> = new Set([XSD_DOUBLE, XSD_FLOAT]);

/** Every XSD numeric type: the integers, `xsd:decimal` and the floating-point types. */
export const NUMERIC_TYPES: ReadonlySet<string> = new Set([...INTEGER_TYPES, XSD_DECIMAL, ...FLOATING_TYPES]);

/**
 * The local names of XSD 1.1's built-in datatypes (XML Schema Part 2, §3): a mapping's `datatype`
 * in the XSD namespace must be one of them; any other is a typo (`xsd:decmal`).
 */
export const XSD_DATATYPE_NAMES: readonly string[] = Object.freeze([
  'anyType',
  'anySimpleType',
  'anyAtomicType',
  'string',
  'normalizedString',
  'token',
  'language',
  'Name',
  'NCName',
  'NMTOKEN',
  'NMTOKENS',
  'ID',
  'IDREF',
  'IDREFS',
  'ENTITY',
  'ENTITIES',
  'boolean',
  'decimal',
  ...INTEGER_TYPE_NAMES,
  'float',
  'double',
  'duration',
  'yearMonthDuration',
  'dayTimeDuration',
  'dateTime',
  'dateTimeStamp',
  'time',
  'date',
  'gYearMonth',
  'gYear',
  'gMonthDay',
  'gDay',
  'gMonth',
  'hexBinary',
  'base64Binary',
  'anyURI',
  'QName',
  'NOTATION',
]);
