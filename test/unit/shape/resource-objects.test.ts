import rdf from '@rdfjs/data-model';
import { describe, expect, it } from 'vitest';
import { attributeValue, shownValues } from '../../../src/shape/resource-objects.js';
import { attributeOf, LANGUAGE_CASES, label, METRE } from '../../support/language-cases.js';

describe('attributeValue: language choice', () => {
  it.each(LANGUAGE_CASES)('$name', (c) => {
    expect(attributeValue(attributeOf(c), [...c.values])).toEqual(c.shown);
    expect(attributeValue(attributeOf(c, true), [...c.values])).toEqual(c.many);
  });

  it('without a language: the least value of any, or all of them', () => {
    const plain = { name: 'label', predicate: 'http://x/p', many: false };
    expect(attributeValue(plain, METRE)).toBe('M');
    expect(attributeValue({ ...plain, many: true }, METRE)).toEqual(['M', 'Meter', 'Meter', 'Metre', 'Metre (UK)']);
    expect(shownValues(plain, METRE)).toEqual(METRE);
  });

  it('* keys IRIs and typed values under und, typed by the datatype', () => {
    const star = {
      name: 'size',
      predicate: 'http://x/p',
      language: '*',
      datatype: 'http://www.w3.org/2001/XMLSchema#integer',
      many: true,
    };
    expect(attributeValue(star, [rdf.literal('7'), rdf.namedNode('http://x/a'), label('sept', 'fr')])).toEqual({
      fr: ['sept'],
      und: [7, 'http://x/a'],
    });
  });

  it('a strict attribute never shows untagged values', () => {
    expect(
      shownValues({ name: 'l', predicate: 'http://x/p', language: 'en', strictLanguage: true, many: false }, [
        label('x'),
        label('y', 'de'),
      ]),
    ).toEqual([]);
  });
});
