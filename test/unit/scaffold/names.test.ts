import { describe, expect, it } from 'vitest';
import { kebab, localName, NameBook, plural } from '../../../src/scaffold/names.js';
import { titled } from '../../support/titled.js';

describe('localName', () => {
  it.each(
    titled(
      [
        { iri: 'http://www.w3.org/2004/02/skos/core#prefLabel', expected: 'prefLabel' },
        { iri: 'http://qudt.org/schema/qudt/QuantityKind', expected: 'QuantityKind' },
        { iri: 'http://example.org/Concept/', expected: 'Concept' },
        { iri: 'urn:example:Thing', expected: 'Thing' },
      ],
      (row) => row.iri,
    ),
  )('%s', (_, { iri, expected }) => {
    expect(localName(iri)).toBe(expected);
  });
});

describe('kebab and plural: JSON:API names from local names', () => {
  it.each(
    titled(
      [
        { local: 'prefLabel', kebab: 'pref-label', plural: 'pref-labels' },
        { local: 'QuantityKind', kebab: 'quantity-kind', plural: 'quantity-kinds' },
        { local: 'Concept', kebab: 'concept', plural: 'concepts' },
        { local: 'TradeActivity', kebab: 'trade-activity', plural: 'trade-activities' },
        { local: 'HTTPServer', kebab: 'http-server', plural: 'http-servers' },
        { local: 'iec61360Code', kebab: 'iec61360-code', plural: 'iec61360-codes' },
        { local: 'ConceptScheme', kebab: 'concept-scheme', plural: 'concept-schemes' },
        { local: 'Class', kebab: 'class', plural: 'classes' },
        { local: 'Box', kebab: 'box', plural: 'boxes' },
        { local: 'Day', kebab: 'day', plural: 'days' },
        { local: 'Person', kebab: 'person', plural: 'people' },
        { local: 'Analysis', kebab: 'analysis', plural: 'analyses' },
        { local: 'GraphMetaData', kebab: 'graph-meta-data', plural: 'graph-meta-data' },
        { local: 'Économie', kebab: 'economie', plural: 'economies' },
        { local: 'has_part', kebab: 'has-part', plural: 'has-parts' },
        { local: '名前', kebab: '', plural: '' },
      ],
      (row) => row.local,
    ),
  )('%s', (_, row) => {
    expect(kebab(row.local)).toBe(row.kebab);
    expect(plural(row.kebab)).toBe(row.plural);
  });
});

describe('NameBook: distinct member names', () => {
  it('hands out the first free candidate, then a qualified one, then a numbered one', () => {
    const book = new NameBook();
    expect(book.claim(['label'], 'field')).toBe('label');
    expect(book.claim(['label', 'skos-label'], 'field')).toBe('skos-label');
    expect(book.claim(['label', 'skos-label'], 'field')).toBe('label-2');
    expect(book.claim(['label'], 'field')).toBe('label-3');
  });

  it('never hands out a reserved name, nor one that is no JSON:API member name', () => {
    const book = new NameBook(new Set(['id', 'type']));
    expect(book.claim(['id', 'dcterms-id'], 'field')).toBe('dcterms-id');
    expect(book.claim(['type'], 'value')).toBe('value');
    expect(book.claim(['名前'], 'value')).toBe('value-2');
    expect(book.claim(['-'], 'value')).toBe('value-3');
  });

  it('makes every candidate kebab-case first', () => {
    const book = new NameBook();
    expect(book.claim(['year published'], 'field')).toBe('year-published');
  });
});
