import { describe, expect, it } from 'vitest';
import { idToLookup, iriToId, resolveId } from '../../../src/mapping/ids.js';
import type { IdStrategy } from '../../../src/mapping/model.js';

const PREDICATE: IdStrategy = { kind: 'predicate', predicate: 'http://mu.semte.ch/vocabularies/core/uuid' };
const TEMPLATE = { kind: 'template', prefix: 'http://linkedeconomy.org/resource/concept/', suffix: '' } as const;
const TEMPLATE_SUFFIX = { kind: 'template', prefix: 'http://x/item/', suffix: '#this' } as const;
const HEX = { kind: 'hex', base: 'http://linkedeconomy.org/resource/country/' } as const;
/** `hex: true`: the id is the hex of the whole IRI. */
const HEX_WHOLE = { kind: 'hex', base: '' } as const;

const hex = (text: string) => Buffer.from(text, 'utf8').toString('hex');

describe('ids: round trips', () => {
  it.each([
    { strategy: TEMPLATE, iri: 'http://linkedeconomy.org/resource/concept/0101', id: '0101' },
    { strategy: TEMPLATE, iri: 'http://linkedeconomy.org/resource/concept/a', id: 'a' },
    { strategy: TEMPLATE, iri: `http://linkedeconomy.org/resource/concept/${'f'.repeat(256)}`, id: 'f'.repeat(256) },
    { strategy: TEMPLATE_SUFFIX, iri: 'http://x/item/00ff#this', id: '00ff' },
    { strategy: HEX, iri: 'http://linkedeconomy.org/resource/country/GR', id: '4752' },
    { strategy: HEX, iri: 'http://linkedeconomy.org/resource/country/Ελλάδα', id: hex('Ελλάδα') },
    { strategy: HEX, iri: 'http://linkedeconomy.org/resource/country/a/b?c=d#e', id: hex('a/b?c=d#e') },
    { strategy: HEX, iri: `http://linkedeconomy.org/resource/country/${'A'.repeat(2048)}`, id: '41'.repeat(2048) },
    { strategy: HEX_WHOLE, iri: 'http://x/y', id: '687474703a2f2f782f79' },
    { strategy: HEX_WHOLE, iri: 'urn:isbn:0451450523', id: hex('urn:isbn:0451450523') },
  ])('$strategy.kind $iri ↔ $id', ({ strategy, iri, id }) => {
    expect(iriToId(strategy, iri)).toBe(id);
    expect(idToLookup(strategy, id)).toEqual({ kind: 'iri', iri });
  });

  it.each([
    { id: '5a3f8c1e-0b2d-4e6f-9a7c-1d2e3f4a5b6c' },
    { id: '0' },
    { id: 'deadbeef' },
    { id: '5a3f-' },
    { id: 'a'.repeat(128) },
    { id: `a${'-'.repeat(127)}` },
  ])('predicate $id → the literal to look up', ({ id }) => {
    expect(idToLookup(PREDICATE, id)).toEqual({ kind: 'literal', value: id });
  });
});

