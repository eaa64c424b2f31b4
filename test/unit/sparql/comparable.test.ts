import rdf from '@rdfjs/data-model';
import oxigraph from 'oxigraph';
import type { Expression } from 'sparqljs';
import { describe, expect, it } from 'vitest';
import { exactNumber } from '../../../src/execute/exact-number.js';
import type { Attribute } from '../../../src/mapping/model.js';
import { XSD, XSD_DOUBLE } from '../../../src/rdf/vocabulary.js';
import { variable } from '../../../src/sparql/ast.js';
import { comparableValue, compareNumber, exactDoubleText, textConstant } from '../../../src/sparql/comparable.js';
import { toText } from '../../../src/sparql/to-text.js';

/*
 * The expressions are evaluated by Oxigraph itself (the embedded store's engine), over a value
 * bound with VALUES, so the tests check what a store computes, not the query text.
 */
const engine = new oxigraph.Store();
const V = variable('v');

function evaluate(expression: Expression, value: string): oxigraph.Term | undefined {
  const query = toText({
    type: 'query',
    queryType: 'SELECT',
    prefixes: {},
    variables: [{ expression, variable: variable('x') }],
    where: [{ type: 'values', values: [{ '?v': termOf(value) }] }],
  });
  const rows = engine.query(query) as Map<string, oxigraph.Term>[];
  return rows[0]?.get('x');
}

/** A value written as in N-Triples' object position: `"12"^^xsd:decimal`, `"x"`. */
function termOf(value: string) {
  const [, lexical, datatype] = /^"(.*)"(?:\^\^xsd:(\w+))?$/.exec(value)!;
  return datatype ? rdf.literal(lexical!, rdf.namedNode(XSD + datatype)) : rdf.literal(lexical!);
}

const attribute = (datatype?: string): Attribute => ({
  name: 'a',
  predicate: 'http://example.org/a',
  many: false,
  ...(datatype && { datatype: XSD + datatype }),
});

/** Exact comparison of two decimal lexical forms (no exponent), independent of any engine. */
function compareDecimals(a: string, b: string): number {
  const scale = (text: string) => {
    const [whole, fraction = ''] = text.replace(/^\+/, '').split('.');
    return { whole: whole!, fraction };
  };
  const [x, y] = [scale(a), scale(b)];
  const places = Math.max(x.fraction.length, y.fraction.length);
  const big = (d: { whole: string; fraction: string }) => BigInt(d.whole + d.fraction.padEnd(places, '0'));
  const diff = big(x) - big(y);
  return diff === 0n ? 0 : diff > 0n ? 1 : -1;
}

describe('comparableValue', () => {
  it.each([
    '"3600.0"^^xsd:decimal',
    '"1.0E-24"^^xsd:double',
    '"90071992547409931"^^xsd:integer',
    '"12"',
    // beyond what Oxigraph holds as a decimal: still read, as a double
    '"0.00000000000000000000000000166053878283"^^xsd:decimal',
    '"133177400000000000000000000000000000000000000000000000000000000000000000000000000000000000000000.0"^^xsd:decimal',
  ])('reads the number %s as the double its lexical form reads as', (value) => {
    const result = evaluate(comparableValue(attribute('decimal'), V), value);
    expect(result?.termType === 'Literal' && result.datatype.value).toBe(XSD_DOUBLE);
    expect(Number(result!.value)).toBe(Number(termOf(value).value));
  });
  it('gives no value for a number attribute’s value that is no number', () => {
    expect(evaluate(comparableValue(attribute('decimal'), V), '"n/a"')).toBeUndefined();
  });
  it('reads text as its STR(), whatever the datatype', () => {
    expect(evaluate(comparableValue(attribute(), V), '"12"^^xsd:integer')?.value).toBe('12');
  });
});

