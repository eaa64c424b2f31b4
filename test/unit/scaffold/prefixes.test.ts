import { describe, expect, it } from 'vitest';
import { prefixesInText } from '../../../src/scaffold/file-prefixes.js';
import { choosePrefixes, compact, splitIri } from '../../../src/scaffold/prefixes.js';

const SKOS = 'http://www.w3.org/2004/02/skos/core#';

describe('choosePrefixes', () => {
  it('uses the well-known name of a well-known namespace, for the namespaces used only', () => {
    expect(choosePrefixes([`${SKOS}Concept`, `${SKOS}prefLabel`, 'http://purl.org/dc/terms/title'], {})).toEqual({
      skos: SKOS,
      dcterms: 'http://purl.org/dc/terms/',
    });
  });

  it("prefers the data's own name for a namespace over the well-known one", () => {
    expect(choosePrefixes(['http://purl.org/dc/terms/title'], { 'http://purl.org/dc/terms/': 'dct' })).toEqual({
      dct: 'http://purl.org/dc/terms/',
    });
  });

  it('guesses a name from the path or the host, and keeps every name distinct', () => {
    const chosen = choosePrefixes(
      [
        'http://example.org/library/Book',
        'http://other.org/library/Shelf',
        'http://stats.example.net/ontology#Thing',
        'http://example.com/v1/Item',
      ],
      {},
    );
    expect(chosen).toEqual({
      library: 'http://example.org/library/',
      library2: 'http://other.org/library/',
      stats: 'http://stats.example.net/ontology#',
      example: 'http://example.com/v1/',
    });
  });

  it('never names a prefix after a scheme (http: would read as an absolute IRI)', () => {
    const chosen = choosePrefixes(['http://x.org/http/Thing'], { 'http://x.org/http/': 'http' });
    expect(Object.keys(chosen)).not.toContain('http');
    expect(Object.values(chosen)).toEqual(['http://x.org/http/']);
  });
});

describe('compact and splitIri', () => {
  const names = new Map([[SKOS, 'skos']]);
  it('writes prefix:local when the local part reads well', () => {
    expect(compact(`${SKOS}prefLabel`, names)).toBe('skos:prefLabel');
  });
  it('writes the IRI itself otherwise', () => {
    expect(compact(`${SKOS}1st`, names)).toBe(`${SKOS}1st`);
    expect(compact(`${SKOS}a.`, names)).toBe(`${SKOS}a.`);
    expect(compact('http://other.org/x', names)).toBe('http://other.org/x');
    expect(splitIri('urn:x')).toBeUndefined();
  });
});

describe('prefixesInText', () => {
  it('reads Turtle and SPARQL-style declarations; the first name of a namespace wins', () => {
    const text = `@prefix skos: <${SKOS}> .\nPREFIX dct: <http://purl.org/dc/terms/>\n@prefix other: <${SKOS}> .\n@prefix : <http://x/> .`;
    expect(prefixesInText(text)).toEqual({ [SKOS]: 'skos', 'http://purl.org/dc/terms/': 'dct' });
  });
});
