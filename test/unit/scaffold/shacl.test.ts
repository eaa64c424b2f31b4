import { DataFactory } from 'n3';
import { describe, expect, it } from 'vitest';
import { RDF_LANG_STRING, XSD } from '../../../src/rdf/vocabulary.js';
import type { FieldContext } from '../../../src/scaffold/fields.js';
import type { PredicateStats } from '../../../src/scaffold/model.js';
import { shapeFields, shapesFromRows } from '../../../src/scaffold/shacl.js';
import type { Row } from '../../../src/store/store.js';

const { namedNode, literal, blankNode } = DataFactory;
const EX = 'http://example.org/';
const SH = 'http://www.w3.org/ns/shacl#';

/** A shapes-query row: the class, the property node, and what it says. */
function row(property: string, values: Record<string, ReturnType<typeof literal> | ReturnType<typeof namedNode>>): Row {
  return { class: namedNode(`${EX}Book`), property: blankNode(property), ...values };
}

describe('shapesFromRows', () => {
  it('one shape per class, each property once, ordered by sh:order; English names first', () => {
    const shapes = shapesFromRows([
      row('p2', {
        path: namedNode(`${EX}author`),
        target: namedNode(`${EX}Author`),
        order: literal('2', namedNode(`${XSD}integer`)),
      }),
      row('p1', {
        path: namedNode(`${EX}title`),
        datatype: namedNode(`${XSD}string`),
        maxCount: literal('1', namedNode(`${XSD}integer`)),
        name: literal('Titel', 'de'),
        order: literal('1', namedNode(`${XSD}integer`)),
      }),
      row('p1', {
        path: namedNode(`${EX}title`),
        datatype: namedNode(`${XSD}string`),
        maxCount: literal('1', namedNode(`${XSD}integer`)),
        name: literal('title', 'en'),
        order: literal('1', namedNode(`${XSD}integer`)),
      }),
      row('p3', { inversePath: namedNode(`${EX}cites`), target: namedNode(`${EX}Book`) }),
      { class: namedNode(`${EX}Author`), property: blankNode('q'), path: namedNode(`${EX}name`) },
      { class: namedNode('http://x/"bad'), property: blankNode('q'), path: namedNode(`${EX}name`) },
    ]);
    expect(shapes).toEqual([
      { classIri: `${EX}Author`, properties: [{ path: `${EX}name`, inverse: false }] },
      {
        classIri: `${EX}Book`,
        properties: [
          { path: `${EX}title`, inverse: false, datatype: `${XSD}string`, maxCount: 1, name: 'title', order: 1 },
          { path: `${EX}author`, inverse: false, target: `${EX}Author`, order: 2 },
          { path: `${EX}cites`, inverse: true, target: `${EX}Book` },
        ],
      },
    ]);
  });
});

describe('shapeFields: the shape wins over inference', () => {
  const ctx: FieldContext = {
    sampled: 5,
    typeOf: (iri) =>
      ({ [`${EX}Book`]: { name: 'books', members: 5 }, [`${EX}Author`]: { name: 'authors', members: 3 } })[iri],
    short: (iri) => iri.replace(EX, 'ex:'),
  };
  const stats = (iri: string, over: Partial<PredicateStats>): [string, PredicateStats] => [
    iri,
    {
      iri,
      members: 5,
      max: 1,
      literals: 5,
      iris: 0,
      blanks: 0,
      datatypes: {},
      languages: {},
      objectClasses: {},
      ...over,
    },
  ];

  it('fields as the shape says, and the predicates it leaves undescribed', () => {
    const data = new Map([
      stats(`${EX}title`, { datatypes: { [`${XSD}string`]: { members: 5, max: 1 } } }),
      stats(`${EX}label`, { languages: { en: { members: 5, max: 1 }, fr: { members: 2, max: 1 } } }),
      // The data has one author per book; no sh:maxCount says there may be several.
      stats(`${EX}author`, { literals: 0, iris: 5, objectClasses: { [`${EX}Author`]: 5 } }),
      stats(`${EX}note`, {}),
    ]);
    const { fields, unshaped } = shapeFields(
      {
        classIri: `${EX}Book`,
        properties: [
          { path: `${EX}title`, inverse: false, datatype: `${XSD}string`, maxCount: 1, name: 'headline' },
          { path: `${EX}label`, inverse: false, datatype: RDF_LANG_STRING },
          { path: `${EX}author`, inverse: false, target: `${EX}Author` },
          { path: `${EX}year`, inverse: false, datatype: `${XSD}gYear`, maxCount: 1 },
          { path: `${EX}homepage`, inverse: false, nodeKind: `${SH}IRI`, maxCount: 1 },
          { path: `${EX}cites`, inverse: true },
        ],
      },
      data,
      [{ predicate: `${EX}cites`, fromClass: `${EX}Book`, members: 2, max: 3 }],
      ctx,
    );
    expect(fields.map(({ note: _, ...f }) => f)).toEqual([
      { kind: 'attribute', name: 'headline', predicate: `${EX}title`, many: false },
      { kind: 'attribute', predicate: `${EX}label`, language: 'en', many: true },
      { kind: 'relationship', predicate: `${EX}author`, target: 'authors', cardinality: 'many' },
      { kind: 'attribute', predicate: `${EX}year`, datatype: `${XSD}gYear`, many: false },
      { kind: 'attribute', predicate: `${EX}homepage`, many: false },
      { kind: 'relationship', predicate: `${EX}cites`, target: 'books', cardinality: 'many', inverse: true },
    ]);
    expect(fields[0]!.note).toBe(
      'SHACL (sh:datatype http://www.w3.org/2001/XMLSchema#string, sh:maxCount 1); data: 5 of 5 members; http://www.w3.org/2001/XMLSchema#string ×5',
    );
    expect(fields[3]!.note).toMatch(/data: no value in the sample$/);
    expect(unshaped).toEqual([`${EX}note`]);
  });

  it('an inverse path whose subjects are of no scaffold type is left out', () => {
    const { fields } = shapeFields(
      { classIri: `${EX}Book`, properties: [{ path: `${EX}mentions`, inverse: true }] },
      new Map(),
      [{ predicate: `${EX}mentions`, fromClass: `${EX}Blog`, members: 1, max: 1 }],
      ctx,
    );
    expect(fields).toMatchObject([{ kind: 'skip', predicate: `${EX}mentions` }]);
  });
});
