import type { Term } from '@rdfjs/types';

/*
 * What a store changes in the data when it loads it, which no server can undo (docs/mapping.md,
 * "Numbers, exactly as the store holds them"): the equivalence suite excuses these, by rule, and
 * nothing else.
 */

const XSD_DECIMAL = 'http://www.w3.org/2001/XMLSchema#decimal';

/**
 * Whether Virtuoso 7 keeps an xsd:decimal's value when it loads it. Its DECIMAL holds at most 15
 * digits after the point and 40 digits in all: past 15 it rounds the fraction (0.00000000001157407
 * is kept as 0.000000000011574), past 40 in all it rounds to 40 (34 before the point keep 6 after
 * it), and an integer part of more than 40 digits becomes INF (QUDT's Planck units, 10^43 to
 * 10^113). Measured with STR() of the stored values on Virtuoso 7.2.5; no server can undo it.
 */
export function virtuosoKeepsDecimal(lexical: string): boolean {
  const match = /^[+-]?(\d*)(?:\.(\d*))?$/.exec(lexical.trim());
  if (match === null) return true;
  const whole = match[1]!.replace(/^0+/, '');
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  return fraction.length <= 15 && whole.length + fraction.length <= 40;
}

/**
 * Whether the store of that name (the harness's store names: `embedded`, `virtuoso`, …) changes
 * this value at load. The embedded store (Oxigraph) keeps every value: a decimal past its range
 * as written. A store not named here is held to every value.
 *
 * @example changedAtLoad('virtuoso', literal('0.2777777777777778', xsdDecimal)) // true
 */
export function changedAtLoad(store: string, term: Term): boolean {
  if (store !== 'virtuoso') return false;
  return term.termType === 'Literal' && term.datatype.value === XSD_DECIMAL && !virtuosoKeepsDecimal(term.value);
}
