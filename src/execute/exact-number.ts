import rdf from '@rdfjs/data-model';
import type { Literal, Term } from '@rdfjs/types';
import { XSD_DECIMAL, XSD_DOUBLE } from '../rdf/vocabulary.js';

/*
 * A number read back at the precision the store holds it: `rows.ts` finds the exact text a query
 * projects beside a numeric value (`sparql/comparable.ts`); this file turns the two into the
 * literal the document shows.
 */

/**
 * A number as the store holds it, from the exact text a query projected beside it
 * (`sparql/comparable.ts` exactDoubleText: the store's STR() and the remainder). A double is the
 * sum of the two: Virtuoso's JSON gives a double 6 significant digits. A decimal is its STR(),
 * which writes every digit the store holds whatever digits its result format keeps (the server
 * owns the answer, as for doubles; on Virtuoso 7.2.5 both give the 15 places it keeps). Any other
 * term, or text that is no number, is kept.
 *
 * @example exactNumber(literal('1.20893e+24', xsdDouble), literal('1.208925819614629e+24 134217728')) // "1.2089258196146292e+24"^^xsd:double
 * @example exactNumber(literal('0.028316846592', xsdDecimal), literal('0.028316846592000004 -3.4e-18')) // "0.028316846592000004"^^xsd:decimal
 */
export function exactNumber<T extends Term>(term: T, exact: Term | undefined): T | Literal {
  if (exact?.termType !== 'Literal' || term.termType !== 'Literal') return term;
  if (term.datatype.value === XSD_DECIMAL) {
    const text = exact.value.split(' ')[0]!;
    return DECIMAL_TEXT.test(text) && text !== term.value ? rdf.literal(text, term.datatype) : term;
  }
  if (term.datatype.value !== XSD_DOUBLE) return term;
  const [text, rest] = exact.value.split(' ').map(Number);
  // The largest doubles' 16 digits round past the largest double (1.797693134862316e+308): the
  // store's value is finite, so it is the largest one.
  const value =
    Math.abs(text!) === Infinity && Number.isFinite(Number(term.value))
      ? Math.sign(text!) * Number.MAX_VALUE
      : text! + rest!;
  return Number.isFinite(value) ? rdf.literal(String(value), term.datatype) : term;
}

/** A decimal's text as STR() writes it (an exponent too, should a store write one). */
const DECIMAL_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
