import type { Term } from '@rdfjs/types';

const XSD = 'http://www.w3.org/2001/XMLSchema#';
const INTEGER_TYPES = new Set(
  ['integer', 'long', 'int', 'short', 'byte', 'nonNegativeInteger', 'positiveInteger', 'negativeInteger', 'nonPositiveInteger', 'unsignedLong', 'unsignedInt', 'unsignedShort', 'unsignedByte'].map((t) => XSD + t),
);
const DECIMAL_TYPES = new Set(['decimal', 'double', 'float'].map((t) => XSD + t));
const BOOLEAN = `${XSD}boolean`;
const STRING = `${XSD}string`;
const INTEGER_LEXICAL = /^[+-]?\d+$/;
const DECIMAL_LEXICAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

export type JsonValue = string | number | boolean | null;

/**
 * Converts an RDF term to the JSON value of an attribute: xsd numbers → numbers (integers past
 * 2^53 stay strings, so no digit is lost), xsd:boolean → booleans, everything else (dates, IRIs,
 * strings) → its lexical form unchanged. `datatype` (from the mapping) types plain literals.
 *
 * @example literalToJson(literal('42', xsdInteger)) // 42
 */
export function literalToJson(term: Term, datatype?: string): JsonValue {
  if (term.termType === 'BlankNode') return `_:${term.value}`;
  if (term.termType !== 'Literal') return term.value;
  const type = term.datatype.value === STRING && !term.language && datatype ? datatype : term.datatype.value;
  const lexical = term.value.trim();
  if (INTEGER_TYPES.has(type) && INTEGER_LEXICAL.test(lexical)) {
    const number = Number(lexical);
    return Number.isSafeInteger(number) ? number : term.value;
  }
  if (DECIMAL_TYPES.has(type) && DECIMAL_LEXICAL.test(lexical)) {
    const number = Number(lexical);
    return Number.isFinite(number) ? number : term.value;
  }
  if (type === BOOLEAN && (lexical === 'true' || lexical === '1')) return true;
  if (type === BOOLEAN && (lexical === 'false' || lexical === '0')) return false;
  return term.value;
}

/** Orders values the way the store's MIN/MAX do for sorting: numbers numerically, the rest by code point. */
export function compareTerms(a: Term, b: Term): number {
  const numeric = (t: Term) => t.termType === 'Literal' && (INTEGER_TYPES.has(t.datatype.value) || DECIMAL_TYPES.has(t.datatype.value));
  if (numeric(a) && numeric(b)) return Number(a.value) - Number(b.value);
  return a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
}
