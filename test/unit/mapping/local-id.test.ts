/**
 * The `local` id strategy (`src/mapping/local-id.ts`, through `ids.ts`): the id is the IRI after
 * the base, percent-encoded to one URL path segment, with exactly one spelling per IRI.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { idSortValue, iriToId, resolveId } from '../../../src/mapping/ids.js';
import { iriProblem } from '../../../src/mapping/iri.js';
import { decodeLocalId, encodeLocalId, LOCAL_ID_MAX } from '../../../src/mapping/local-id.js';
import { parsePath } from '../../../src/request/parse-path.js';

const UNIT = { kind: 'local', base: 'http://qudt.org/vocab/unit/' } as const;
const QUERY = { kind: 'local', base: 'http://x/get?name=' } as const;

describe('local ids: round trips', () => {
  it.each([
    // QUDT's local names need no encoding: the point of the strategy
    { strategy: UNIT, local: 'M', id: 'M' },
    { strategy: UNIT, local: 'KiloGM-PER-M3', id: 'KiloGM-PER-M3' },
    { strategy: UNIT, local: 'DEG_C', id: 'DEG_C' },
    { strategy: UNIT, local: 'A.b~c', id: 'A.b~c' },
    // letters, digits and marks of any script stay readable
    { strategy: UNIT, local: 'été', id: 'été' },
    { strategy: UNIT, local: 'Ελλάδα', id: 'Ελλάδα' },
    { strategy: UNIT, local: 'm²', id: 'm²' },
    { strategy: UNIT, local: 'e\u0301', id: 'e\u0301' }, // a combining accent, as written (no normalisation)
    // path-segment punctuation stays
    { strategy: UNIT, local: "f(x)!*'$", id: "f(x)!*'$" },
    { strategy: UNIT, local: 'Category:Foo@bar', id: 'Category:Foo@bar' },
    // what would end the segment, start an escape, or split a query or a filter list is encoded
    { strategy: UNIT, local: 'm/s', id: 'm%2Fs' },
    { strategy: UNIT, local: '100%25', id: '100%2525' },
    { strategy: UNIT, local: 'a,b;c', id: 'a%2Cb%3Bc' },
    { strategy: UNIT, local: 'a+b&c=d', id: 'a%2Bb%26c%3Dd' },
    { strategy: UNIT, local: 'a#frag', id: 'a%23frag' },
    { strategy: QUERY, local: 'a?b', id: 'a%3Fb' },
    // symbols, spaces and invisible characters of other scripts are encoded, as UTF-8
    { strategy: UNIT, local: '°C', id: '%C2%B0C' },
    { strategy: UNIT, local: 'a\u00a0b', id: 'a%C2%A0b' }, // no-break space
    { strategy: UNIT, local: 'a\u200db', id: 'a%E2%80%8Db' }, // zero-width joiner
    { strategy: UNIT, local: '\ufeffM', id: '%EF%BB%BFM' }, // a leading BOM is kept, encoded
    { strategy: UNIT, local: '😀', id: '%F0%9F%98%80' },
  ])('$local ↔ $id', ({ strategy, local, id }) => {
    const iri = strategy.base + local;
    expect(iriProblem(iri)).toBeUndefined();
    expect(iriToId(strategy, iri)).toBe(id);
    expect(resolveId(strategy, id)).toEqual({ kind: 'iri', iri });
    // ids sort as their IRIs do, as the list query orders them (sparql/id-sort.ts idSortExpression)
    expect(idSortValue(strategy, id)).toBe(iri);
  });

  it('the longest id is accepted, one more character is not', () => {
    const longest = 'A'.repeat(LOCAL_ID_MAX);
    expect(resolveId(UNIT, longest)).toEqual({ kind: 'iri', iri: UNIT.base + longest });
    expect(resolveId(UNIT, `${longest}A`)).toMatchObject({ kind: 'refused', reason: 'syntax' });
  });
});

describe('local ids: refused', () => {
  it.each([
    // not of the syntax: a character that must be encoded, written as it is
    { input: '', reason: 'syntax' },
    { input: 'm/s', reason: 'syntax' },
    { input: 'a b', reason: 'syntax' },
    { input: 'a,b', reason: 'syntax' },
    { input: 'a+b', reason: 'syntax' },
    { input: 'a?b', reason: 'syntax' },
    { input: 'a#b', reason: 'syntax' },
    // dot segments, which URL parsers resolve away in any spelling: no id stands for them
    { input: '.', reason: 'syntax' },
    { input: '..', reason: 'syntax' },
    { input: '%2E', reason: 'syntax' },
    { input: '%2E%2E', reason: 'syntax' },
    { input: 'a%', reason: 'syntax' },
    { input: 'a%4', reason: 'syntax' },
    { input: 'a%zz', reason: 'syntax' },
    { input: 'a>', reason: 'syntax' },
    { input: 'a\n', reason: 'syntax' },
    { input: '°C', reason: 'syntax' },
    { input: '\ufeffM', reason: 'syntax' },
    // not canonical: lowercase hex, a kept character encoded
    { input: 'm%2fs', reason: 'syntax' },
    { input: '%4D', reason: 'syntax' },
    { input: '%C3%A9t%C3%A9', reason: 'syntax' }, // été is written as it is
    { input: '%7E', reason: 'syntax' },
    // percent-encoded bytes that are no UTF-8
    { input: '%FF', reason: 'iri' },
    { input: '%C0%AF', reason: 'iri' }, // an overlong '/'
    { input: '%ED%A0%80', reason: 'iri' }, // a UTF-16 surrogate
    { input: '%E2%82', reason: 'iri' }, // truncated
    // UTF-8 of characters no IRI may hold
    { input: 'a%20b', reason: 'iri' },
    { input: '%3E', reason: 'iri' },
    { input: '%0A', reason: 'iri' },
    { input: 'INJ%E2%80%A8', reason: 'iri' }, // U+2028
    { input: '%E2%80%AE', reason: 'iri' }, // U+202E RLO
    { input: '%25', reason: 'iri' }, // a lone % in the IRI
    { input: '%254', reason: 'iri' },
    { input: 'a%23b%23c', reason: 'iri' }, // two #
    { input: '%EE%80%80', reason: 'iri' }, // private use (Jena refuses it, in the query too)
  ])('$input: $reason', ({ input, reason }) => {
    const resolved = resolveId(UNIT, input);
    expect(resolved).toMatchObject({ kind: 'refused', reason });
    if (reason === 'syntax')
      expect((resolved as { detail: string }).detail).toMatch(
        /^expected what follows http:\/\/qudt\.org\/vocab\/unit\//,
      );
    expect(idSortValue(UNIT, input)).toBeUndefined();
  });
});

/** Text that may or may not be an IRI's local part: ASCII of every kind, and some characters beyond. */
const localText = fc.string({
  unit: fc.oneof(
    fc.constantFrom(...'aZ09-._~!$&\'()*+,;=:@/?#%[]<>" \\^`{|}'),
    fc.constantFrom('é', 'Ω', '²', '\u0301', '\u00a0', '\u200d', '\u2028', '\ufeff', '\ue000', '😀', '\ud800'),
    fc.string({ unit: 'binary', maxLength: 1 }),
  ),
  maxLength: 24,
});

