/**
 * What the server accepts as an IRI (`src/mapping/iri.ts`): what Oxigraph's own IRI parser
 * (oxiri) accepts, absolute IRIs by RFC 3987's grammar, less bidi formatting characters and
 * U+2028/U+2029. Rows of the refused table were sent by hand to Oxigraph and Virtuoso; the ones
 * marked "both stores take it" are refused on principle (RFC 3987 §4.1) or because the query
 * writer corrupts them, all others made Oxigraph refuse the query.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { iriProblem, isSafeAbsoluteIri } from '../../../src/mapping/iri.js';
import { FORBIDDEN_IRI_CHARS } from '../../../src/rdf/vocabulary.js';
import { titled } from '../../support/titled.js';

const BASE = 'http://linkedeconomy.org/resource/country/';

describe('IRIs the server accepts', () => {
  it.each(
    titled(
      [
        { name: 'a plain http IRI', iri: `${BASE}GR` },
        { name: 'a urn', iri: 'urn:isbn:0451450523' },
        { name: 'mailto', iri: 'mailto:someone@example.org' },
        { name: 'tag, with a comma', iri: 'tag:example.org,2020:a' },
        { name: 'a scheme and nothing else', iri: 'a:' },
        { name: 'a scheme with + . -', iri: 'a+b.c-d:x' },
        { name: 'an empty host', iri: 'file:///etc/hosts' },
        { name: 'a path, query and fragment', iri: `${BASE}a/b?c=d#e` },
        { name: '? and / inside the query and the fragment', iri: 'http://x/a?b?c/d#e?f/g' },
        { name: 'sub-delims, : and @ in the path', iri: "http://x/!$&'()*+,;=:@" },
        { name: 'unreserved punctuation', iri: 'http://x/~._-' },
        { name: 'a percent-encoding', iri: `${BASE}%41` },
        { name: 'a percent-encoded NUL (only the raw character is refused)', iri: `${BASE}%00` },
        { name: 'a percent-encoded U+2028', iri: `${BASE}%E2%80%A8` },
        { name: 'a port', iri: 'http://x:8080/' },
        { name: 'an empty port', iri: 'http://x:/' },
        { name: 'userinfo', iri: 'http://user:pass@x/' },
        { name: 'an IPv4 host', iri: 'http://192.0.2.1/' },
        { name: 'an IPv6 host', iri: 'http://[2001:db8::1]:80/' },
        { name: 'an IPv6 host with an IPv4 tail', iri: 'http://[::ffff:192.0.2.1]/' },
        { name: 'a full IPv6 host', iri: 'http://[1:2:3:4:5:6:7:8]/' },
        { name: 'an IPvFuture host', iri: 'http://[v1.x:y]/' },
        { name: 'Greek', iri: `${BASE}Ελλάδα` },
        { name: 'a non-ASCII host', iri: 'http://ελλάδα.example/' },
        { name: 'U+00A0, the first ucschar', iri: `${BASE}a\u00a0b` },
        { name: 'U+00AD (soft hyphen)', iri: `${BASE}a\u00adb` },
        { name: 'U+200D and U+2010, next to the bidi marks', iri: `${BASE}\u200d\u2010` },
        { name: 'U+2027 and U+202F, next to the separators and embeddings', iri: `${BASE}\u2027\u202f` },
        { name: 'U+FEFF', iri: `${BASE}\ufeff` },
        { name: 'U+FFEF, the last ucschar of the BMP', iri: `${BASE}\uffef` },
        { name: 'an astral character', iri: `${BASE}\u{1D538}\u{1F600}` },
        { name: 'U+1FFFD, the last ucschar of plane 1', iri: `${BASE}\u{1FFFD}` },
        { name: 'U+E1000', iri: `${BASE}\u{E1000}` },
        { name: 'a long IRI (the longest a hex id can stand for)', iri: BASE + 'A'.repeat(2048) },
      ],
      (row) => row.name,
    ),
  )('%s', (_, { iri }) => {
    expect(isSafeAbsoluteIri(iri)).toBe(true);
    expect(iriProblem(iri)).toBeUndefined();
  });
});

describe('IRIs the server refuses, and why', () => {
  const holds = (code: string) => new RegExp(`it holds ${code.replace('+', '\\+')}, which no IRI may hold`);
  const NOT_SYNTAX = /does not follow the IRI syntax of RFC 3987/;
  const PERCENT = /a % that does not start a percent-encoding/;
  const NO_SCHEME = /does not start with a scheme/;
  it.each(
    titled(
      [
        // The three ids, decoded.
        {
          name: 'U+2028 (both stores take it; the query writer corrupts it)',
          iri: `${BASE}INJ\u2028`,
          why: holds('U+2028'),
        },
        { name: 'U+2029 (likewise)', iri: `${BASE}INJ\u2029X`, why: holds('U+2029') },
        { name: 'a lone %', iri: `${BASE}INJ%`, why: PERCENT },
        { name: 'U+0085 (C1)', iri: `${BASE}INJ\u0085`, why: holds('U+0085') },
        // Controls.
        { name: 'U+0000', iri: `${BASE}\u0000`, why: holds('U+0000') },
        { name: 'a newline', iri: `${BASE}a\nb`, why: holds('U+000A') },
        { name: 'a tab', iri: `${BASE}a\tb`, why: holds('U+0009') },
        { name: 'U+001F', iri: `${BASE}\u001f`, why: holds('U+001F') },
        { name: 'DEL', iri: `${BASE}\u007f`, why: holds('U+007F') },
        { name: 'U+0080, the first C1', iri: `${BASE}\u0080`, why: holds('U+0080') },
        { name: 'U+009F, the last C1', iri: `${BASE}\u009f`, why: holds('U+009F') },
        // Bidi formatting characters (RFC 3987 §4.1; both stores take them).
        { name: 'LRM U+200E', iri: `${BASE}\u200e`, why: holds('U+200E') },
        { name: 'RLM U+200F', iri: `${BASE}\u200f`, why: holds('U+200F') },
        { name: 'LRE U+202A', iri: `${BASE}\u202a`, why: holds('U+202A') },
        { name: 'RLO U+202E', iri: `${BASE}a\u202eb`, why: holds('U+202E') },
        // Noncharacters and other code points outside ucschar.
        { name: 'U+FDD0', iri: `${BASE}\ufdd0`, why: holds('U+FDD0') },
        { name: 'U+FDEF', iri: `${BASE}\ufdef`, why: holds('U+FDEF') },
        { name: 'U+FFFE', iri: `${BASE}\ufffe`, why: holds('U+FFFE') },
        { name: 'U+FFFF', iri: `${BASE}\uffff`, why: holds('U+FFFF') },
        { name: 'U+FFF0 (specials)', iri: `${BASE}\ufff0`, why: holds('U+FFF0') },
        { name: 'U+FFFD (replacement character)', iri: `${BASE}\ufffd`, why: holds('U+FFFD') },
        { name: 'U+1FFFE', iri: `${BASE}\u{1FFFE}`, why: holds('U+1FFFE') },
        { name: 'U+10FFFF', iri: `${BASE}\u{10FFFF}`, why: holds('U+10FFFF') },
        { name: 'U+E0001 (language tag)', iri: `${BASE}\u{E0001}`, why: holds('U+E0001') },
        { name: 'a lone high surrogate', iri: `${BASE}\ud800`, why: holds('U+D800') },
        { name: 'a lone low surrogate', iri: `${BASE}\udc00x`, why: holds('U+DC00') },
        { name: 'a reversed surrogate pair', iri: `${BASE}\udc00\ud800`, why: holds('U+DC00') },
        // What SPARQL's IRIREF excludes.
        { name: 'a space', iri: `${BASE}a b`, why: holds('U+0020') },
        ...[...'<>"{}|^`\\'].map((char) => ({
          name: `${char}`,
          iri: `${BASE}a${char}b`,
          why: new RegExp(`it holds '${char.replace(/[\\^|{}]/g, '\\$&')}' \\(U\\+00[0-9A-F]{2}\\)`),
        })),
        // % only as % and two hex digits.
        { name: '% and one hex digit', iri: `${BASE}INJ%4`, why: PERCENT },
        { name: '% and non-hex', iri: `${BASE}%zz`, why: PERCENT },
        { name: '%%41', iri: `${BASE}%%41`, why: PERCENT },
        { name: 'a lone % in the query', iri: `${BASE}a?b%`, why: PERCENT },
        // The grammar.
        { name: 'a second #', iri: `${BASE}a#b#c`, why: NOT_SYNTAX },
        { name: '[ in the path', iri: `${BASE}[`, why: NOT_SYNTAX },
        { name: '] in the query', iri: `${BASE}?]`, why: NOT_SYNTAX },
        { name: 'an unclosed IPv6 host', iri: 'http://[::1/', why: NOT_SYNTAX },
        { name: 'an IPv6 host with nine groups', iri: 'http://[1::2:3:4:5:6:7:8]/', why: NOT_SYNTAX },
        { name: 'a host in brackets that is no address', iri: 'http://[x]/', why: NOT_SYNTAX },
        { name: 'a port that is not a number', iri: 'http://x:a/', why: NOT_SYNTAX },
        { name: 'two ports', iri: 'http://x:1:2/', why: NOT_SYNTAX },
        { name: 'two @ in the authority', iri: 'http://u@v@x/', why: NOT_SYNTAX },
        // Private use: RFC 3987 allows it in the query, Jena refuses it anywhere in a query's IRI.
        { name: 'private use in the path', iri: `${BASE}\ue000`, why: holds('U+E000') },
        { name: 'private use in the fragment', iri: `${BASE}#\ue000`, why: holds('U+E000') },
        { name: 'private use in the query', iri: `${BASE}a?\ue000`, why: holds('U+E000') },
        { name: 'private use of plane 16 in the query', iri: `${BASE}a?\u{10FFFD}`, why: holds('U+10FFFD') },
        { name: 'a relative reference', iri: '/relative/path', why: NO_SCHEME },
        { name: 'a scheme starting with a digit', iri: '1http://x/', why: NO_SCHEME },
        { name: 'empty', iri: '', why: NO_SCHEME },
      ],
      (row) => row.name,
    ),
  )('%s', (_, { iri, why }) => {
    expect(isSafeAbsoluteIri(iri)).toBe(false);
    expect(iriProblem(iri)).toMatch(why);
  });

  it('the reason never quotes the IRI', () => {
    expect(iriProblem(`${BASE}INJ\u2028 } DROP ALL`)).not.toContain('INJ');
  });
});

describe('the rule, over any text', () => {
  // The character rules of the issue, checked apart from the grammar that implements them.
  const NEVER = /[\u0000-\u0020\u007f-\u009f\u200e\u200f\u2028-\u202e\ufdd0-\ufdef<>"{}|^`\\]|[\ufffe\uffff]/u;
  const anyText = fc.string({ unit: 'binary', maxLength: 40 });
  const iriLike = fc
    .tuple(
      fc.constantFrom('http://x/', 'urn:', 'http://', 'x:', BASE),
      fc.array(
        fc.oneof(
          fc.constantFrom(':', '/', '?', '#', '[', ']', '@', '%', '%4', '%41', '.', '-', '!', ';', 'a', '0', '::'),
          fc.string({ unit: 'binary', maxLength: 2 }),
        ),
        { maxLength: 12 },
      ),
    )
    .map(([scheme, parts]) => scheme + parts.join(''));

  it('an accepted IRI holds no character the issue forbids, and % only before two hex digits', () => {
    fc.assert(
      fc.property(fc.oneof(anyText, iriLike), (text) => {
        if (!isSafeAbsoluteIri(text)) return;
        expect(text).not.toMatch(NEVER);
        expect(text).not.toMatch(FORBIDDEN_IRI_CHARS);
        expect(text).not.toMatch(/%(?![0-9A-Fa-f]{2})/);
        expect(text).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
        for (const char of text) expect((char.codePointAt(0)! & 0xfffe) === 0xfffe, char).toBe(false);
      }),
      { numRuns: 3000 },
    );
  });

  it('iriProblem gives a reason exactly when the IRI is refused', () => {
    fc.assert(
      fc.property(fc.oneof(anyText, iriLike), (text) => {
        expect(iriProblem(text) === undefined).toBe(isSafeAbsoluteIri(text));
      }),
      { numRuns: 3000 },
    );
  });

  it('stays fast on long hostile input', () => {
    for (const text of [
      `http://${'a'.repeat(4096)}\u0001`,
      `http://${'a@'.repeat(2048)}`,
      `http://${':'.repeat(4096)}\u0001`,
      `http://[${'1:'.repeat(2048)}`,
      `${BASE}${'%41'.repeat(1365)}%4`,
      `x:${'?'.repeat(4096)}#\u0001`,
    ]) {
      const started = performance.now();
      expect(isSafeAbsoluteIri(text)).toBe(false);
      expect(performance.now() - started).toBeLessThan(100);
    }
  });
});
