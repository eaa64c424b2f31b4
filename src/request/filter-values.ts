import type { Attribute } from '../mapping/model.js';

import { FLOATING_TYPES, INTEGER_TYPE_NAMES, NUMERIC_TYPES, XSD, XSD_BOOLEAN } from '../rdf/vocabulary.js';

/**
 * How an attribute's filter values compare: as text (`STR()` of every value, so that plain,
 * `xsd:string` and language-tagged values all match), or as typed values of `datatype`.
 */
export type Comparison =
  | { readonly kind: 'text' }
  | { readonly kind: 'typed'; readonly datatype: string; readonly ordered: boolean; readonly expected: string };

/** A lexical form checked against the datatype it will be compared as. */
export interface TypedValue {
  readonly lexical: string;
  readonly datatype: string;
}

const TZ = '(?:Z|[+-](?:(?:0\\d|1[0-3]):[0-5]\\d|14:00))?';
const YEAR = '-?(?:[1-9]\\d{4,}|\\d{4})';
const MONTH = '(?:0[1-9]|1[0-2])';
const DAY = '(?:0[1-9]|[12]\\d|3[01])';
const TIME = '(?:(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?|24:00:00(?:\\.0+)?)';
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

interface DatatypeRule {
  /** The datatype both sides are compared as (integer subtypes share xsd:integer's lexical space). */
  readonly as: string;
  readonly lexical: RegExp;
  readonly expected: string;
  /** false for booleans: eq and ne only. */
  readonly ordered: boolean;
  /** Maps an accepted lexical form to the one sent (booleans: 1/0 → true/false). */
  readonly canonical?: (lexical: string) => string;
}

const rule = (
  as: string,
  lexical: RegExp,
  expected: string,
  { ordered = true, canonical }: Partial<Pick<DatatypeRule, 'ordered' | 'canonical'>> = {},
): DatatypeRule => ({ as: XSD + as, lexical, expected, ordered, ...(canonical && { canonical }) });
const INTEGER = rule('integer', /^[+-]?\d+$/, 'an integer such as 42 or -7');

/** The XSD datatypes whose values filters parse and compare as typed literals. */
const RULES = new Map<string, DatatypeRule>([
  ...INTEGER_TYPE_NAMES.map((name) => [XSD + name, INTEGER] as const),
  [`${XSD}decimal`, rule('decimal', /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/, 'a decimal number such as 12.5 or -3')],
  [`${XSD}double`, rule('double', NUMBER, 'a number such as 12.5 or 1.2E3')],
  [`${XSD}float`, rule('float', NUMBER, 'a number such as 12.5 or 1.2E3')],
  [
    `${XSD}boolean`,
    rule('boolean', /^(?:true|false|1|0)$/, 'true or false', {
      ordered: false,
      canonical: (v) => (v === '1' || v === 'true' ? 'true' : 'false'),
    }),
  ],
  [
    `${XSD}date`,
    rule('date', new RegExp(`^${YEAR}-${MONTH}-${DAY}${TZ}$`), 'a date such as 2016-01-01 or 2016-01-01Z'),
  ],
  [
    `${XSD}dateTime`,
    rule('dateTime', new RegExp(`^${YEAR}-${MONTH}-${DAY}T${TIME}${TZ}$`), 'a date-time such as 2016-01-01T12:00:00Z'),
  ],
  [`${XSD}time`, rule('time', new RegExp(`^${TIME}${TZ}$`), 'a time such as 12:30:00 or 12:30:00Z')],
  [`${XSD}gYear`, rule('gYear', new RegExp(`^${YEAR}${TZ}$`), 'a year such as 2016')],
  [`${XSD}gYearMonth`, rule('gYearMonth', new RegExp(`^${YEAR}-${MONTH}${TZ}$`), 'a year and month such as 2016-03')],
]);

