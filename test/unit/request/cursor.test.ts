import rdf from '@rdfjs/data-model';
import { describe, expect, it } from 'vitest';
import { JsonApiError } from '../../../src/errors/json-api-error.js';
import { loadMapping } from '../../../src/mapping/load-mapping.js';
import { type CursorList, decodeCursor, encodeCursor, type KeyValue } from '../../../src/request/cursor.js';
import { parseSort } from '../../../src/request/parse-sort.js';
import { thrown as thrownError } from '../../support/thrown.js';

const mapping = await loadMapping('mappings/sample.yaml');
const XSD = 'http://www.w3.org/2001/XMLSchema#';
const list = (type: string, sort: string): CursorList => ({
  type: mapping.types.get(type)!,
  sort: parseSort(sort, mapping, mapping.types.get(type)!),
});
const thrown = (fn: () => unknown) => thrownError(JsonApiError, fn);
const unpack = (cursor: string) => JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
const pack = (json: unknown) => Buffer.from(JSON.stringify(json)).toString('base64url');

describe('cursors: what the server writes, it reads back', () => {
  it.each<{ what: string; type: string; sort: string; values: KeyValue[]; id: string; idValue: string }>([
    {
      what: 'a typed literal (predicate ids)',
      type: 'trade-activities',
      sort: '-financial-year',
      values: [rdf.literal('2016-01-01Z', rdf.namedNode(`${XSD}date`))],
      id: '7c1e0a42',
      idValue: '7c1e0a42',
    },
    {
      what: 'a missing key',
      type: 'trade-activities',
      sort: 'financial-year',
      values: [null],
      id: '3e6a9d04',
      idValue: '3e6a9d04',
    },
    {
      what: 'id keys carry no value',
      type: 'trade-activities',
      sort: '-id',
      values: [],
      id: '0b77de19',
      idValue: '0b77de19',
    },
    {
      what: 'a plain string (template ids)',
      type: 'concepts',
      sort: 'notation',
      values: [rdf.literal('0101')],
      id: '0101',
      idValue: 'http://linkedeconomy.org/resource/concept/0101',
    },
    {
      what: 'a language key keeps its text (hex ids)',
      type: 'countries',
      sort: 'name,-id',
      values: [rdf.literal('Ελλάδα')],
      id: '4752',
      idValue: 'http://linkedeconomy.org/resource/country/GR',
    },
    {
      what: 'several keys, language-tagged, a datatype outside xsd',
      type: 'trade-activities',
      sort: 'amount.currency,-financial-year,amount.value',
      values: [rdf.literal('EUR', 'en-gb'), null, rdf.literal('12', rdf.namedNode('http://example.org/dt#money'))],
      id: '86b4c2aa',
      idValue: '86b4c2aa',
    },
    {
      what: 'an IRI value',
      type: 'aid-activities',
      sort: 'title',
      values: [rdf.namedNode('http://example.org/x')],
      id: 'b4d1e7',
      idValue: 'b4d1e7',
    },
    {
      what: 'a boolean as Virtuoso writes it',
      type: 'aid-activities',
      sort: 'completed',
      values: [rdf.literal('1', rdf.namedNode(`${XSD}boolean`))],
      id: 'c61a0d',
      idValue: 'c61a0d',
    },
    {
      what: 'quotes, braces and newlines are just text',
      type: 'aid-activities',
      sort: 'title',
      values: [rdf.literal('" } } ;\n DROP ALL #>')],
      id: '0e93c5',
      idValue: '0e93c5',
    },
  ])('$what', ({ type, sort, values, id, idValue }) => {
    for (const inclusive of [false, true]) {
      const cursor = encodeCursor(list(type, sort), { values, id, inclusive });
      expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
      const decoded = decodeCursor(cursor, 'page[after]', list(type, sort));
      expect(decoded.id).toBe(id);
      expect(decoded.idValue).toBe(idValue);
      expect(decoded.inclusive).toBe(inclusive);
      expect(decoded.values).toHaveLength(values.length);
      for (const [i, value] of decoded.values.entries()) {
        if (value === null) expect(values[i]).toBeNull();
        else expect(value.equals(values[i]!)).toBe(true);
      }
    }
  });

  it('is short: xsd datatypes are abbreviated, plain strings are bare', () => {
    const cursor = encodeCursor(list('trade-activities', '-financial-year'), {
      values: [rdf.literal('2016-01-01Z', rdf.namedNode(`${XSD}date`))],
      id: '7c1e0a42',
      inclusive: false,
    });
    expect(unpack(cursor)).toEqual({ k: [{ v: '2016-01-01Z', t: 'xsd:date' }], i: '7c1e0a42', h: expect.any(String) });
    expect(
      unpack(encodeCursor(list('concepts', 'notation'), { values: [rdf.literal('01')], id: '01', inclusive: false })).k,
    ).toEqual(['01']);
  });
});

