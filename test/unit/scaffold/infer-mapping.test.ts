import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { compileMapping } from '../../../src/mapping/load-mapping.js';
import { XSD } from '../../../src/rdf/vocabulary.js';
import { inferMapping } from '../../../src/scaffold/infer-mapping.js';
import type { ClassStats, Introspection, PredicateStats } from '../../../src/scaffold/model.js';
import { writeMapping } from '../../../src/scaffold/write-mapping.js';

const EX = 'http://example.org/ns#';
const SKOS = 'http://www.w3.org/2004/02/skos/core#';
const DCT = 'http://purl.org/dc/terms/';
const SCHEMA = 'http://schema.org/';
const MU_UUID = 'http://mu.semte.ch/vocabularies/core/uuid';

function predicate(iri: string, over: Partial<PredicateStats> = {}): PredicateStats {
  return {
    iri,
    members: 4,
    max: 1,
    literals: 4,
    iris: 0,
    blanks: 0,
    datatypes: { [`${XSD}string`]: { members: 4, max: 1 } },
    languages: {},
    objectClasses: {},
    ...over,
  };
}

const concept: ClassStats = {
  iri: `${SKOS}Concept`,
  members: 40,
  sampled: 4,
  id: { kind: 'template', prefix: 'http://example.org/concept/', why: 'hex' },
  predicates: [
    predicate(`${SKOS}prefLabel`, {
      max: 2,
      datatypes: {},
      languages: { en: { members: 4, max: 1 }, el: { members: 2, max: 1 } },
    }),
    predicate(`${SKOS}broader`, {
      literals: 0,
      iris: 5,
      max: 2,
      datatypes: {},
      objectClasses: { [`${SKOS}Concept`]: 5 },
    }),
    predicate(`${SKOS}topConceptOf`, {
      literals: 0,
      iris: 2,
      members: 2,
      datatypes: {},
      objectClasses: { [`${SKOS}ConceptScheme`]: 2 },
    }),
    predicate(`${SKOS}inScheme`, {
      literals: 0,
      iris: 4,
      datatypes: {},
      objectClasses: { [`${SKOS}ConceptScheme`]: 4 },
    }),
    // Two predicates with one local name; one named like a field JSON:API reserves.
    predicate(`${DCT}title`),
    predicate(`${SCHEMA}title`),
    predicate(`${DCT}type`),
    predicate(`${EX}blank`, { literals: 0, blanks: 4, datatypes: {} }),
  ],
  incoming: [
    { predicate: `${SKOS}broader`, fromClass: `${SKOS}Concept`, members: 2, max: 3 },
    { predicate: `${EX}about`, fromClass: `${EX}Activity`, members: 3, max: 1 },
  ],
};
const scheme: ClassStats = {
  iri: `${SKOS}ConceptScheme`,
  members: 2,
  sampled: 2,
  id: { kind: 'local', base: 'http://example.org/scheme/', why: 'readable' },
  predicates: [
    predicate(`${SKOS}prefLabel`, {
      members: 2,
      datatypes: {},
      languages: { de: { members: 2, max: 1 }, fr: { members: 1, max: 1 } },
    }),
  ],
  incoming: [
    { predicate: `${SKOS}inScheme`, fromClass: `${SKOS}Concept`, members: 2, max: 30 },
    { predicate: `${SKOS}topConceptOf`, fromClass: `${SKOS}Concept`, members: 2, max: 3 },
  ],
};
const activity: ClassStats = {
  iri: `${EX}Activity`,
  members: 12,
  sampled: 12,
  id: { kind: 'predicate', predicate: MU_UUID, why: `one ${MU_UUID} value` },
  predicates: [
    predicate(MU_UUID, { members: 12 }),
    predicate(`${EX}about`, {
      members: 12,
      literals: 0,
      iris: 12,
      datatypes: {},
      objectClasses: { [`${SKOS}Concept`]: 12 },
    }),
    predicate(`${EX}amount`, { members: 12, datatypes: { [`${XSD}decimal`]: { members: 12, max: 1 } } }),
  ],
  incoming: [],
};
// A class whose plural is a route of the server (/docs), and one whose plural is another's.
const doc: ClassStats = {
  ...scheme,
  iri: `${EX}Doc`,
  predicates: [],
  incoming: [],
  id: { kind: 'hex', base: '', why: 'any' },
};
const otherConcept: ClassStats = { ...doc, iri: `${EX}Concept` };

