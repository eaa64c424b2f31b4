import type { Expression } from 'sparqljs';
import type { Attribute } from '../mapping/model.js';
import { FLOATING_TYPES, XSD_BOOLEAN, XSD_DECIMAL, XSD_DOUBLE, XSD_STRING } from '../rdf/vocabulary.js';
import { valueOrder } from '../request/filter-values.js';
import { iri, literal, op, str } from './ast.js';
import { textKey } from './text-key.js';

/*
 * How values compare, owned by the server rather than by each store's habits. Engines disagree on
 * how they order and compare the values SPARQL leaves to them: Virtuoso orders strings it holds in
 * different internal forms apart (ORDER BY put "G" before " ₭") while its FILTER compares their
 * text, and Oxigraph cannot compare decimals beyond its range (an error in FILTER, a panic in
 * ORDER BY). So every comparison, in a sort key, a cursor's keyset FILTER and a filter alike, is
 * on a value the server chose by the attribute's mapping, one that every engine compares the same:
 * - numbers (a numeric `datatype`): read from the value's lexical form (see comparableValue);
 * - booleans, dates and times: as the typed values themselves (both engines follow XPath here);
 * - everything else (no datatype, xsd:string, a language, other datatypes, IRIs): as text, STR(),
 *   by Unicode code point, as a text key (`text-key.ts`), which owns that order on every engine.
 */

/**
 * The value `value` of `attribute` compares by in a sort key: a number as an xsd:double, which
 * every engine orders alike; numbers equal as doubles tie, and ties go to the id. An attribute
 * typed xsd:double or xsd:float casts the value itself (Virtuoso's STR() of a double has 16
 * digits, one short of some doubles); others cast the value's text, which every engine reads into
 * the same double, also for a decimal one engine cannot hold (Oxigraph, past 18 decimal places or
 * ±1.7·10^20) and for plain literals the mapping types. A value that is no number is an error,
 * so no key. No IF: Virtuoso 7.2 hangs, and then answers no query at all, on some
 * IF(DATATYPE(?o) = …) over stored values.
 *
 * @example comparableValue(budget, variable('k0')) // xsd:double(STR(?k0))
 */
export function comparableValue(attribute: Attribute, value: Expression): Expression {
  const order = valueOrder(attribute);
  if (order === 'text') return textKey(str(value));
  // `+ 0` makes equal numbers one term: Jena's cast keeps the text it read ("100" and "1.0E2" stay
  // two terms), and Jena's ORDER BY orders equal values by their terms, and its GROUP BY groups them
  // apart, before any later key; a sum is a new double, written one way.
  return order === 'number' ? op('+', asDouble(attribute, value), literal('0', XSD_DOUBLE)) : value;
}

/**
 * Whether `value` of a number attribute reads as a number: false, not an error, when it does not
 * or there is no value. On the cast alone, not on comparableValue's sum: with two least-value
 * OPTIONALs beside it in a parent's OPTIONAL, Virtuoso 7.2 found no number in the sum for some
 * members without the second key (real-shapes /groups/18/items?sort=-count,born put two of them
 * last), while it read the cast right.
 *
 * @example isNumberValue(budget, variable('key0')) // COALESCE(ISNUMERIC(xsd:double(STR(?key0))), false)
 */
export function isNumberValue(attribute: Attribute, value: Expression): Expression {
  return op('coalesce', op('isnumeric', asDouble(attribute, value)), literal('false', XSD_BOOLEAN));
}

/**
 * A filter's comparison of a number with a constant (a decimal or double lexical form): exact, as
 * xsd:decimal, when the constant is a decimal both engines hold (at most 18 decimal places, under
 * 10^20) and the value is one the engine holds as a decimal; as xsd:double otherwise, on every
 * engine alike. `dec < c || dbl < c`: the double comparison is strict, and a double below
 * another's is a decimal below it too, so it only decides when the decimal one is an error (a
 * value past Oxigraph's range). Not COALESCE: Virtuoso's gives the double even when the decimal
 * is there. Attributes typed xsd:double or xsd:float compare as doubles.
 *
 * @example compareNumber(budget, variable('f0'), '>', '1000') // xsd:decimal(STR(?f0)) > 1000 || xsd:double(STR(?f0)) > 1000
 */
export function compareNumber(
  attribute: Attribute,
  value: Expression,
  operator: '=' | '<' | '<=' | '>' | '>=',
  lexical: string,
): Expression {
  const double = (o: string) => op(o, asDouble(attribute, value), literal(lexical, XSD_DOUBLE));
  if (isDoubleTyped(attribute) || !EXACT_DECIMAL.test(lexical)) return double(operator);
  const decimal = op(operator, cast(XSD_DECIMAL, str(value)), literal(lexical, XSD_DECIMAL));
  if (operator === '=') return decimal;
  return op('||', decimal, double(operator === '<=' ? '<' : operator === '>=' ? '>' : operator));
}

/** A decimal lexical form every engine holds exactly: under 10^20, at most 18 decimal places. */
const EXACT_DECIMAL = /^[+-]?0*\d{0,20}(?:\.\d{0,18})?$/;

const isDoubleTyped = (attribute: Attribute) => FLOATING_TYPES.has(attribute.datatype ?? '');

function asDouble(attribute: Attribute, value: Expression): Expression {
  return cast(XSD_DOUBLE, isDoubleTyped(attribute) ? value : str(value));
}

/**
 * A double's exact value as text that any engine writes in full: `STR(x)` and, after a space, the
 * difference between `x` and the double that text reads as. Virtuoso writes a double's value in
 * SPARQL JSON with 6 significant digits and its STR() with 16, one short of what some doubles need
 * (2^80 comes back as 1.208925819614629e+24, the double below it); the difference is a small
 * multiple of the last digit's place, exact in few digits, and the sum of the two is the double
 * the store holds (`execute/rows.ts` reads it). On other engines the difference is 0. For a value
 * that is no number it is an error (unbound); readers use it for xsd:double values, and the STR()
 * alone for xsd:decimal ones.
 *
 * @example exactDoubleText(variable('key0')) // CONCAT(STR(?key0), " ", STR(?key0 - xsd:double(STR(?key0))))
 */
export function exactDoubleText(x: Expression): Expression {
  return op('concat', str(x), literal(' '), str(op('-', x, cast(XSD_DOUBLE, str(x)))));
}

function cast(datatype: string, of: Expression): Expression {
  return { type: 'functionCall', function: iri(datatype), args: [of], distinct: false };
}

/**
 * A string constant to compare text with. Virtuoso compares stored text with a constant that has
 * non-ASCII characters wrongly (`STR("É…") < "É…"` holds, and `IN ("España")` misses it), unless
 * the constant is built as it builds stored text: STR(STRDT(…, xsd:string)), which is the same
 * string in SPARQL.
 *
 * @example textConstant('España') // STR(STRDT("España", xsd:string))
 */
export function textConstant(value: string): Expression {
  return /^[\x00-\x7f]*$/.test(value) ? literal(value) : str(op('strdt', literal(value), iri(XSD_STRING)));
}