describe('ids: ids that cannot be ids of the type', () => {
  const ALL = [PREDICATE, TEMPLATE, HEX, HEX_WHOLE];
  it.each([
    { input: '' },
    { input: 'ABCD' },
    { input: '4A' },
    { input: 'xyz' },
    { input: '0g' },
    { input: ' 41' },
    { input: '41 ' },
    { input: "41'" },
    { input: '41"' },
    { input: '41>' },
    { input: '41}' },
    { input: '41\n' },
    { input: '41\n41' },
    { input: '4%31' },
    { input: '٤١' }, // Arabic-Indic digits
    { input: 'ａ' }, // fullwidth a
  ])('$input is rejected by every strategy', ({ input }) => {
    for (const strategy of ALL) expect(idToLookup(strategy, input), strategy.kind).toBeUndefined();
  });

  it.each([
    // predicate: hex digits and dashes, not starting with a dash, at most 128 characters
    { strategy: PREDICATE, input: '-5a3f' },
    { strategy: PREDICATE, input: '-' },
    { strategy: PREDICATE, input: 'a'.repeat(129) },
    { strategy: PREDICATE, input: '5A3F8C1E-0B2D-4E6F-9A7C-1D2E3F4A5B6C' },
    { strategy: PREDICATE, input: '5a3f_8c1e' },
    // template: 1 to 256 hex digits, no dashes
    { strategy: TEMPLATE, input: 'f'.repeat(257) },
    { strategy: TEMPLATE, input: '5a3f-8c1e' },
    { strategy: TEMPLATE, input: '-' },
    // hex: whole bytes, at most 4096 characters
    { strategy: HEX, input: `${'41'.repeat(2048)}41` },
    { strategy: HEX, input: '414' },
    { strategy: HEX, input: '4' },
    { strategy: HEX, input: '41-42' },
    // hex that is not UTF-8
    { strategy: HEX, input: 'ff' },
    { strategy: HEX, input: 'c0af' }, // overlong '/'
    { strategy: HEX, input: 'eda080' }, // a UTF-16 surrogate
    { strategy: HEX, input: 'e282' }, // truncated sequence
    // hex of characters an IRI cannot hold
    { strategy: HEX, input: '20' },
    { strategy: HEX, input: '3e' },
    { strategy: HEX, input: '3c' },
    { strategy: HEX, input: '22' },
    { strategy: HEX, input: '7b' },
    { strategy: HEX, input: '7d' },
    { strategy: HEX, input: '0a' },
    { strategy: HEX, input: '00' },
    { strategy: HEX, input: '5c' },
    { strategy: HEX, input: '60' },
    { strategy: HEX, input: '7c' },
    { strategy: HEX, input: '5e' },
    { strategy: HEX, input: '4120' }, // "A "
    { strategy: HEX, input: hex('GR> . ?s ?p ?o } #') },
    // hex of text that passes the character blacklist above but is no IRI (RFC 3987): the stores
    // refuse these (or the query writer corrupts them), so they never reach a query
    { strategy: HEX, input: '494e4ae280a8' }, // "INJ" + U+2028
    { strategy: HEX, input: '494e4ae280a9' }, // "INJ" + U+2029
    { strategy: HEX, input: '494e4a25' }, // "INJ%"
    { strategy: HEX, input: '494e4a2534' }, // "INJ%4"
    { strategy: HEX, input: hex('%zz') },
    { strategy: HEX, input: '494e4ac285' }, // "INJ" + U+0085 (C1)
    { strategy: HEX, input: 'c280' }, // U+0080
    { strategy: HEX, input: 'c29f' }, // U+009F
    { strategy: HEX, input: '7f' }, // DEL
    { strategy: HEX, input: 'e2808e' }, // U+200E LRM
    { strategy: HEX, input: 'e2808f' }, // U+200F RLM
    { strategy: HEX, input: 'e280aa' }, // U+202A LRE
    { strategy: HEX, input: 'e280ae' }, // U+202E RLO
    { strategy: HEX, input: 'efb790' }, // U+FDD0 (noncharacter)
    { strategy: HEX, input: 'efbfbe' }, // U+FFFE
    { strategy: HEX, input: 'efbfbf' }, // U+FFFF
    { strategy: HEX, input: 'f09fbfbe' }, // U+1FFFE
    { strategy: HEX, input: 'efbfbd' }, // U+FFFD (not ucschar)
    { strategy: HEX, input: 'ee8080' }, // U+E000: private use outside the query
    { strategy: HEX, input: '5b' }, // '[' outside the host
    { strategy: HEX, input: hex('a#b#c') },
    { strategy: HEX_WHOLE, input: hex('http://x:port/') },
    { strategy: HEX_WHOLE, input: hex('http://[::1/') },
    // hex: true: the decoded text is the whole IRI, which must be absolute
    { strategy: HEX_WHOLE, input: '41' },
    { strategy: HEX_WHOLE, input: hex('/relative/path') },
    { strategy: HEX_WHOLE, input: hex('1http://x/') },
    { strategy: HEX_WHOLE, input: hex('http://x/a b') },
    { strategy: HEX_WHOLE, input: hex('http://x/>') },
  ])('$strategy.kind: $input', ({ strategy, input }) => {
    expect(idToLookup(strategy, input)).toBeUndefined();
  });

  it('a template whose IRI is not safe gives no lookup', () => {
    expect(idToLookup({ kind: 'template', prefix: 'not an iri/', suffix: '' }, '01')).toBeUndefined();
    // The prefix passes alone (with 0), but a hex letter makes the port no number.
    const port = { kind: 'template', prefix: 'http://x:', suffix: '/' } as const;
    expect(idToLookup(port, '80')).toEqual({ kind: 'iri', iri: 'http://x:80/' });
    expect(idToLookup(port, '8a')).toBeUndefined();
  });

  it.each([
    { strategy: HEX, input: hex('%41%00'), iri: `${HEX.base}%41%00` },
    { strategy: HEX, input: hex('\u2027\u202f'), iri: `${HEX.base}\u2027\u202f` }, // beside the refused ranges
    { strategy: HEX, input: 'efbbbf', iri: `${HEX.base}\ufeff` },
    { strategy: HEX_WHOLE, input: hex('http://[::1]:80/'), iri: 'http://[::1]:80/' },
  ])('$strategy.kind: $input is an IRI', ({ strategy, input, iri }) => {
    expect(idToLookup(strategy, input)).toEqual({ kind: 'iri', iri });
  });
});

