import rdf from '@rdfjs/data-model';
import fc from 'fast-check';
import oxigraph from 'oxigraph';
import type { SelectQuery } from 'sparqljs';
import { describe, expect, it } from 'vitest';
import { literal, op, str, variable } from '../../../src/sparql/ast.js';
import { codePointKey, codePointText, keyLike, textKey } from '../../../src/sparql/text-key.js';
import { toText } from '../../../src/sparql/to-text.js';

/** Code point order: what the README promises, and what the keys must give under UTF-16 order. */
const byCodePoint = (a: string, b: string): number => {
  const [x, y] = [[...a], [...b]];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d !== 0) return Math.sign(d);
  }
  return Math.sign(x.length - y.length);
};
/** UTF-16 code unit order: JavaScript's `<`, Java's String.compareTo (Jena). */
const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

// Characters on both sides of every edge the key moves: below and at U+D7FF, U+E000-U+FFFF, past U+FFFF.
const EDGES = [
  'a',
  'é',
  '\uD7FE',
  '\uD7FF',
  '\uE000',
  '\uFF01',
  '\uFFFD',
  '\uFFFF',
  '\u{10000}',
  '\u{1F600}',
  '\u{10FFFF}',
];

describe('codePointText: a key that orders by UTF-16 code unit as its text orders by code point', () => {
  it.each([
    ['\uFF01', '\u{1F600}', -1], // full-width "!" before an emoji by code point; after it by code unit
    ['\u{1F600}', '\uFFFF', 1],
    ['\uD7FF', '\u{10000}', -1], // the escape itself still comes before the supplementary characters
    ['\uD7FF', '\uE000', -1],
    ['\uD7FE', '\uD7FF', -1],
    ['\uD7FF\uFF01', '\uD7FF', 1],
    ['\uFF01 bang', '\uFF01', 1],
    ['a\u{1F600}', 'a\uFF01', 1],
    ['', '\uE000', -1],
    ['\u{1D49C} script', '\u{1F600}', -1],
    ['Z', 'a', -1],
    ['same\uFF01', 'same\uFF01', 0],
  ])('%j against %j: %i', (a, b, expected) => {
    expect(byCodePoint(a, b)).toBe(expected);
    expect(byCodeUnit(codePointText(a), codePointText(b))).toBe(expected);
  });

  it('orders any two texts of those characters as code point order does, and keeps them apart', () => {
    const text = fc.array(fc.constantFrom(...EDGES), { maxLength: 5 }).map((cs) => cs.join(''));
    fc.assert(
      fc.property(text, text, (a, b) => {
        expect(byCodeUnit(codePointText(a), codePointText(b))).toBe(byCodePoint(a, b));
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves text without those characters as it is', () => {
    expect(codePointText('Ébène, 日本語 and Ω')).toBe('Ébène, 日本語 and Ω');
    expect(codePointText('\uFF01\u{1F600}\uD7FF')).toBe('\uD7FF\uFF01\u{1F600}\uD7FF\uD7FF');
  });
});

describe('codePointKey: the same key, computed by a store', () => {
  // Oxigraph evaluates the REPLACE over a VALUES binding: the SPARQL form is the JavaScript one.
  const engine = new oxigraph.Store();
  it.each(EDGES.flatMap((c) => [c, `x${c}y${c}`]))('%j', (value) => {
    const query: SelectQuery = {
      type: 'query',
      queryType: 'SELECT',
      prefixes: {},
      variables: [{ expression: codePointKey(str(variable('v'))), variable: variable('k') }],
      where: [{ type: 'values', values: [{ '?v': rdf.literal(value) }] }],
    };
    const rows = engine.query(toText(query)) as Map<string, oxigraph.Term>[];
    expect(rows[0]?.get('k')?.value).toBe(codePointText(value));
  });
});

describe('toText and text keys', () => {
  const query = (expression: ReturnType<typeof op>): SelectQuery => ({
    type: 'query',
    queryType: 'SELECT',
    prefixes: {},
    variables: [variable('s')],
    where: [{ type: 'filter', expression }],
    order: [{ expression: textKey(str(variable('s'))) }],
  });
  const key = textKey(str(variable('s')));
  const marked = query(op('<', key, keyLike(key, literal('\uFF01'))));
  const plain = query(op('<', str(variable('s')), literal('\uFF01')));
  plain.order = [{ expression: str(variable('s')) }];

  it('writes a text key as the text itself for an engine that orders by code point: the query is unchanged', () => {
    expect(toText(marked)).toBe(toText(plain));
    expect(toText(marked, 'code point')).toBe(toText(plain));
  });

  it('writes every text key, constants too, as codePointKey for an engine that orders by UTF-16 code unit', () => {
    const text = toText(marked, 'UTF-16 code units');
    expect(text.match(/REPLACE\(/g)).toHaveLength(3);
    expect(text).not.toContain('urn:sparql-jsonapi:text-key');
    expect(text).toContain('REPLACE("\uFF01", "([\uD7FF\uE000-\uFFFF])", "\uD7FF$1")');
  });

  it('keyLike keeps a constant compared with anything else as it is', () => {
    expect(keyLike(variable('key0'), literal('a'))).toEqual(literal('a'));
    expect(keyLike(key, literal('a'))).toEqual(textKey(literal('a')));
  });
});
