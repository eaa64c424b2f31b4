/**
 * The engine questions about text (`engine-questions.ts`): in what order a text sort key puts
 * texts, and how a cursor's FILTER compares them.
 */
import type { LiteralTerm, SelectQuery } from 'sparqljs';
import { XSD_STRING } from '../../rdf/vocabulary.js';
import { filter, integer, literal, op, values } from '../../sparql/ast.js';
import { comparableValue, textConstant } from '../../sparql/comparable.js';
import { keyLike } from '../../sparql/text-key.js';
import { N, probe, type Question, select, T, text } from './engine-question.js';

const TEXT = probe();

/**
 * Texts whose orders tell the usual engines apart: by code point (the promise), by UTF-16 code
 * unit (Java and JavaScript strings: U+FF01 after U+1F600's surrogates), or by a locale's
 * collation (case and accents second, spaces ignored). In several of the forms a store holds
 * text in: plain, language-tagged, typed xsd:string.
 */
const TEXTS: readonly LiteralTerm[] = [
  literal('B'),
  literal('a', XSD_STRING),
  literal('a b', 'en'),
  literal('ab'),
  literal('b', 'en'),
  literal('e\u0301'),
  literal('z', 'fr'),
  literal('é'),
  literal('Ω', 'el'),
  literal('\uFF01'),
  literal('\u{1F600}'),
];

/** Code point order: what the README promises for text (docs/api.md, sorting). */
function byCodePoint(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}
const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Names the order of `texts` as answered: by code point, by UTF-16 code unit, or another. */
function textOrderName(answered: readonly string[], texts: readonly string[]): string {
  const same = (order: readonly string[]) => order.every((t, i) => answered[i] === t);
  if (answered.length !== texts.length) return `${answered.length} of ${texts.length} texts`;
  if (same([...texts].sort(byCodePoint))) return 'code point';
  if (same([...texts].sort(byCodeUnit))) return 'UTF-16 code units';
  return `another order (${answered.map((t) => JSON.stringify(t)).join(' < ')}): a locale's collation?`;
}

/** The texts in the engine's order of a text sort key. */
const textOrderQuery = (): SelectQuery => select([T], [values(TEXTS.map((t) => ({ t })))], comparableValue(TEXT, T));

/**
 * Every ordered pair of texts (by number), and which of them a cursor's FILTER finds below the
 * other: `STR(?t) < "constant"`, both text keys, with the constant written as keyset-clause writes it.
 */
const TEXT_KEY = comparableValue(TEXT, T);
const PAIRS = TEXTS.flatMap((a, i) => TEXTS.flatMap((b, j) => (i === j ? [] : [[a, b] as const])));
const textCompareQuery = (): SelectQuery =>
  select(
    [N],
    [
      values(PAIRS.map(([a], n) => ({ n: integer(n), t: a }))),
      filter(
        PAIRS.map(([, b], n) =>
          op('&&', op('=', N, integer(n)), op('<', TEXT_KEY, keyLike(TEXT_KEY, textConstant(b.value)))),
        ).reduce((all, one) => op('||', all, one)),
      ),
    ],
  );

/** The questions about text. */
export const TEXT_QUESTIONS: readonly Question[] = [
  {
    check: 'text-order',
    query: textOrderQuery,
    read: (rows) => {
      const found = textOrderName(
        rows.map((r) => text(r)),
        TEXTS.map((t) => t.value),
      );
      return { holds: found === 'code point', found };
    },
    consequence: (found) =>
      `lists sorted by text come in the engine's order (${found}), not by Unicode code point as on other engines`,
  },
  {
    check: 'text-compare',
    query: textCompareQuery,
    read: (rows) => {
      const below = new Set(rows.map((r) => Number(text(r, 'n'))));
      const answered = (order: (a: string, b: string) => number) =>
        PAIRS.every(([a, b], n) => below.has(n) === order(a.value, b.value) < 0);
      const found = answered(byCodePoint) ? 'code point' : answered(byCodeUnit) ? 'UTF-16 code units' : 'another order';
      return { holds: found === 'code point', found };
    },
    consequence: (found) =>
      `filters on text and the cursors of lists sorted by text compare in the engine's order (${found}), not by Unicode code point; where it differs from the engine's sort order, cursor pages skip or repeat members`,
  },
];
