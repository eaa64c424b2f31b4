import rdf from '@rdfjs/data-model';
import type { Term } from '@rdfjs/types';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  codePointCompare,
  compareNumericTerms,
  compareTerms,
  type JsonValue,
  literalToJson,
} from '../../../src/shape/literal-to-json.js';

const XSD = 'http://www.w3.org/2001/XMLSchema#';
const typed = (value: string, type: string) => rdf.literal(value, rdf.namedNode(XSD + type));

describe('literalToJson', () => {
  it.each<{ name: string; input: Term; datatype?: string; expected: JsonValue }>([
    // integers → numbers
    { name: 'xsd:integer', input: typed('42', 'integer'), expected: 42 },
    // A decimal without a fractional part is an integer (Virtuoso holds integers of 2^53 and more as decimals)
    {
      name: 'an integer-valued decimal past 2^53',
      input: typed('1000000000000000000000', 'decimal'),
      expected: '1000000000000000000000',
    },
    { name: 'an integer-valued decimal', input: typed('42', 'decimal'), expected: 42 },
    {
      name: 'an integer-valued decimal of an integer attribute',
      input: typed('9007199328993040', 'decimal'),
      datatype: `${XSD}integer`,
      expected: '9007199328993040',
    },
    { name: 'xsd:integer negative', input: typed('-42', 'integer'), expected: -42 },
    { name: 'xsd:int', input: typed('7', 'int'), expected: 7 },
    { name: 'xsd:long', input: typed('9007199254740991', 'long'), expected: 9007199254740991 },
    { name: 'xsd:short', input: typed('-300', 'short'), expected: -300 },
    { name: 'xsd:byte', input: typed('12', 'byte'), expected: 12 },
    { name: 'xsd:nonNegativeInteger', input: typed('0', 'nonNegativeInteger'), expected: 0 },
    { name: 'xsd:unsignedLong', input: typed('18', 'unsignedLong'), expected: 18 },
    { name: 'xsd:positiveInteger', input: typed('3', 'positiveInteger'), expected: 3 },
    { name: 'xsd:integer "+5"', input: typed('+5', 'integer'), expected: 5 },
    { name: 'xsd:integer "007"', input: typed('007', 'integer'), expected: 7 },
    { name: 'xsd:integer with surrounding spaces', input: typed(' 42 ', 'integer'), expected: 42 },
    // past 2^53 the digits would be lost: the lexical form stays
    { name: 'xsd:integer past 2^53', input: typed('90071992547409931', 'integer'), expected: '90071992547409931' },
    { name: 'xsd:integer 2^53', input: typed('9007199254740992', 'integer'), expected: '9007199254740992' },
    {
      name: 'xsd:unsignedLong max',
      input: typed('18446744073709551615', 'unsignedLong'),
      expected: '18446744073709551615',
    },
    // not an integer lexical form: unchanged
    { name: 'xsd:integer "1.5"', input: typed('1.5', 'integer'), expected: '1.5' },
    { name: 'xsd:integer "abc"', input: typed('abc', 'integer'), expected: 'abc' },
    { name: 'xsd:integer ""', input: typed('', 'integer'), expected: '' },
    // decimals and floating point
    { name: 'xsd:decimal "1250"', input: typed('1250', 'decimal'), expected: 1250 },
    { name: 'xsd:decimal "98765.43"', input: typed('98765.43', 'decimal'), expected: 98765.43 },
    { name: 'xsd:decimal "-.5"', input: typed('-.5', 'decimal'), expected: -0.5 },
    { name: 'xsd:decimal "1."', input: typed('1.', 'decimal'), expected: 1 },
    { name: 'xsd:double "1e3"', input: typed('1e3', 'double'), expected: 1000 },
    { name: 'xsd:double "1.5E-2"', input: typed('1.5E-2', 'double'), expected: 0.015 },
    { name: 'xsd:float "0.25"', input: typed('0.25', 'float'), expected: 0.25 },
    { name: 'xsd:double "INF"', input: typed('INF', 'double'), expected: 'INF' },
    { name: 'xsd:double "-INF"', input: typed('-INF', 'double'), expected: '-INF' },
    { name: 'xsd:double "NaN"', input: typed('NaN', 'double'), expected: 'NaN' },
    { name: 'xsd:double "1e400" (not finite)', input: typed('1e400', 'double'), expected: '1e400' },
    { name: 'xsd:decimal "0x10"', input: typed('0x10', 'decimal'), expected: '0x10' },
    { name: 'xsd:decimal "1,5"', input: typed('1,5', 'decimal'), expected: '1,5' },
    // booleans
    { name: 'xsd:boolean "true"', input: typed('true', 'boolean'), expected: true },
    { name: 'xsd:boolean "false"', input: typed('false', 'boolean'), expected: false },
    { name: 'xsd:boolean "1"', input: typed('1', 'boolean'), expected: true },
    { name: 'xsd:boolean "0"', input: typed('0', 'boolean'), expected: false },
    { name: 'xsd:boolean "yes"', input: typed('yes', 'boolean'), expected: 'yes' },
    { name: 'xsd:boolean "TRUE"', input: typed('TRUE', 'boolean'), expected: 'TRUE' },
    // dates and the rest: lexical form unchanged
    { name: 'xsd:date "2016-01-01Z"', input: typed('2016-01-01Z', 'date'), expected: '2016-01-01Z' },
    {
      name: 'xsd:dateTime',
      input: typed('2016-01-01T12:30:00+02:00', 'dateTime'),
      expected: '2016-01-01T12:30:00+02:00',
    },
    { name: 'xsd:gYear', input: typed('2016', 'gYear'), expected: '2016' },
    { name: 'xsd:string', input: typed('  spaced  ', 'string'), expected: '  spaced  ' },
    { name: 'unknown datatype', input: rdf.literal('42', rdf.namedNode('http://x/type')), expected: '42' },
    // language-tagged strings → the text
    { name: 'lang string', input: rdf.literal('Live animals', 'en'), expected: 'Live animals' },
    { name: 'lang string that looks like a number', input: rdf.literal('42', 'en'), expected: '42' },
    {
      name: 'lang string with a mapping datatype',
      input: rdf.literal('42', 'en'),
      datatype: `${XSD}integer`,
      expected: '42',
    },
    // IRIs and blank nodes
    {
      name: 'IRI',
      input: rdf.namedNode('http://linkedeconomy.org/resource/country/GR'),
      expected: 'http://linkedeconomy.org/resource/country/GR',
    },
    {
      name: 'IRI with a mapping datatype',
      input: rdf.namedNode('http://x/1'),
      datatype: `${XSD}integer`,
      expected: 'http://x/1',
    },
    { name: 'blank node', input: rdf.blankNode('b0'), expected: '_:b0' },
    // the mapping's datatype types plain literals only
    { name: 'plain "42" with mapping xsd:integer', input: rdf.literal('42'), datatype: `${XSD}integer`, expected: 42 },
    { name: 'plain "42" without a mapping datatype', input: rdf.literal('42'), expected: '42' },
    {
      name: 'plain "12.5" with mapping xsd:decimal',
      input: rdf.literal('12.5'),
      datatype: `${XSD}decimal`,
      expected: 12.5,
    },
    {
      name: 'plain "true" with mapping xsd:boolean',
      input: rdf.literal('true'),
      datatype: `${XSD}boolean`,
      expected: true,
    },
    {
      name: 'plain "abc" with mapping xsd:integer',
      input: rdf.literal('abc'),
      datatype: `${XSD}integer`,
      expected: 'abc',
    },
    {
      name: '"42"^^xsd:integer with mapping xsd:string',
      input: typed('42', 'integer'),
      datatype: `${XSD}string`,
      expected: 42,
    },
    {
      name: '"42"^^xsd:gYear with mapping xsd:integer',
      input: typed('42', 'gYear'),
      datatype: `${XSD}integer`,
      expected: '42',
    },
  ])('$name', ({ input, datatype, expected }) => {
    expect(literalToJson(input, datatype)).toStrictEqual(expected);
  });
});

