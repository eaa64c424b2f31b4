import { DataFactory } from 'n3';
import { describe, expect, test } from 'vitest';
import { BlankNodeLabels, termToNTriples } from '../../../src/load/ntriples.js';

const { namedNode, literal, blankNode } = DataFactory;

describe('termToNTriples', () => {
  const labels = new BlankNodeLabels('f0');

  test('N-Triples terms: escapes, language tags, datatypes, plain strings stay plain', () => {
    expect(termToNTriples(literal('a "q"\n\\ é'), labels)).toBe('"a \\"q\\"\\n\\\\ é"');
    expect(termToNTriples(literal('x', 'el'), labels)).toBe('"x"@el');
    expect(termToNTriples(literal('1', namedNode('http://www.w3.org/2001/XMLSchema#integer')), labels)).toBe(
      '"1"^^<http://www.w3.org/2001/XMLSchema#integer>',
    );
    expect(termToNTriples(literal('x', namedNode('http://www.w3.org/2001/XMLSchema#string')), labels)).toBe('"x"');
    expect(termToNTriples(namedNode('http://x/a b'), labels)).toBe('<http://x/a\\u0020b>');
  });

  test('blank node labels are renamed per file, so two files never share a node', () => {
    const a = new BlankNodeLabels('f0');
    const b = new BlankNodeLabels('f1');
    expect(termToNTriples(blankNode('x-1.'), a)).toBe('_:f0b0');
    expect(termToNTriples(blankNode('x-1.'), a)).toBe('_:f0b0');
    expect(termToNTriples(blankNode('x-1.'), b)).toBe('_:f1b0');
  });
});
