import { describe, expect, it } from 'vitest';
import type { Attribute } from '../../../src/mapping/model.js';
import {
  comparisonOf,
  fitsLexicalSpace,
  splitValues,
  typedValue,
  valueOrder,
} from '../../../src/request/filter-values.js';

const XSD = 'http://www.w3.org/2001/XMLSchema#';

describe('filter values: typedValue, comparisonOf, splitValues', () => {
  it.each([
    ['integer', '-0042', true],
    ['integer', '1.0', false],
    ['integer', '', false],
    ['decimal', '+1.', true],
    ['decimal', '1,5', false],
    ['double', '1.5E-3', true],
    ['double', 'INF', false],
    ['float', '.5e2', true],
    ['boolean', 'false', true],
    ['boolean', 'True', false],
    ['date', '2000-02-29Z', true],
    ['date', '1900-02-29', false],
    ['date', '2016-13-01', false],
    ['date', '2016-01-01+14:00', true],
    ['date', '2016-01-01+15:00', false],
    ['date', '12016-01-01', true],
    ['date', '016-01-01', false],
    ['dateTime', '2016-01-01T24:00:00Z', true],
    ['dateTime', '2016-01-01T12:30:00.250+01:00', true],
    ['dateTime', '2016-01-01T12:30', false],
    ['dateTime', '2016-02-30T00:00:00', false],
    ['time', '23:59:59', true],
    ['time', '23:60:00', false],
    ['gYear', '2016', true],
    ['gYear', '-0044Z', true],
    ['gYear', '16', false],
    ['gYearMonth', '2016-03', true],
    ['gYearMonth', '2016-3', false],
  ])('xsd:%s: %j is a value: %s', (name, text, ok) => {
    expect(typedValue(`${XSD}${name}`, text) !== undefined).toBe(ok);
  });

  it.each([
    [{ datatype: `${XSD}int` }, { kind: 'typed', datatype: `${XSD}integer`, ordered: true }],
    [{ datatype: `${XSD}unsignedByte` }, { kind: 'typed', datatype: `${XSD}integer` }],
    [{ datatype: `${XSD}boolean` }, { kind: 'typed', datatype: `${XSD}boolean`, ordered: false }],
    [{ datatype: `${XSD}gYear` }, { kind: 'typed', datatype: `${XSD}gYear`, ordered: true }],
    [{}, { kind: 'text' }],
    [{ datatype: `${XSD}string` }, { kind: 'text' }],
    [{ datatype: `${XSD}anyURI` }, { kind: 'text' }],
    [{ datatype: 'http://example.org/custom' }, { kind: 'text' }],
    [{ language: 'en' }, { kind: 'text' }],
    [{ datatype: `${XSD}integer`, language: 'en' }, { kind: 'text' }],
  ])('an attribute %j compares as %j', (extra, expected) => {
    expect(comparisonOf({ name: 'a', predicate: 'http://example.org/p', many: false, ...extra })).toMatchObject(
      expected,
    );
  });

  it.each([
    ['', ['']],
    ['a', ['a']],
    ['a,b,,c', ['a', 'b', '', 'c']],
    [String.raw`a\,b`, ['a,b']],
    [String.raw`a\\,b`, ['a\\', 'b']],
    [String.raw`a\\\,b`, ['a\\,b']],
    [String.raw`\\`, ['\\']],
    [String.raw`a\b`, [String.raw`a\b`]],
    ['a\\', ['a\\']],
  ])('splitValues(%j) = %j', (raw, expected) => {
    expect(splitValues(raw)).toEqual(expected);
  });
});

const attribute = (datatype?: string): Attribute => ({
  name: 'a',
  predicate: 'http://example.org/a',
  many: false,
  ...(datatype && { datatype: XSD + datatype }),
});

describe('valueOrder', () => {
  it.each([
    [undefined, 'text'],
    ['string', 'text'],
    ['anyURI', 'text'],
    ['integer', 'number'],
    ['int', 'number'],
    ['decimal', 'number'],
    ['double', 'number'],
    ['float', 'number'],
    ['date', 'typed'],
    ['boolean', 'typed'],
  ])('an attribute typed %s compares as %s', (datatype, order) => {
    expect(valueOrder(attribute(datatype))).toBe(order);
  });
  it('an attribute with a language compares as text, whatever its datatype', () => {
    expect(valueOrder({ ...attribute('decimal'), language: 'en' })).toBe('text');
  });
});

describe('fitsLexicalSpace: the literals a query may hold', () => {
  it.each([
    ['integer', '-42', true],
    ['integer', '9\\nE`]', false],
    ['int', '1.5', false],
    ['nonNegativeInteger', '+7', true],
    ['decimal', '.5', true],
    ['decimal', 'abc', false],
    ['double', '-1.2E3', true],
    ['double', 'INF', true],
    ['float', 'NaN', true],
    ['double', 'inf', false],
    ['boolean', '0', true],
    ['boolean', 'yes', false],
    // Not checked: the store reads them as they are, and data may hold such values.
    ['date', '2016-13-45', true],
    ['dateTime', 'abc', true],
    ['string', 'anything', true],
  ])('xsd:%s %j → %s', (type, text, fits) => {
    expect(fitsLexicalSpace(`${XSD}${type}`, text)).toBe(fits);
  });
  it('a datatype outside XSD: any text', () => {
    expect(fitsLexicalSpace('http://example.org/celsius', 'warm')).toBe(true);
  });
});
