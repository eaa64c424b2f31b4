import type { Expression, FunctionCallExpression } from 'sparqljs';
import { iri, literal, op } from './ast.js';

/*
 * Text order, owned by the server. The README promises text sorted by Unicode code point. Engines
 * built on Java or JavaScript strings (Jena ARQ, so Fuseki) compare text by UTF-16 code unit in
 * ORDER BY, MIN/MAX and `<`, which differs from code point order in one place only: a character
 * past U+FFFF is written as two surrogates (U+D800-U+DFFF), so it comes before U+E000-U+FFFF
 * (private use, full-width forms, specials) instead of after. The query builders mark every text
 * they order or compare as a text key ({@link textKey}); `to-text.ts` writes the mark as nothing
 * on an engine that orders by code point (its queries stay as they were, at no cost), and as
 * {@link codePointKey} on one the start-up engine check found ordering by UTF-16 code unit.
 */

/** The mark's function IRI: never sent to a store (`to-text.ts` writes it away). */
const TEXT_KEY = 'urn:sparql-jsonapi:text-key';

/**
 * Marks `text` (a string expression) as text the query orders or compares, to be written in the
 * engine's text order (see above). Compare a text key only with text keys: a constant too.
 *
 * @example op('<', textKey(str(variable('k0'))), textKey(literal('😀')))
 */
export function textKey(text: Expression): FunctionCallExpression {
  return { type: 'functionCall', function: iri(TEXT_KEY), args: [text], distinct: false };
}

/** The text under a {@link textKey} mark, or `undefined` when `expression` is none. */
export function markedText(expression: Expression): Expression | undefined {
  const call = expression as Partial<FunctionCallExpression>;
  return call.type === 'functionCall' && typeof call.function === 'object' && call.function.value === TEXT_KEY
    ? call.args?.[0]
    : undefined;
}

/**
 * The characters the UTF-16 order puts in the wrong place relative to the surrogates, and U+D7FF,
 * the escape put in front of each. The escape, below every surrogate, moves U+E000-U+FFFF before
 * the characters past U+FFFF; U+D7FF itself is escaped so that it still comes before them all.
 */
const MOVED = '([\uD7FF\uE000-\uFFFF])';
const ESCAPE = '\uD7FF';
/** The REPLACE's pattern and replacement as terms, and the pattern as a RegExp: made once. */
const MOVED_PATTERN = literal(MOVED);
const MOVED_REPLACEMENT = literal(`${ESCAPE}$1`);
const MOVED_EXPRESSION = new RegExp(MOVED, 'g');

/**
 * `text` as a key that orders by UTF-16 code unit exactly as `text` orders by code point:
 * `REPLACE(text, "([\uD7FF\uE000-\uFFFF])", "\uD7FF$1")`. Each character becomes a code, the
 * codes are ordered as their characters (U+0000-U+D7FE as themselves; U+D7FF as D7FF D7FF; U+E000-
 * U+FFFF as D7FF and the character; past U+FFFF as their surrogates, D800 and up) and none is the
 * start of another, so the keys of two texts compare as the texts by code point. A BMP-only
 * pattern: engines whose regular expressions read UTF-16 need no supplementary character in it.
 *
 * @example codePointKey(str(variable('k0'))) // REPLACE(STR(?k0), "([\uD7FF\uE000-\uFFFF])", "\uD7FF$1")
 */
export function codePointKey(text: Expression): Expression {
  return op('replace', text, MOVED_PATTERN, MOVED_REPLACEMENT);
}

/** What {@link codePointKey} makes of a string, for tables and checks: `codePointText('！')` is '\uD7FF！'. */
export function codePointText(text: string): string {
  return text.replace(MOVED_EXPRESSION, `${ESCAPE}$1`);
}

/**
 * `constant` (text) to compare with `expression`: a text key when `expression` is one, as it is.
 * A row's key that holds the engine's text key already (a MIN of text keys) takes a cursor's value
 * of it as it is.
 *
 * @example keyLike(textKey(str(variable('s'))), literal('a')) // textKey("a")
 */
export function keyLike(expression: Expression, constant: Expression): Expression {
  return markedText(expression) === undefined ? constant : textKey(constant);
}
