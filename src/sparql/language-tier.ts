import type { Expression, Pattern } from 'sparqljs';
import { type LanguageTier, languageTiers } from '../mapping/language.js';
import type { Attribute } from '../mapping/model.js';
import { XSD_BOOLEAN } from '../rdf/vocabulary.js';
import { filter, literal, op, str } from './ast.js';
import { textKey } from './text-key.js';

/** Tier characters, in code point order: a sort key's first character. */
const TIER_CHARACTERS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * The tier of a value of a language attribute, as a one-character string that a sort key puts in
 * front of the value's text, so that MIN (or MAX) picks the preferred language first: with
 * `best: 'low'` the most preferred tier is the smallest character, with `best: 'high'` the
 * largest. The tiers are `languageTiers` (`mapping/language.ts`), the same list `shape/` follows
 * when it picks the value a resource shows. Tags compare case-insensitively (`LCASE`, and
 * `LANGMATCHES`, which ignores case), with standard SPARQL 1.1 functions only, so that Oxigraph
 * and Virtuoso agree. `language: '*'` has one tier: every value counts alike.
 *
 * A strict attribute's values outside its language get the worst character; its sort key must
 * also drop them with {@link strictLanguageFilter} in the OPTIONAL that binds the values, so that
 * a resource without a value in the language has no key (and sorts last), as it shows `null`. A
 * tier that fails instead does not do it: Oxigraph's MIN is unbound when any value is, and
 * Virtuoso's CONCAT takes an unbound argument for "".
 *
 * @example languageTier(op('lang', variable('k0')), label, 'low')
 * // language en: IF(LCASE(LANG(?k0)) = "en", "0", IF(LANGMATCHES(LANG(?k0), "en"), "1", IF(LANG(?k0) = "", "2", "3")))
 */
export function languageTier(lang: Expression, attribute: Attribute, best: 'low' | 'high'): Expression {
  const tiers = languageTiers(attribute);
  // Strict tiers need one more character, for the values none of them takes.
  const count = tiers.at(-1)?.kind === 'any' ? tiers.length : tiers.length + 1;
  const character = (index: number) => literal(TIER_CHARACTERS[best === 'low' ? index : count - 1 - index]!);
  let expression: Expression = character(count - 1);
  for (let index = count - 2; index >= 0; index--)
    expression = op('if', tierTest(lang, tiers[index]!), character(index), expression);
  return expression;
}

/**
 * `CONCAT(tier, STR(value))`: the text a key of `attribute` compares, behind its tier character,
 * so that MIN (MAX with `best: 'high'`) picks the preferred language first and ORDER BY then skips
 * the character. An attribute in no language has one tier, "0". A text key (`text-key.ts`): MIN
 * and ORDER BY compare it by code point on every engine, and the key a row holds is the engine's
 * text key (a cursor's value of it too, compared as it is).
 *
 * @example tieredText(variable('k0'), label, 'low') // CONCAT(IF(LCASE(LANG(?k0)) = "en", "0", …), STR(?k0))
 */
export function tieredText(value: Expression, attribute: Attribute, best: 'low' | 'high'): Expression {
  const tier = attribute.language === undefined ? literal('0') : languageTier(op('lang', value), attribute, best);
  return textKey(op('concat', tier, str(value)));
}

/**
 * For a strict language attribute, the FILTER that keeps only the values in its language
 * (`LANGMATCHES(LANG(?k0), "de")`), to go inside the OPTIONAL that binds them; none otherwise.
 *
 * @example strictLanguageFilter(variable('k0'), { language: 'de', strictLanguage: true, … }) // [FILTER(LANGMATCHES(LANG(?k0), "de"))]
 */
export function strictLanguageFilter(value: Expression, attribute: Attribute): Pattern[] {
  if (!attribute.strictLanguage) return [];
  const range = languageTiers(attribute).find((tier) => tier.kind === 'range');
  return range === undefined ? [] : [filter(tierTest(op('lang', value), range))];
}

function tierTest(lang: Expression, tier: LanguageTier): Expression {
  switch (tier.kind) {
    case 'exact':
      return op('=', op('lcase', lang), literal(tier.tag));
    case 'range':
      return op('langmatches', lang, literal(tier.range));
    case 'untagged':
      return op('=', lang, literal(''));
    case 'any':
      return literal('true', XSD_BOOLEAN);
  }
}
