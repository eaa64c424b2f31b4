import type { Term } from '@rdfjs/types';

import {
  XSD_BOOLEAN as BOOLEAN,
  XSD_DECIMAL as DECIMAL,
  FLOATING_TYPES,
  INTEGER_TYPES,
  XSD_STRING as STRING,
} from '../rdf/vocabulary.js';

const INTEGER_LEXICAL = /^[+-]?\d+$/;
/** A decimal's lexical form, or a double's without INF and NaN: sign, digits, point, exponent. */
const NUMBER_LEXICAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;
/** XSD's special doubles, in the forms stores write them; shown in XSD's canonical form. */
const SPECIAL_DOUBLES: ReadonlyMap<string, string> = new Map([
  ['inf', 'INF'],
  ['+inf', 'INF'],
  ['-inf', '-INF'],
  ['nan', 'NaN'],
]);
/** Past this exponent a decimal's digits are not written out (no store holds such a decimal). */
const MAX_EXPONENT = 400;
/** Digits a double holds exactly for any decimal written with that many significant digits. */
const DOUBLE_DIGITS = 15;

export type JsonValue = string | number | boolean | null;

/**
 * Converts an RDF term to the JSON value of an attribute, one JSON form per value whichever store
 * holds it and however it writes the value (`1000000000000000000000000.0`, `1.0E24`, `1e+24`):
 * - an integer (any xsd integer type, or a decimal whose value is whole): a number up to 2^53,
 *   beyond as a string of its digits (`"1000000000000000000000000"`), so no digit is lost;
 * - any other decimal: a number when it has at most 15 significant digits (a double holds those
 *   exactly, and JSON writes them back unchanged), else a string of its digits with no exponent
 *   and no trailing zero (`"0.028316846592000004"`);
 * - a double or float: the number it reads as (JSON's shortest form of that double), `"INF"`,
 *   `"-INF"` or `"NaN"` for XSD's special values;
 * - xsd:boolean → `true`/`false` (Virtuoso's `1`/`0` too); anything else (dates, IRIs, strings,
 *   a number's lexical form that is none) → its lexical form unchanged.
 * `datatype` (from the mapping) types plain literals.
 *
 * @example literalToJson(literal('42', xsdInteger)) // 42
 * @example literalToJson(literal('1000000000000000000000000.0', xsdDecimal)) // "1000000000000000000000000"
 */
export function literalToJson(term: Term, datatype?: string): JsonValue {
  if (term.termType === 'BlankNode') return `_:${term.value}`;
  if (term.termType !== 'Literal') return term.value;
  const type = term.datatype.value === STRING && !term.language && datatype ? datatype : term.datatype.value;
  const lexical = term.value.trim();
  if (INTEGER_TYPES.has(type) && INTEGER_LEXICAL.test(lexical)) return decimalJson(lexical) ?? term.value;
  if (type === DECIMAL) return decimalJson(lexical) ?? term.value;
  if (FLOATING_TYPES.has(type)) {
    const special = SPECIAL_DOUBLES.get(lexical.toLowerCase());
    if (special !== undefined) return special;
    const number = NUMBER_LEXICAL.test(lexical) ? Number(lexical) : Number.NaN;
    return Number.isFinite(number) ? number : term.value;
  }
  if (type === BOOLEAN && (lexical === 'true' || lexical === '1')) return true;
  if (type === BOOLEAN && (lexical === 'false' || lexical === '0')) return false;
  return term.value;
}

/**
 * The JSON form of a decimal value written as `lexical` (exponents too: some stores keep a
 * decimal they cannot hold as written), by the rules of {@link literalToJson}; undefined when
 * `lexical` is no number.
 *
 * @example decimalJson('+0012.50') // 12.5
 * @example decimalJson('0.028316846592000004') // "0.028316846592000004"
 */
function decimalJson(lexical: string): number | string | undefined {
  const plain = plainDecimal(lexical);
  if (plain === undefined) return undefined;
  const digits = `${plain.whole}${plain.fraction}`.replace(/^0+/, '');
  const text = `${plain.negative && digits !== '' ? '-' : ''}${plain.whole || '0'}${plain.fraction ? `.${plain.fraction}` : ''}`;
  const number = Number(text);
  if (plain.fraction === '') return Number.isSafeInteger(number) ? number : text;
  return digits.length <= DOUBLE_DIGITS ? number : text;
}

/** A decimal number's digits with the point moved by its exponent: no leading zero before the point, no trailing zero after it. */
function plainDecimal(lexical: string): { negative: boolean; whole: string; fraction: string } | undefined {
  const match = NUMBER_LEXICAL.exec(lexical);
  if (match === null) return undefined;
  const [, sign, whole = '', fraction = '', exponentText] = match;
  if (whole === '' && fraction === '') return undefined;
  const exponent = Number(exponentText ?? 0);
  if (Math.abs(exponent) > MAX_EXPONENT) return undefined;
  // Every digit, and where the point goes among them.
  let all = whole + fraction;
  let point = whole.length + exponent;
  if (point < 0) [all, point] = ['0'.repeat(-point) + all, 0];
  if (point > all.length) all += '0'.repeat(point - all.length);
  return {
    negative: sign === '-',
    whole: all.slice(0, point).replace(/^0+/, ''),
    fraction: all.slice(point).replace(/0+$/, ''),
  };
}

/**
 * Orders values the way the store's MIN/MAX do for sorting (`sparql/comparable.ts`), for an
 * attribute without a numeric datatype: by code point (UTF-8 byte order; JavaScript's `<`
 * compares UTF-16 code units, which differs past U+FFFF).
 *
 * @example [b, a].sort(compareTerms)
 */
export function compareTerms(a: Term, b: Term): number {
  return codePointCompare(a.value, b.value);
}

/**
 * {@link compareTerms} for an attribute with a numeric datatype: by the number each lexical form
 * reads as, a value that is no number last; equal numbers by code point.
 *
 * @example [ten, nine].sort(compareNumericTerms) // nine, ten
 */
export function compareNumericTerms(a: Term, b: Term): number {
  const [x, y] = [Number(a.value.trim() || Number.NaN), Number(b.value.trim() || Number.NaN)];
  if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) ? (Number.isNaN(y) ? 0 : 1) : -1;
  if (x !== y) return x < y ? -1 : 1;
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