/**
 * How filters compare an attribute's values. Attributes with a `language`, no datatype,
 * `xsd:string`, or a datatype filters do not know (`xsd:anyURI`, a custom one) compare as text.
 *
 * @example comparisonOf({ name: 'budget', predicate: '…', datatype: 'http://www.w3.org/2001/XMLSchema#int', many: false }) // { kind: 'typed', datatype: xsd:integer, ordered: true, … }
 */
export function comparisonOf(attribute: Attribute): Comparison {
  const found =
    attribute.language === undefined && attribute.datatype !== undefined ? RULES.get(attribute.datatype) : undefined;
  return found
    ? { kind: 'typed', datatype: found.as, ordered: found.ordered, expected: found.expected }
    : { kind: 'text' };
}

/**
 * How an attribute's values compare, in filters, sort keys and the value a resource shows alike
 * (`sparql/comparable.ts` writes it in SPARQL): `number` for a numeric datatype, `typed` for the
 * other datatypes of the table above (dates, times, booleans), `text` for the rest.
 */
export type ValueOrder = 'number' | 'typed' | 'text';

export function valueOrder(attribute: Attribute): ValueOrder {
  const comparison = comparisonOf(attribute);
  if (comparison.kind === 'text') return 'text';
  return NUMERIC_TYPES.has(comparison.datatype) ? 'number' : 'typed';
}

/**
 * Checks `text` against the lexical space of a typed comparison's datatype.
 *
 * @example typedValue('http://www.w3.org/2001/XMLSchema#date', '2016-01-01Z') // { lexical: '2016-01-01Z', datatype: xsd:date }
 * @returns the value to compare with, or `undefined` when `text` is not a value of the datatype.
 */
export function typedValue(datatype: string, text: string): TypedValue | undefined {
  const found = [...RULES.values()].find((r) => r.as === datatype);
  if (!found?.lexical.test(text) || !validDay(datatype, text)) return undefined;
  return { lexical: found.canonical ? found.canonical(text) : text, datatype };
}

/**
 * Whether `text` may stand in a query as a literal of `datatype`: for the numbers and booleans
 * (whose literals Virtuoso checks when it reads the query, and refuses the whole query over one
 * that is not, SR341 / SR127 / SP030), a lexical form of the datatype (a double's or a float's
 * INF, -INF and NaN too); for every other datatype, any text. The values the server writes into a
 * cursor pass: number keys are the store's casts to xsd:double.
 *
 * @example fitsLexicalSpace('http://www.w3.org/2001/XMLSchema#integer', '9\\nE') // false
 */
export function fitsLexicalSpace(datatype: string, text: string): boolean {
  const found = RULES.get(datatype);
  if (found === undefined || !(NUMERIC_TYPES.has(found.as) || found.as === XSD_BOOLEAN)) return true;
  return found.lexical.test(text) || (FLOATING_TYPES.has(datatype) && /^(?:[+-]?INF|NaN)$/.test(text));
}

/** The day of a date must exist in its month (2016-02-30 matches the pattern but is no date). */
function validDay(datatype: string, text: string): boolean {
  if (datatype !== `${XSD}date` && datatype !== `${XSD}dateTime`) return true;
  const [, year, month, day] = /^(-?\d+)-(\d\d)-(\d\d)/.exec(text)!;
  const leap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const days = [31, leap(Number(year)) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][Number(month) - 1]!;
  return Number(day) <= days;
}

/**
 * Splits a filter value into its comma-separated values. `\,` stands for a comma inside a value
 * and `\\` for a backslash; any other backslash is kept as it is.
 *
 * @example splitValues('0101,calves\\, pure-bred') // ['0101', 'calves, pure-bred']
 */
export function splitValues(raw: string): string[] {
  const values: string[] = [];
  let current = '';
  for (let i = 0; i < raw.length; i += 1) {
    const char = raw[i]!;
    const next = raw[i + 1];
    if (char === '\\' && (next === ',' || next === '\\')) {
      current += next;
      i += 1;
    } else if (char === ',') {
      values.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  values.push(current);
  return values;
}