describe('ids: why an id is refused', () => {
  it.each([
    {
      strategy: PREDICATE,
      input: 'ABC',
      reason: 'syntax',
      detail: /^expected up to 128 lowercase hex digits and dashes/,
    },
    {
      strategy: TEMPLATE,
      input: 'xy',
      reason: 'syntax',
      detail:
        /^expected 1 to 256 lowercase hex digits, the \{id\} of http:\/\/linkedeconomy\.org\/resource\/concept\/\{id\}$/,
    },
    {
      strategy: TEMPLATE_SUFFIX,
      input: '-',
      reason: 'syntax',
      detail: /^expected 1 to 256 lowercase hex digits, the \{id\} of http:\/\/x\/item\/\{id\}#this$/,
    },
    {
      strategy: HEX,
      input: '475',
      reason: 'syntax',
      detail:
        /^expected the lowercase hex of the UTF-8 of what follows http:\/\/linkedeconomy\.org\/resource\/country\/ in an IRI$/,
    },
    {
      strategy: HEX_WHOLE,
      input: '4',
      reason: 'syntax',
      detail: /^expected the lowercase hex of the UTF-8 of an IRI$/,
    },
    { strategy: HEX, input: 'ff', reason: 'iri', detail: /^its bytes are not UTF-8 text$/ },
    {
      strategy: HEX,
      input: '494e4ae280a8',
      reason: 'iri',
      detail: /^it stands for text that is not an IRI: it holds U\+2028, which no IRI may hold$/,
    },
    { strategy: HEX, input: '494e4a25', reason: 'iri', detail: /a % that does not start a percent-encoding/ },
    { strategy: HEX, input: '494e4ac285', reason: 'iri', detail: /it holds U\+0085/ },
    { strategy: HEX, input: '3e', reason: 'iri', detail: /it holds '>' \(U\+003E\)/ },
    { strategy: HEX, input: hex('a#b#c'), reason: 'iri', detail: /does not follow the IRI syntax/ },
    { strategy: HEX_WHOLE, input: '41', reason: 'iri', detail: /does not start with a scheme/ },
  ])('$strategy.kind $input: $reason', ({ strategy, input, reason, detail }) => {
    const resolved = resolveId(strategy, input);
    expect(resolved).toMatchObject({ kind: 'refused', reason });
    expect((resolved as { detail: string }).detail).toMatch(detail);
    expect(idToLookup(strategy, input)).toBeUndefined();
  });
});

describe('ids: one IRI, one id', () => {
  // Whatever id idToLookup accepts must be the id iriToId gives back for that IRI; otherwise one
  // resource answers under two ids and its self link differs from the URL requested.
  it.each([
    { strategy: HEX, input: '4752' },
    { strategy: HEX, input: 'efbbbf4752' }, // U+FEFF (a byte order mark) before GR
    { strategy: HEX, input: 'efbbbfefbbbf' },
    { strategy: HEX_WHOLE, input: `efbbbf${hex('http://x/y')}` },
    { strategy: HEX, input: hex('Ελλάδα') },
    { strategy: TEMPLATE, input: '0101' },
    { strategy: TEMPLATE_SUFFIX, input: '0101' },
  ])('$strategy.kind: $input', ({ strategy, input }) => {
    const lookup = idToLookup(strategy, input);
    if (lookup === undefined) return; // rejecting the id is also consistent
    expect(lookup.kind).toBe('iri');
    expect(iriToId(strategy, (lookup as { iri: string }).iri)).toBe(input);
  });
});