describe('compareTerms', () => {
  const sign = (a: Term, b: Term, numbers: boolean) => Math.sign((numbers ? compareNumericTerms : compareTerms)(a, b));
  it.each([
    // an attribute with a numeric datatype: by the number each lexical form reads as
    { a: typed('9', 'integer'), b: typed('10', 'integer'), numbers: true, expected: -1 },
    { a: typed('10', 'integer'), b: typed('9', 'integer'), numbers: true, expected: 1 },
    { a: typed('-2', 'integer'), b: typed('1', 'integer'), numbers: true, expected: -1 },
    { a: typed('2.5', 'decimal'), b: typed('10', 'integer'), numbers: true, expected: -1 },
    { a: typed('1e3', 'double'), b: typed('999', 'integer'), numbers: true, expected: 1 },
    { a: rdf.literal('9'), b: rdf.literal('10'), numbers: true, expected: -1 },
    { a: rdf.literal('n/a'), b: typed('10', 'integer'), numbers: true, expected: 1 },
    // equal numbers: by code point, so the order is total
    { a: typed('10', 'integer'), b: typed('10.0', 'decimal'), numbers: true, expected: -1 },
    // any other attribute: by code point, typed numbers too
    { a: typed('9', 'integer'), b: typed('10', 'integer'), numbers: false, expected: 1 },
    { a: rdf.literal('9'), b: rdf.literal('10'), numbers: false, expected: 1 },
    { a: rdf.literal('Z'), b: rdf.literal('a'), numbers: false, expected: -1 },
    { a: rdf.literal('a'), b: rdf.literal('É'), numbers: false, expected: -1 },
    { a: rdf.literal('Z'), b: rdf.literal('É'), numbers: false, expected: -1 },
    { a: rdf.literal('É'), b: rdf.literal('a'), numbers: false, expected: 1 },
    { a: rdf.literal('ab'), b: rdf.literal('a'), numbers: false, expected: 1 },
    { a: rdf.literal('same'), b: rdf.literal('same'), numbers: false, expected: 0 },
    // past U+FFFF: U+1F600 comes after U+FF5A by code point (UTF-16 code units say otherwise)
    { a: rdf.literal('\u{1F600}'), b: rdf.literal('\uFF5A'), numbers: false, expected: 1 },
    { a: rdf.literal('\uFF5A'), b: rdf.literal('\u{1F600}'), numbers: false, expected: -1 },
  ])('$a.value vs $b.value (numbers: $numbers) → $expected', ({ a, b, numbers, expected }) => {
    expect(sign(a, b, numbers)).toBe(expected);
  });

  it('sorts numbers numerically and text by code point', () => {
    const numbers = ['10', '9', '100', '-1'].map((v) => typed(v, 'integer'));
    expect([...numbers].sort(compareNumericTerms).map((t) => t.value)).toEqual(['-1', '9', '10', '100']);
    const words = ['é', 'a', 'Z', 'É', 'z'].map((v) => rdf.literal(v));
    expect([...words].sort(compareTerms).map((t) => t.value)).toEqual(['Z', 'a', 'z', 'É', 'é']);
  });
});