describe('local ids: properties', () => {
  it('every IRI under the base has one id, which is one path segment and leads back to the IRI', () => {
    fc.assert(
      fc.property(localText, (local) => {
        const iri = UNIT.base + local;
        // `.` and `..` are dot segments, which no id can stand for: such IRIs are no members (below).
        fc.pre(local !== '' && local !== '.' && local !== '..' && iriProblem(iri) === undefined);
        const id = iriToId(UNIT, iri);
        expect(resolveId(UNIT, id)).toEqual({ kind: 'iri', iri });
        // one segment as it is (nothing ends it, every % starts an escape) and once encoded by a client
        expect(id).toMatch(/^(?:[^/?#%\s]|%[0-9A-F]{2})+$/u);
        expect(parsePath(`/units/${encodeURIComponent(id)}`)).toEqual({ dataset: undefined, type: 'units', id });
        expect(new URL(`http://h/units/${id}`).pathname.split('/')).toHaveLength(3);
      }),
      { numRuns: 2000 },
    );
  });

  it('an id is accepted only in the spelling iriToId gives', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          localText,
          localText.map((text) => encodeURIComponent(text.replace(/[\ud800-\udfff]/g, ''))),
          fc.string({ unit: fc.constantFrom('%', '2', 'F', 'f', 'C', '3', 'A', '9', 'é', 'a') }),
        ),
        (input) => {
          const resolved = resolveId(UNIT, input);
          if (resolved.kind === 'iri') expect(iriToId(UNIT, resolved.iri)).toBe(input);
          const decoded = decodeLocalId(input);
          if (decoded.kind === 'text') expect(encodeLocalId(decoded.text)).toBe(input);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
