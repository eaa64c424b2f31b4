import type { Term } from '@rdfjs/types';

import {
  XSD_BOOLEAN as BOOLEAN,
  XSD_DECIMAL as DECIMAL,
  FLOATING_TYPES,
  INTEGER_TYPES,
  XSD_STRING as STRING,
} from '../rdf/vocabulary.js';

const INTEGER_LEXICAL = /^[+-]?\d+$/;
const DECIMAL_LEXICAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** Digits a decimal's value needs; past 15 a JSON number (a double) may not hold it exactly. */
function significantDigits(lexical: string): number {
  const digits = lexical.replace(/[eE].*$/, '').replace(/[^\d]/g, '');
  return digits.replace(/^0+/, '').replace(/0+$/, '').length;
}

export type JsonValue = string | number | boolean | null;

/**
 * Converts an RDF term to the JSON value of an attribute: xsd numbers → numbers (integers past
 * 2^53 and decimals of more than 15 significant digits stay strings, so no digit is lost; some
 * stores, Virtuoso among them, hand big integers back as xsd:decimal), xsd:boolean → booleans, everything else (dates, IRIs,
 * strings) → its lexical form unchanged. `datatype` (from the mapping) types plain literals.
 *
 * @example literalToJson(literal('42', xsdInteger)) // 42
 */
export function literalToJson(term: Term, datatype?: string): JsonValue {
  if (term.termType === 'BlankNode') return `_:${term.value}`;
  if (term.termType !== 'Literal') return term.value;
  const type = term.datatype.value === STRING && !term.language && datatype ? datatype : term.datatype.value;
  const lexical = term.value.trim();
  // A decimal without a fractional part is an integer too: Virtuoso holds integers of 2^53 and
  // more as xsd:decimal, and writes integer-valued decimals so ("1" for 1.0).
  if ((INTEGER_TYPES.has(type) || type === DECIMAL) && INTEGER_LEXICAL.test(lexical)) {
    const number = Number(lexical);
    return Number.isSafeInteger(number) ? number : term.value;
  }
  if ((type === DECIMAL || FLOATING_TYPES.has(type)) && DECIMAL_LEXICAL.test(lexical)) {
    const number = Number(lexical);
    const exact = type !== DECIMAL || significantDigits(lexical) <= 15;
    return Number.isFinite(number) && exact ? number : term.value;
  }
  if (type === BOOLEAN && (lexical === 'true' || lexical === '1')) return true;
  if (type === BOOLEAN && (lexical === 'false' || lexical === '0')) return false;
  return term.value;
}

/**
 * Orders values the way the store's MIN/MAX do for sorting (`sparql/comparable.ts`): with
 * `numbers` (an attribute with a numeric datatype) by the number each lexical form reads as, a
 * value that is no number last; otherwise by code point (UTF-8 byte order; JavaScript's `<`
 * compares UTF-16 code units, which differs past U+FFFF).
 */
export function compareTerms(a: Term, b: Term, numbers = false): number {
  if (numbers) {
    const [x, y] = [Number(a.value.trim() || Number.NaN), Number(b.value.trim() || Number.NaN)];
    if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) ? (Number.isNaN(y) ? 0 : 1) : -1;
    if (x !== y) return x < y ? -1 : 1;
  }
  return codePointCompare(a.value, b.value);
}

/**
 * Strings in Unicode code point order (the order of their UTF-8 bytes), without allocating: UTF-16
 * units compare the same way, except that a surrogate (half of a code point past U+FFFF) must come
 * after the units U+E000–U+FFFF. Any negative or positive number, or 0.
 *
 * @example codePointCompare('\uFFFD', '😀') < 0 // true, though '\uFFFD' > '😀' by UTF-16 units
 */
export function codePointCompare(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const [x, y] = [a.charCodeAt(i), b.charCodeAt(i)];
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) return (x <= 0xdfff ? x + 0x10000 : x) - (y <= 0xdfff ? y + 0x10000 : y);
    return x - y;
  }
  return a.length - b.length;
}
