import rdf from '@rdfjs/data-model';
import type { Term } from '@rdfjs/types';
import type { Attribute } from '../../src/mapping/model.js';

/**
 * One table of language choices, shared by the shape's unit tests (the value a resource shows)
 * and the sort keys' (the value MIN/MAX pick): both must pick the same value.
 */
export const label = (value: string, language?: string): Term =>
  language === undefined ? rdf.literal(value) : rdf.literal(value, language);

/** Metre in several tags: the sub-tag values are less than the exact ones, so the least value alone would pick them. */
export const METRE = [
  label('Metre', 'en'),
  label('Meter', 'en-US'),
  label('Metre (UK)', 'en-GB'),
  label('Meter', 'de'),
  label('M'),
];

export interface LanguageCase {
  readonly name: string;
  readonly language: string;
  readonly strictLanguage?: boolean;
  readonly values: readonly Term[];
  /** What a single-valued attribute shows; for `*`, the object by tag. */
  readonly shown: unknown;
  /** What the attribute shows with `many: true`. */
  readonly many: unknown;
}

export const LANGUAGE_CASES: readonly LanguageCase[] = [
  { name: 'en: the exact tag beats en-US', language: 'en', values: METRE, shown: 'Metre', many: ['Metre'] },
  { name: 'en-us: the exact tag', language: 'en-us', values: METRE, shown: 'Meter', many: ['Meter'] },
  { name: 'en-gb: the exact tag', language: 'en-gb', values: METRE, shown: 'Metre (UK)', many: ['Metre (UK)'] },
  { name: 'en-au: its truncation en', language: 'en-au', values: METRE, shown: 'Metre', many: ['Metre'] },
  {
    name: 'en without en: the least of en-*',
    language: 'en',
    values: [label('Metre (UK)', 'en-GB'), label('Meter', 'en-US'), label('M')],
    shown: 'Meter',
    many: ['Meter', 'Metre (UK)'],
  },
  {
    name: 'en-us-x-nyc: truncations skip the singleton, en-US wins over en',
    language: 'en-us-x-nyc',
    values: METRE,
    shown: 'Meter',
    many: ['Meter'],
  },
  {
    name: 'es-mx: the truncation es beats another es-*',
    language: 'es-mx',
    values: [label('Alpha', 'es-ES'), label('Beta', 'es'), label('Aaa')],
    shown: 'Beta',
    many: ['Beta'],
  },
  {
    name: 'es-mx: another es-* beats untagged',
    language: 'es-mx',
    values: [label('Beta', 'es-ES'), label('Alpha', 'es-AR'), label('Aaa')],
    shown: 'Alpha',
    many: ['Alpha', 'Beta'],
  },
  { name: 'pt-BR absent: untagged', language: 'pt-br', values: METRE, shown: 'M', many: ['M'] },
  {
    name: 'pt-BR absent, nothing untagged: the least of any',
    language: 'pt-br',
    values: METRE.slice(0, 4),
    shown: 'Meter',
    many: ['Meter', 'Meter', 'Metre', 'Metre (UK)'],
  },
  { name: 'tags ignore case', language: 'en-us', values: [label('a', 'EN-us'), label('0')], shown: 'a', many: ['a'] },
  { name: 'de strict: present', language: 'de', strictLanguage: true, values: METRE, shown: 'Meter', many: ['Meter'] },
  {
    name: 'de-ch strict: its truncation de',
    language: 'de-ch',
    strictLanguage: true,
    values: METRE,
    shown: 'Meter',
    many: ['Meter'],
  },
  {
    name: 'de strict: de-AT counts',
    language: 'de',
    strictLanguage: true,
    values: [label('b', 'de-AT'), label('a', 'en'), label('0')],
    shown: 'b',
    many: ['b'],
  },
  { name: 'fr strict: absent → null', language: 'fr', strictLanguage: true, values: METRE, shown: null, many: [] },
  { name: 'fr: absent → untagged', language: 'fr', values: METRE, shown: 'M', many: ['M'] },
  { name: 'no values', language: 'en', values: [], shown: null, many: [] },
  {
    name: '*: every tag, lowercase, und for untagged',
    language: '*',
    values: METRE,
    shown: { de: 'Meter', en: 'Metre', 'en-gb': 'Metre (UK)', 'en-us': 'Meter', und: 'M' },
    many: { de: ['Meter'], en: ['Metre'], 'en-gb': ['Metre (UK)'], 'en-us': ['Meter'], und: ['M'] },
  },
  {
    name: '*: several values of one tag',
    language: '*',
    values: [label('b', 'en'), label('a', 'EN'), label('c')],
    shown: { en: 'a', und: 'c' },
    many: { en: ['a', 'b'], und: ['c'] },
  },
  { name: '*: no values', language: '*', values: [], shown: {}, many: {} },
];

export const attributeOf = (c: LanguageCase, many = false): Attribute => ({
  name: 'label',
  predicate: 'http://www.w3.org/2000/01/rdf-schema#label',
  language: c.language,
  ...(c.strictLanguage && { strictLanguage: true }),
  many,
});