describe('cursors: anything else is a 400 naming the parameter', () => {
  const sample = list('trade-activities', '-financial-year');
  const real = encodeCursor(sample, {
    values: [rdf.literal('2016-01-01Z', rdf.namedNode(`${XSD}date`))],
    id: '7c1e0a42',
    inclusive: false,
  });
  const NOT_OURS = /is not a cursor this server made/;
  const ALTERED = /does not belong to this list.*trade-activities, sort -financial-year/;
  const MISFIT = /do not fit this list's sort keys/;

  it.each([
    { what: 'empty', cursor: '', detail: NOT_OURS },
    { what: 'garbage', cursor: 'abc', detail: NOT_OURS },
    { what: 'standard base64 characters', cursor: `${real.slice(0, 10)}+/${real.slice(12)}`, detail: NOT_OURS },
    { what: 'padding', cursor: `${real}==`, detail: NOT_OURS },
    { what: 'truncated', cursor: real.slice(0, -4), detail: NOT_OURS },
    { what: 'too long', cursor: 'A'.repeat(20_000), detail: NOT_OURS },
    { what: 'JSON, but an array', cursor: pack([1, 2]), detail: NOT_OURS },
    { what: 'a number for a value', cursor: pack({ ...unpack(real), k: [2016] }), detail: NOT_OURS },
    {
      what: 'a term with both a datatype and a language',
      cursor: pack({ ...unpack(real), k: [{ v: 'x', t: 'xsd:date', l: 'en' }] }),
      detail: NOT_OURS,
    },
    { what: 'an extra member', cursor: pack({ ...unpack(real), extra: true }), detail: NOT_OURS },
    { what: 'no digest', cursor: pack({ k: unpack(real).k, i: unpack(real).i }), detail: NOT_OURS },
    { what: 'another id under the old digest', cursor: pack({ ...unpack(real), i: '86b4c2aa' }), detail: ALTERED },
    {
      what: 'another value under the old digest',
      cursor: pack({ ...unpack(real), k: [{ v: '2099-01-01Z', t: 'xsd:date' }] }),
      detail: ALTERED,
    },
    { what: 'made inclusive by hand', cursor: pack({ ...unpack(real), e: 1 }), detail: ALTERED },
    {
      what: 'made for the other direction',
      cursor: encodeCursor(list('trade-activities', 'financial-year'), {
        values: [null],
        id: '7c1e0a42',
        inclusive: false,
      }),
      detail: ALTERED,
    },
    {
      what: 'made for another field',
      cursor: encodeCursor(list('trade-activities', 'origin.country.name'), {
        values: [null],
        id: '7c1e0a42',
        inclusive: false,
      }),
      detail: ALTERED,
    },
    {
      what: 'made for another type',
      cursor: encodeCursor(list('amounts', '-value'), { values: [null], id: '7c1e0a42', inclusive: false }),
      detail: ALTERED,
    },
    {
      what: 'too many values (a forged digest)',
      cursor: encodeCursor(sample, { values: [null, null], id: '7c1e0a42', inclusive: false }),
      detail: MISFIT,
    },
    {
      what: 'an id this type cannot have',
      cursor: encodeCursor(sample, { values: [null], id: 'NOT-HEX', inclusive: false }),
      detail: MISFIT,
    },
    {
      what: 'an unsafe datatype IRI',
      cursor: encodeCursor(sample, {
        values: [rdf.literal('x', rdf.namedNode('http://x/a>b'))],
        id: '7c1e0a42',
        inclusive: false,
      }),
      detail: MISFIT,
    },
    {
      what: 'a relative datatype IRI',
      cursor: encodeCursor(sample, {
        values: [rdf.literal('x', rdf.namedNode('date'))],
        id: '7c1e0a42',
        inclusive: false,
      }),
      detail: MISFIT,
    },
    {
      what: 'an unsafe IRI value',
      cursor: encodeCursor(sample, { values: [rdf.namedNode('http://x/ y')], id: '7c1e0a42', inclusive: false }),
      detail: MISFIT,
    },
    // IRIs by the server's one rule (mapping/iri.ts): what passes the IRIREF blacklist but is no IRI.
    ...[
      ['U+2028', 'http://x/INJ\u2028'],
      ['U+2029', 'http://x/a\u2029b'],
      ['a lone %', 'http://x/INJ%'],
      ['% and one hex digit', 'http://x/%4'],
      ['a C1 control', 'http://x/INJ\u0085'],
      ['DEL', 'http://x/\u007f'],
      ['a bidi override', 'http://x/\u202e'],
      ['a noncharacter', 'http://x/\ufffe'],
      ['a lone surrogate', 'http://x/\ud800'],
      ['a second #', 'http://x/a#b#c'],
      ['[ in the path', 'http://x/[1]'],
    ].flatMap(([what, iri]) => [
      {
        what: `an IRI value with ${what}`,
        cursor: encodeCursor(sample, { values: [rdf.namedNode(iri!)], id: '7c1e0a42', inclusive: false }),
        detail: MISFIT,
      },
      {
        what: `a datatype IRI with ${what}`,
        cursor: encodeCursor(sample, {
          values: [rdf.literal('x', rdf.namedNode(iri!))],
          id: '7c1e0a42',
          inclusive: false,
        }),
        detail: MISFIT,
      },
    ]),
    {
      what: 'a bad language tag',
      cursor: encodeCursor(sample, { values: [rdf.literal('x', 'en_GB!')], id: '7c1e0a42', inclusive: false }),
      detail: MISFIT,
    },
    {
      what: 'a lone surrogate',
      cursor: encodeCursor(sample, { values: [rdf.literal('\uD800x')], id: '7c1e0a42', inclusive: false }),
      detail: MISFIT,
    },
    {
      what: 'U+0000 in a plain string',
      cursor: encodeCursor(sample, { values: [rdf.literal('a\u0000b')], id: '7c1e0a42', inclusive: false }),
      detail: MISFIT,
    },
    {
      // What the fuzz suite sent Virtuoso (seed 997834086): a 502 before this rule.
      what: 'U+0000 in a typed literal',
      cursor: encodeCursor(sample, {
        values: [rdf.literal('\u00001.2E3\r\n<', rdf.namedNode('http://www.w3.org/2001/XMLSchema#integer'))],
        id: '7c1e0a42',
        inclusive: false,
      }),
      detail: MISFIT,
    },
    // What the fuzz suite sent Virtuoso (seed 712062258), which refuses the whole query over one
    // such literal (SR341, SR127, SP030): a 502 before this rule.
    ...[
      ['9\\nE`]', 'integer'],
      ['1.5', 'int'],
      ['abc', 'decimal'],
      ['1.2.3', 'double'],
      ['yes', 'boolean'],
    ].map(([value, type]) => ({
      what: `"${value}"^^xsd:${type}`,
      cursor: encodeCursor(sample, {
        values: [rdf.literal(value!, rdf.namedNode(`${XSD}${type}`))],
        id: '7c1e0a42',
        inclusive: false,
      }),
      detail: MISFIT,
    })),
  ])('$what', ({ cursor, detail }) => {
    for (const parameter of ['page[after]', 'page[before]']) {
      const error = thrown(() => decodeCursor(cursor, parameter, sample));
      expect(error.status).toBe(400);
      expect(error.errors[0]).toMatchObject({ status: '400', source: { parameter } });
      expect(error.errors[0]!.detail).toMatch(detail);
      expect(error.errors[0]!.detail).toContain(parameter);
    }
  });

  // The ids, in a cursor of a hex-id type: they pass the id syntax but stand for no IRI.
  it.each([
    { id: '494e4ae280a8', what: 'INJ + U+2028' },
    { id: '494e4a25', what: 'INJ%' },
    { id: '494e4ac285', what: 'INJ + U+0085' },
    { id: 'ff', what: 'not UTF-8' },
  ])('a countries cursor whose id is $id ($what)', ({ id }) => {
    const countries = list('countries', 'name');
    const cursor = encodeCursor(countries, { values: [rdf.literal('x')], id, inclusive: false });
    for (const parameter of ['page[after]', 'page[before]']) {
      const error = thrown(() => decodeCursor(cursor, parameter, countries));
      expect(error.errors[0]).toMatchObject({ status: '400', source: { parameter } });
      expect(error.errors[0]!.detail).toMatch(MISFIT);
    }
    // The same cursor with a real id is read back: the id is what is refused.
    const good = encodeCursor(countries, { values: [rdf.literal('x')], id: '4752', inclusive: false });
    expect(decodeCursor(good, 'page[after]', countries).id).toBe('4752');
  });

  it('a language key takes only a plain string', () => {
    const labels = list('concepts', 'label');
    const typed = encodeCursor(labels, {
      values: [rdf.literal('x', rdf.namedNode(`${XSD}date`))],
      id: '01',
      inclusive: false,
    });
    expect(thrown(() => decodeCursor(typed, 'page[after]', labels)).errors[0]!.detail).toMatch(MISFIT);
    const plain = encodeCursor(labels, { values: [rdf.literal('Live animals')], id: '01', inclusive: false });
    expect(decodeCursor(plain, 'page[after]', labels).values).toEqual([rdf.literal('Live animals')]);
  });
});