describe('codePointCompare', () => {
  it('orders any strings as their UTF-8 bytes do (code point order), surrogate pairs too', () => {
    const text = fc.string({
      unit: fc.oneof(fc.constantFrom('a', '\uE000', '\uFFFD', '😀', '𝄞'), fc.string({ unit: 'grapheme' })),
    });
    fc.assert(
      fc.property(text, text, (a, b) => {
        expect(Math.sign(codePointCompare(a, b))).toBe(Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b))));
      }),
      { numRuns: 2000 },
    );
  });

  it('puts U+FFFD before 😀, which UTF-16 units order the other way', () => {
    expect('\uFFFD' > '😀').toBe(true);
    expect(codePointCompare('\uFFFD', '😀')).toBeLessThan(0);
  });
});

/**
 * One JSON form per value, whichever store holds it and however it writes it: each row's lexical
 * forms are ways stores (or data) write the same value; all must give `expected`.
 */
describe('literalToJson: one JSON form per value', () => {
  it.each<{ name: string; type: string; forms: string[]; expected: JsonValue }>([
    {
      name: 'a whole decimal past 2^53 (QUDT YottaC: Oxigraph keeps it as written, Virtuoso as an integer)',
      type: 'decimal',
      forms: [
        '1000000000000000000000000.0',
        '1000000000000000000000000',
        '1.0E24',
        '1e+24',
        '+0001000000000000000000000000.000',
      ],
      expected: '1000000000000000000000000',
    },
    {
      name: 'a whole decimal under 2^53',
      type: 'decimal',
      forms: ['3600.0', '3600', '3.6E3', '003600.00'],
      expected: 3600,
    },
    {
      name: 'a decimal of more than 15 significant digits',
      type: 'decimal',
      forms: ['0.028316846592000004', '.0283168465920000040', '2.8316846592000004E-2', '+0.028316846592000004'],
      expected: '0.028316846592000004',
    },
    {
      name: 'a negative decimal of more than 15 significant digits',
      type: 'decimal',
      forms: ['-5678.2617031470719747459655389854000', '-5678.2617031470719747459655389854'],
      expected: '-5678.2617031470719747459655389854',
    },
    {
      name: 'a small decimal of few digits',
      type: 'decimal',
      forms: ['0.00000000000000000016021765314', '1.6021765314E-19', '0.000000000000000000160217653140'],
      expected: 1.6021765314e-19,
    },
    { name: 'decimal zero', type: 'decimal', forms: ['0', '0.0', '-0.0', '.0', '0E5'], expected: 0 },
    { name: 'an integer with a sign and zeros', type: 'integer', forms: ['+007', '7', '0007'], expected: 7 },
    {
      name: 'an integer past 2^53 with zeros in front',
      type: 'integer',
      forms: ['+0090071992547409931', '90071992547409931'],
      expected: '90071992547409931',
    },
    {
      name: 'a double, however many digits the store writes',
      type: 'double',
      forms: [
        '1.2089258196146292E24',
        '1208925819614629174706176',
        '1.2089258196146292e+24',
        '1208925819614629174706176.0',
      ],
      expected: 1.2089258196146292e24,
    },
    { name: 'a double one', type: 'double', forms: ['1', '1.0', '1.0E0', '1e0', '+1'], expected: 1 },
    { name: 'positive infinity', type: 'double', forms: ['INF', 'inf', '+INF'], expected: 'INF' },
    { name: 'negative infinity', type: 'double', forms: ['-INF', '-inf'], expected: '-INF' },
    { name: 'not a number', type: 'double', forms: ['NaN', 'nan'], expected: 'NaN' },
  ])('$name', ({ type, forms, expected }) => {
    for (const form of forms) expect(literalToJson(typed(form, type)), form).toStrictEqual(expected);
  });

  it('gives a decimal one JSON text whatever its trailing zeros, leading zeros or exponent', () => {
    const decimal = fc
      .tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.integer({ min: 0, max: 25 }))
      .map(([negative, digits, scale]) => {
        const text = digits.toString().padStart(scale + 1, '0');
        return `${negative ? '-' : ''}${text.slice(0, text.length - scale)}${scale > 0 ? `.${text.slice(-scale)}` : ''}`;
      });
    fc.assert(
      fc.property(decimal, fc.integer({ min: 0, max: 5 }), fc.integer({ min: -5, max: 5 }), (lexical, zeros, shift) => {
        const expected = JSON.stringify(literalToJson(typed(lexical, 'decimal')));
        const [whole, fraction = ''] = lexical.replace('-', '').split('.');
        const sign = lexical.startsWith('-') ? '-' : '';
        const padded = `${sign}${'0'.repeat(zeros)}${whole}.${fraction}${'0'.repeat(zeros)}`;
        // The same value with the point moved by `shift` and an exponent that moves it back.
        const digits = `${whole}${fraction}`;
        const point = whole!.length - shift;
        const moved =
          point <= 0
            ? `0.${'0'.repeat(-point)}${digits}`
            : point >= digits.length
              ? `${digits}${'0'.repeat(point - digits.length)}`
              : `${digits.slice(0, point)}.${digits.slice(point)}`;
        const exponent = `${sign}${moved}E${shift}`;
        expect(JSON.stringify(literalToJson(typed(padded, 'decimal'))), padded).toBe(expected);
        expect(JSON.stringify(literalToJson(typed(exponent, 'decimal'))), exponent).toBe(expected);
      }),
    );
  });
});
