import { Parser } from 'n3';
import { describe, expect, it } from 'vitest';
import { muUuidTriples } from '../../bench/mu-uuids.js';
import { generateDataset } from '../../scripts/generate.js';
import { loadMapping } from '../../src/mapping/load-mapping.js';

const MAPPING = new URL('../../mappings/sample.yaml', import.meta.url).pathname;

describe('the mu:uuid supplement', () => {
  it('gives each resource of an IRI-id type without mu:uuid its id as mu:uuid, and no other resource one', async () => {
    const mapping = await loadMapping(MAPPING);
    const quads = new Parser().parse(`
      @prefix skos: <http://www.w3.org/2004/02/skos/core#> .
      @prefix elod: <http://linkedeconomy.org/ontology#> .
      @prefix mu: <http://mu.semte.ch/vocabularies/core/> .
      <http://linkedeconomy.org/resource/concept/0101> a skos:Concept .
      <http://linkedeconomy.org/resource/concept/0102> a skos:Concept ; mu:uuid "already" .
      <http://linkedeconomy.org/resource/country/GR> a elod:Country .
      <http://linkedeconomy.org/resource/TradeActivity/1> a elod:TradeActivity ; mu:uuid "t1" .
      <http://linkedeconomy.org/resource/TradeActivity/2> a elod:TradeActivity .
      <http://example.org/unmapped> a <http://example.org/Thing> .
    `);
    expect(muUuidTriples(quads, mapping)).toEqual([
      '<http://linkedeconomy.org/resource/concept/0101> <http://mu.semte.ch/vocabularies/core/uuid> "0101" .',
      '<http://linkedeconomy.org/resource/country/GR> <http://mu.semte.ch/vocabularies/core/uuid> "4752" .',
    ]);
  });

  it('covers the generator’s concepts, schemes and countries, one line each', async () => {
    const mapping = await loadMapping(MAPPING);
    const quads = [...generateDataset({ activities: 50 })];
    const lines = muUuidTriples(quads, mapping);
    const typed = (cls: string) =>
      new Set(
        quads.filter((q) => q.predicate.value.endsWith('#type') && q.object.value === cls).map((q) => q.subject.value),
      ).size;
    expect(lines).toHaveLength(
      typed('http://www.w3.org/2004/02/skos/core#Concept') +
        typed('http://www.w3.org/2004/02/skos/core#ConceptScheme') +
        typed('http://linkedeconomy.org/ontology#Country'),
    );
    expect(new Set(lines).size).toBe(lines.length);
    expect(lines).toContain(
      '<http://linkedeconomy.org/resource/scheme/c0de> <http://mu.semte.ch/vocabularies/core/uuid> "c0de" .',
    );
  });
});
