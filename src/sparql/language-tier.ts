import type { Expression } from 'sparqljs';
import type { Attribute } from '../mapping/model.js';
import { literal, op } from './ast.js';

/**
 * The tier of a value of a language attribute, as a one-character string that a sort key puts in
 * front of the value's text, so that MIN (or MAX) picks the preferred language first: with
 * `best: 'low'` the most preferred tier is the smallest digit, with `best: 'high'` the largest.
 * The same preference as `shape/` applies when it picks the value a resource shows.
 *
 * @example languageTier(op('lang', variable('k0')), label, 'low') // IF(LANGMATCHES(LANG(?k0), "en"), "0", IF(LANG(?k0) = "", "1", "2"))
 */
export function languageTier(lang: Expression, attribute: Attribute, best: 'low' | 'high'): Expression {
  const [first, last] = best === 'low' ? ['0', '2'] : ['2', '0'];
  return op(
    'if',
    op('langmatches', lang, literal(attribute.language ?? '*')),
    literal(first),
    op('if', op('=', lang, literal('')), literal('1'), literal(last)),
  );
}
