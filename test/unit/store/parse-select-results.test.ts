import { describe, expect, it } from 'vitest';
import { parseSelectResults } from '../../../src/store/parse-select-results.js';
import { StoreError } from '../../../src/store/store.js';

const XSD = 'http://www.w3.org/2001/XMLSchema#';
const results = (bindings: unknown, head: unknown = { vars: ['x'] }) => JSON.stringify({ head, results: { bindings } });

describe('parseSelectResults', () => {
  it('reads every term kind, Virtuoso’s typed-literal included, leaving unbound variables out', () => {
    const rows = parseSelectResults(
      results(
        [
          {
            iri: { type: 'uri', value: 'http://example.org/a' },
            blank: { type: 'bnode', value: 'b0' },
            plain: { type: 'literal', value: 'text' },
            tagged: { type: 'literal', value: 'Grüße', 'xml:lang': 'de' },
            typed: { type: 'literal', value: '42', datatype: `${XSD}integer` },
            legacy: { type: 'typed-literal', value: '1', datatype: `${XSD}boolean` },
          },
          {},
        ],
        { vars: ['iri', 'blank', 'plain', 'tagged', 'typed', 'legacy'] },
      ),
    );
    expect(rows).toHaveLength(2);
    const [row] = rows;
    expect(row!.iri).toMatchObject({ termType: 'NamedNode', value: 'http://example.org/a' });
    expect(row!.blank).toMatchObject({ termType: 'BlankNode' });
    expect(row!.plain).toMatchObject({ termType: 'Literal', value: 'text', datatype: { value: `${XSD}string` } });
    expect(row!.tagged).toMatchObject({ termType: 'Literal', value: 'Grüße', language: 'de' });
    expect(row!.typed).toMatchObject({ value: '42', datatype: { value: `${XSD}integer` } });
    expect(row!.legacy).toMatchObject({ value: '1', datatype: { value: `${XSD}boolean` } });
    expect(rows[1]).toEqual({});
  });

  it('reads a result with no rows, and one whose head has no vars', () => {
    expect(parseSelectResults(results([]))).toEqual([]);
    expect(parseSelectResults(results([], {}))).toEqual([]);
  });

  it.each([
    ['text that is not JSON', '<html>502 Bad Gateway</html>', 'not JSON'],
    ['JSON that is not an object', '[]', 'the answer is not an object'],
    ['no head', JSON.stringify({ results: { bindings: [] } }), 'no "head" object'],
    ['a head that is not an object', JSON.stringify({ head: [], results: { bindings: [] } }), 'no "head" object'],
    ['head.vars that is not an array', results([], { vars: 'x' }), '"head.vars" is not an array'],
    ['an ASK answer', JSON.stringify({ head: {}, boolean: true }), 'an ASK answer, not a SELECT one'],
    ['no results', JSON.stringify({ head: {} }), 'no "results" object'],
    ['bindings that are not an array', JSON.stringify({ head: {}, results: {} }), 'no "results.bindings" array'],
    ['a binding that is null', results([null]), 'binding 0 is not an object'],
    ['a binding that is an array', results([{}, []]), 'binding 1 is not an object'],
    [
      'a variable head.vars does not list',
      results([{ y: { type: 'uri', value: 'urn:a' } }]),
      'binding 0 has a variable "y" that "head.vars" does not list',
    ],
    [
      'a term that is a string',
      results([{ x: 'http://example.org/a' }]),
      'binding 0, variable "x": the term is not an object',
    ],
    ['a term of an unknown type', results([{ x: { type: 'iri', value: 'urn:a' } }]), 'unknown term type "iri"'],
    ['a term without a type', results([{ x: { value: 'urn:a' } }]), 'unknown term type undefined'],
    ['a term without a value', results([{ x: { type: 'uri' } }]), 'a uri whose value is not a string'],
    ['a numeric value', results([{ x: { type: 'literal', value: 42 } }]), 'a literal whose value is not a string'],
    [
      'a datatype that is not a string',
      results([{ x: { type: 'literal', value: '1', datatype: 1 } }]),
      'a datatype that is not a string',
    ],
    [
      'a language tag that is not a string',
      results([{ x: { type: 'literal', value: 'a', 'xml:lang': true } }]),
      'a language tag that is not a string',
    ],
    ['a quoted triple without parts', results([{ x: { type: 'triple', value: 'a b c' } }]), 'a quoted triple without'],
    [
      'a quoted triple with a bad part',
      results([
        {
          x: {
            type: 'triple',
            value: {
              subject: { type: 'uri', value: 'urn:s' },
              predicate: { type: 'uri', value: 'urn:p' },
              object: { type: 'number', value: '1' },
            },
          },
        },
      ]),
      'in the quoted triple\'s object: unknown term type "number"',
    ],
  ])("rejects %s with StoreError kind 'unexpected'", (_, text, message) => {
    let thrown: unknown;
    try {
      parseSelectResults(text);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(StoreError);
    expect((thrown as StoreError).kind).toBe('unexpected');
    expect((thrown as StoreError).message).toContain(message);
  });

  it('reads a well-formed quoted triple', () => {
    const triple = {
      type: 'triple',
      value: {
        subject: { type: 'uri', value: 'urn:s' },
        predicate: { type: 'uri', value: 'urn:p' },
        object: { type: 'literal', value: 'o' },
      },
    };
    const [row] = parseSelectResults(results([{ x: triple }]));
    expect(row!.x?.termType).toBe('Quad');
  });
});