describe('compareNumber', () => {
  const values = [
    '90071992547409930',
    '90071992547409931',
    '3600.0',
    '-2.5',
    '0.1',
    '5545177444479562475.3378569716654',
    '1000000000000000000000', // beyond Oxigraph's decimals
  ];
  const constants = [
    '90071992547409930',
    '3600',
    '0.1',
    '5545177444479562475.3378569716653',
    '-3',
    '1000000000000000000000',
  ];
  const operators = ['=', '<', '<=', '>', '>='] as const;
  const holds = {
    '=': (c: number) => c === 0,
    '<': (c: number) => c < 0,
    '<=': (c: number) => c <= 0,
    '>': (c: number) => c > 0,
    '>=': (c: number) => c >= 0,
  };
  const oxigraphHolds = (lexical: string) => !/\.\d{19,}/.test(lexical) && Math.abs(Number(lexical)) < 1.7e20;
  for (const value of values)
    for (const constant of constants)
      for (const operator of operators) {
        // Exact where the engine holds the decimal; as doubles where it cannot.
        const exact = oxigraphHolds(value) && oxigraphHolds(constant);
        const expected = exact
          ? holds[operator](compareDecimals(value, constant))
          : holds[operator](Math.sign(Number(value) - Number(constant)));
        it(`${value} ${operator} ${constant} is ${expected} (${exact ? 'exact' : 'as doubles'})`, () => {
          const result = evaluate(
            compareNumber(attribute('decimal'), V, operator, constant),
            `"${value}"^^xsd:decimal`,
          );
          expect(result?.value === 'true').toBe(expected);
        });
      }
  it('compares a double attribute as doubles', () => {
    const result = evaluate(compareNumber(attribute('double'), V, '>', '1E24'), '"1.2089258196146292E24"^^xsd:double');
    expect(result?.value).toBe('true');
  });
});

describe('exactDoubleText and exactNumber', () => {
  it.each([
    '1208925819614629174706176', // 2^80: 17 significant digits
    '1.0E-24',
    '0.1',
    '1.7976931348623157E308',
    '-4.9E-324',
  ])('the double %s comes back exactly from the text the store writes', (lexical) => {
    const text = evaluate(exactDoubleText(V), `"${lexical}"^^xsd:double`);
    expect(text?.termType).toBe('Literal');
    const read = exactNumber(rdf.literal('0', rdf.namedNode(XSD_DOUBLE)), rdf.literal(text!.value));
    expect(Number(read.value)).toBe(Number(lexical));
  });
  it('adds the remainder to a text one digit short (Virtuoso’s STR of 2^80)', () => {
    const read = exactNumber(
      rdf.literal('1.20893e+24', rdf.namedNode(XSD_DOUBLE)),
      rdf.literal('1.208925819614629e+24 134217728'),
    );
    expect(Number(read.value)).toBe(2 ** 80);
  });
  it('reads the largest double, whose 16 digits overflow, as the largest double', () => {
    const read = exactNumber(
      rdf.literal('1.79769e+308', rdf.namedNode(XSD_DOUBLE)),
      rdf.literal('1.797693134862316e+308 -inf'),
    );
    expect(Number(read.value)).toBe(Number.MAX_VALUE);
  });
  it.each([
    ['0.028316846592', '0.028316846592000004 -3.469446951953614e-18', '0.028316846592000004'],
    ['5678.261703147071975', '5678.26170314707197474596 0', '5678.26170314707197474596'],
    ['1e+24', '1000000000000000000000000 0', '1000000000000000000000000'],
  ])('reads a decimal %s through its STR() %s', (shown, text, expected) => {
    const read = exactNumber(rdf.literal(shown, rdf.namedNode(`${XSD}decimal`)), rdf.literal(text));
    expect(read).toEqual(rdf.literal(expected, rdf.namedNode(`${XSD}decimal`)));
  });
  it('keeps every other term as it is', () => {
    const decimal = rdf.literal('0.1', rdf.namedNode(`${XSD}decimal`));
    expect(exactNumber(decimal, rdf.literal('0.1 -5.551115123125783e-18'))).toBe(decimal);
    expect(exactNumber(decimal, rdf.literal('INF'))).toBe(decimal);
    const integer = rdf.literal('1', rdf.namedNode(`${XSD}integer`));
    expect(exactNumber(integer, rdf.literal('1.0 0'))).toBe(integer);
    const double = rdf.literal('1', rdf.namedNode(XSD_DOUBLE));
    expect(exactNumber(double, undefined)).toBe(double);
    expect(exactNumber(double, rdf.literal('INF 0'))).toBe(double);
  });
});

describe('textConstant', () => {
  // Whether Virtuoso then compares it rightly is the cross-store suite's to say (filter eq España).
  it.each(['España', 'Türkiye', ' ₭', '😀', 'plain'])('%s is the same string to the engine', (text) => {
    expect(evaluate(textConstant(text), '"x"')?.value).toBe(text);
  });
});
