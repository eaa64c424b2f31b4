import { describe, expect, it } from 'vitest';
import { XSD } from '../../../src/rdf/vocabulary.js';
import {
  chooseDatatype,
  chooseLanguage,
  type FieldContext,
  inferField,
  literalOptions,
} from '../../../src/scaffold/fields.js';
import type { PredicateStats } from '../../../src/scaffold/model.js';

const EX = 'http://example.org/';

/** Statistics of a predicate on 10 sampled members, with what a row sets. */
function stats(over: Partial<PredicateStats>): PredicateStats {
  return {
    iri: `${EX}p`,
    members: 10,
    max: 1,
    literals: 0,
    iris: 0,
    blanks: 0,
    datatypes: {},
    languages: {},
    objectClasses: {},
    ...over,
  };
}

const ctx: FieldContext = {
  sampled: 10,
  typeOf: (iri) =>
    ({ [`${EX}Concept`]: { name: 'concepts', members: 50 }, [`${EX}Thing`]: { name: 'things', members: 500 } })[iri],
  short: (iri) => iri.replace(EX, 'ex:').replace(XSD, 'xsd:'),
};

describe('chooseLanguage', () => {
  it.each([
    [[], undefined],
    [['en'], 'en'],
    [['el', 'en'], 'en'],
    [['en-us', 'fr'], 'en'],
    [['de'], 'de'],
    [['de', 'fr'], '*'],
  ])('%j → %s', (tags, expected) => {
    expect(chooseLanguage(tags)).toBe(expected);
  });
});

describe('chooseDatatype', () => {
  it('the datatype of at least 80 % of the plain literals', () => {
    expect(
      chooseDatatype({ [`${XSD}decimal`]: { members: 9, max: 1 }, [`${XSD}integer`]: { members: 1, max: 1 } }),
    ).toBe(`${XSD}decimal`);
  });
  it('none when no datatype dominates, or when the dominant one is xsd:string', () => {
    expect(
      chooseDatatype({ [`${XSD}decimal`]: { members: 6, max: 1 }, [`${XSD}integer`]: { members: 4, max: 1 } }),
    ).toBeUndefined();
    expect(chooseDatatype({ [`${XSD}string`]: { members: 10, max: 1 } })).toBeUndefined();
    expect(chooseDatatype({})).toBeUndefined();
  });
});

describe('inferField', () => {
  it('IRIs most of which are members of a scaffold type → a relationship to it', () => {
    const field = inferField(stats({ iris: 12, max: 2, objectClasses: { [`${EX}Concept`]: 11, '': 1 } }), ctx);
    expect(field).toMatchObject({ kind: 'relationship', target: 'concepts', cardinality: 'many' });
  });

  it('of two classes the values are members of, the one holding more of them (then the smaller class)', () => {
    const field = inferField(stats({ iris: 10, objectClasses: { [`${EX}Concept`]: 10, [`${EX}Thing`]: 10 } }), ctx);
    expect(field).toMatchObject({ kind: 'relationship', target: 'concepts', cardinality: 'one' });
  });

  it('IRIs mostly of no scaffold type → an attribute (their text)', () => {
    const field = inferField(stats({ iris: 10, objectClasses: { '': 8, [`${EX}Concept`]: 2 } }), ctx);
    expect(field).toMatchObject({ kind: 'attribute', many: false });
  });

  it('blank nodes whose predicates were not described, or that have none → left out, with the reason', () => {
    expect(inferField(stats({ blanks: 10 }), ctx)).toMatchObject({ kind: 'skip', note: /: blank nodes$/ });
    expect(inferField(stats({ blanks: 10, nodes: [] }), ctx)).toMatchObject({
      kind: 'skip',
      note: /: blank nodes without values$/,
    });
  });

  it('blank nodes with predicates → a structured attribute, a field per predicate, structured again below', () => {
    const symbol = stats({ iri: `${EX}symbol`, members: 20, literals: 20 });
    const unit = stats({ iri: `${EX}unit`, members: 3, iris: 3 });
    const points = stats({ iri: `${EX}point`, members: 2, max: 4, blanks: 6, nodes: [stats({ literals: 6 })] });
    const field = inferField(stats({ max: 3, blanks: 20, nodes: [symbol, unit, points] }), ctx);
    expect(field).toMatchObject({
      kind: 'attribute',
      many: true,
      note: '10 of 10 members, up to 3 each; 20 blank nodes, as objects',
      fields: [
        { kind: 'attribute', predicate: `${EX}symbol`, many: false, note: '20 of 20 members' },
        // Inside an attribute's value an IRI is text, whatever it is a member of.
        { kind: 'attribute', predicate: `${EX}unit`, many: false, note: '3 of 20 members; 3 IRIs' },
        {
          kind: 'attribute',
          predicate: `${EX}point`,
          many: true,
          fields: [{ kind: 'attribute', predicate: `${EX}p` }],
        },
      ],
    });
  });

  it('typed literals → an attribute with that datatype; the note says what the sample showed', () => {
    const field = inferField(
      stats({ literals: 12, max: 2, members: 7, datatypes: { [`${XSD}date`]: { members: 7, max: 2 } } }),
      ctx,
    );
    expect(field).toMatchObject({ kind: 'attribute', datatype: `${XSD}date`, many: true });
    expect(field.note).toBe('7 of 10 members, up to 2 each; xsd:date ×7');
  });
});

describe('literalOptions: many, with and without a language', () => {
  it('labels in several languages, one per language: one value, in English', () => {
    expect(
      literalOptions(
        stats({ literals: 20, max: 3, languages: { en: { members: 10, max: 1 }, el: { members: 8, max: 1 } } }),
      ),
    ).toEqual({ language: 'en', many: false });
  });
  it('two labels in one language: many', () => {
    expect(
      literalOptions(
        stats({ literals: 20, max: 2, languages: { de: { members: 10, max: 2 }, fr: { members: 3, max: 1 } } }),
      ),
    ).toEqual({ language: '*', many: true });
  });
  it('untagged values in twos count too', () => {
    expect(
      literalOptions(
        stats({
          literals: 20,
          max: 3,
          languages: { en: { members: 10, max: 1 } },
          datatypes: { [`${XSD}string`]: { members: 5, max: 2 } },
        }),
      ),
    ).toEqual({ language: 'en', many: true });
  });
});
