import rdf from '@rdfjs/data-model';
import { describe, expect, it } from 'vitest';
import { cannotTie } from '../../../src/execute/histogram-blocks.js';
import { XSD } from '../../../src/rdf/vocabulary.js';

const typed = (value: string, type: string) => rdf.literal(value, rdf.namedNode(`${XSD}${type}`));

describe('cannotTie: values of a histogram that no ORDER BY can tie while they count apart', () => {
  it('holds for canonical values of one datatype, dates and years all with or all without a zone', () => {
    expect(cannotTie([typed('2016-01-01Z', 'date'), typed('2017-01-01Z', 'date'), null])).toBe(true);
    expect(cannotTie([typed('2016-01-01', 'date'), typed('2017-01-01', 'date')])).toBe(true);
    expect(cannotTie([typed('2016', 'gYear'), typed('-0044', 'gYear')])).toBe(true);
    expect(cannotTie([typed('0', 'integer'), typed('-12', 'integer'), typed('7', 'integer')])).toBe(true);
    expect(cannotTie([typed('true', 'boolean'), typed('false', 'boolean')])).toBe(true);
    expect(cannotTie([null])).toBe(true);
  });

  it('fails for values that may tie: other datatypes mixed, other spellings, zones mixed', () => {
    expect(cannotTie([typed('1', 'integer'), typed('1.0', 'decimal')])).toBe(false);
    expect(cannotTie([typed('1', 'integer'), typed('01', 'integer')])).toBe(false);
    expect(cannotTie([typed('0', 'integer'), typed('-0', 'integer')])).toBe(false);
    expect(cannotTie([typed('1', 'boolean')])).toBe(false);
    expect(cannotTie([typed('2016-01-01Z', 'date'), typed('2016-01-01', 'date')])).toBe(false);
    expect(cannotTie([typed('2016-01-01+00:00', 'date')])).toBe(false);
    expect(cannotTie([typed('2016-13-01Z', 'date')])).toBe(false);
    expect(cannotTie([typed('2016-02-30Z', 'date'), typed('2016-03-01Z', 'date')])).toBe(false);
    expect(cannotTie([typed('2016-02-29Z', 'date'), typed('x', 'date')])).toBe(false);
    expect(cannotTie([typed('2016-02-29Z', 'date'), typed('2015-02-28Z', 'date')])).toBe(true);
  });

  it('fails for strings, language-tagged text and IRIs, which a collation may tie', () => {
    expect(cannotTie([rdf.literal('a'), rdf.literal('b')])).toBe(false);
    expect(cannotTie([rdf.literal('a', 'en')])).toBe(false);
    expect(cannotTie([rdf.namedNode('http://example.org/a')])).toBe(false);
  });
});