const facts: Introspection = { classes: [concept, activity, scheme, doc, otherConcept], shapes: [], notes: ['a note'] };

describe('inferMapping', () => {
  const scaffold = inferMapping(facts, { [EX]: 'ex' });
  const type = (name: string) => scaffold.types.find((t) => t.name === name)!;

  it('one type per class: plural kebab-case, distinct, never a reserved name', () => {
    expect(scaffold.types.map((t) => t.name)).toEqual([
      'concepts',
      'activities',
      'concept-schemes',
      'ex-docs',
      'ex-concepts',
    ]);
  });

  it('fields named after predicates, made distinct; reserved names qualified; blank nodes left out', () => {
    const concepts = type('concepts');
    // Named most used first, then by IRI: dcterms:title before schema:title.
    expect(concepts.attributes.map((a) => a.name)).toEqual(['title', 'dcterms-type', 'schema-title', 'pref-label']);
    expect(concepts.note).toMatch(/left out: ex:blank/);
    expect(concepts.relationships.map((r) => [r.name, r.target, r.cardinality, r.inverse])).toEqual([
      ['broader', 'concepts', 'many', false],
      ['in-scheme', 'concept-schemes', 'one', false],
      ['top-concept-of', 'concept-schemes', 'one', false],
      ['activity', 'activities', 'one', true],
      ['broader-of', 'concepts', 'many', true],
    ]);
  });

  it('inverse relationships: named after the other type when it has one such relationship, else after the predicate', () => {
    expect(type('concept-schemes').relationships.map((r) => [r.name, r.target, r.cardinality, r.inverse])).toEqual([
      ['in-scheme-of', 'concepts', 'many', true],
      ['top-concepts', 'concepts', 'many', true],
    ]);
  });

  it('the id literal is the id, not an attribute; a label-like attribute is the default sort', () => {
    expect(type('activities').attributes.map((a) => a.name)).toEqual(['amount']);
    expect(type('activities').attributes[0]).toMatchObject({ datatype: `${XSD}decimal`, many: false });
    expect(type('concepts').defaultSort).toEqual(['pref-label']);
    // '*' (every language, an object) can't be sorted on.
    expect(type('concept-schemes').attributes[0]).toMatchObject({ language: '*' });
    expect(type('concept-schemes').defaultSort).toBeUndefined();
  });
});

describe('writeMapping', () => {
  const scaffold = inferMapping(facts, { [EX]: 'ex' });
  const text = writeMapping(scaffold, { description: 'test.ttl' }).yaml;

  it('compiles as written', () => {
    const mapping = compileMapping(parse(text), 'scaffold');
    expect([...mapping.types.keys()]).toEqual(scaffold.types.map((t) => t.name));
    expect(mapping.types.get('activities')!.id).toEqual({ kind: 'predicate', predicate: MU_UUID });
    expect(mapping.types.get('concept-schemes')!.id).toEqual({ kind: 'local', base: 'http://example.org/scheme/' });
    expect(mapping.types.get('ex-docs')!.id).toEqual({ kind: 'hex', base: '' });
  });

  it('comments say how it was made, each type its member count, each field what the sample showed', () => {
    expect(text).toMatch(/^# Scaffolded by `sparql-jsonapi scaffold` from test\.ttl: 5 types\./);
    expect(text).toContain('# Note: a note');
    expect(text).toContain('# skos:Concept: 40 members (statistics from 4 of them); fields from the data');
    expect(text).toMatch(
      /pref-label: \{ predicate: skos:prefLabel, language: en \} # 4 of 4 members, up to 2 each; @en ×4, @el ×2\n/,
    );
    expect(text).toContain('id: { predicate: mu:uuid }');
  });

  it('declares the prefixes it uses and no other, in order', () => {
    expect(Object.keys(parse(text).prefixes)).toEqual(['dcterms', 'ex', 'mu', 'schema', 'skos', 'xsd']);
  });
});
