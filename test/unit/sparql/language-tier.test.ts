import type { Expression, Pattern, SparqlQuery } from 'sparqljs';
import { describe, expect, it } from 'vitest';
import { languageTiers, tierOf } from '../../../src/mapping/language.js';
import { XSD_BOOLEAN } from '../../../src/rdf/vocabulary.js';
import { bind, literal, op, variable } from '../../../src/sparql/ast.js';
import { languageTier, strictLanguageFilter } from '../../../src/sparql/language-tier.js';
import { toText } from '../../../src/sparql/to-text.js';
import { attributeOf, LANGUAGE_CASES } from '../../support/language-cases.js';

/**
 * Evaluates the few SPARQL functions a tier uses, as SPARQL 1.1 defines them, with `lang` standing
 * for the tag LANG() returns: so the tests check what the store computes, not the text.
 */
function evaluate(e: Expression): string | boolean {
  if ('termType' in e && e.termType === 'Literal')
    return e.datatype.value === XSD_BOOLEAN ? e.value === 'true' : e.value;
  if (!('type' in e) || e.type !== 'operation') throw new Error(`unexpected expression ${JSON.stringify(e)}`);
  const args = e.args.map((a) => evaluate(a as Expression));
  switch (e.operator) {
    case 'if':
      return args[0] === true ? args[1]! : args[2]!;
    case '=':
      return args[0] === args[1];
    case 'lcase':
      return String(args[0]).toLowerCase();
    case 'langmatches': {
      // RFC 4647 basic filtering, case-insensitive; "*" takes any non-empty tag.
      const [tag, range] = [String(args[0]).toLowerCase(), String(args[1]).toLowerCase()];
      return range === '*' ? tag !== '' : tag === range || tag.startsWith(`${range}-`);
    }
    default:
      throw new Error(`unexpected operator ${e.operator}`);
  }
}

const tagOf = (term: { termType: string; language?: string }) => (term.termType === 'Literal' ? term.language! : '');
const keep = (patterns: Pattern[], tag: string) =>
  patterns.every((p) => p.type === 'filter' && evaluate(substituteLang(p.expression, tag)) === true);

/** The filter's LANG(?k0), replaced by the tag it would return. */
function substituteLang(e: Expression, tag: string): Expression {
  if ('type' in e && e.type === 'operation')
    return e.operator === 'lang'
      ? literal(tag)
      : { ...e, args: e.args.map((a) => substituteLang(a as Expression, tag)) };
  return e;
}

/** The key MIN (or MAX) picks among a resource's values, without its tier character, as ORDER BY sees it. */
function sortKey(c: (typeof LANGUAGE_CASES)[number], many: boolean, best: 'low' | 'high'): string | null {
  const attribute = attributeOf(c, many);
  const keys = c.values
    .filter((v) => keep(strictLanguageFilter(variable('k0'), attribute), tagOf(v)))
    .map((v) => `${evaluate(languageTier(literal(tagOf(v)), attribute, best))}${v.value}`)
    .sort();
  const picked = best === 'low' ? keys[0] : keys.at(-1);
  return picked === undefined ? null : picked.slice(1);
}

describe('languageTier: the sort key picks the value the resource shows', () => {
  it.each(LANGUAGE_CASES.filter((c) => c.language !== '*'))('$name', (c) => {
    expect(sortKey(c, false, 'low')).toEqual(c.shown);
    const many = c.many as string[];
    expect(sortKey(c, true, 'low')).toEqual(many[0] ?? null);
    expect(sortKey(c, true, 'high')).toEqual(many.at(-1) ?? null);
  });

  it.each(LANGUAGE_CASES.filter((c) => c.language === '*'))('$name: least and greatest of any language', (c) => {
    const all = c.values.map((v) => v.value).sort();
    expect(sortKey(c, false, 'low')).toEqual(all[0] ?? null);
    expect(sortKey(c, false, 'high')).toEqual(all.at(-1) ?? null);
  });
});

describe('languageTier agrees with languageTiers, tier by tier', () => {
  const TAGS = [
    '',
    'en',
    'EN',
    'en-us',
    'en-GB',
    'en-us-x-nyc',
    'de',
    'de-ch',
    'pt',
    'pt-br',
    'pt-pt',
    'fr',
    'e',
    'eng',
  ];
  const WANTED = ['en', 'en-us', 'en-us-x-nyc', 'pt-br', 'de', 'zh-hant-tw', '*'];
  const cases = WANTED.flatMap((language) =>
    [false, true].flatMap((strictLanguage) =>
      strictLanguage && language === '*' ? [] : [{ language, strictLanguage }],
    ),
  );
  it.each(cases)('$language strict=$strictLanguage', ({ language, strictLanguage }) => {
    const attribute = { name: 'l', predicate: 'http://x/p', language, strictLanguage, many: false };
    const tiers = languageTiers(attribute);
    for (const best of ['low', 'high'] as const) {
      const character = (tag: string) => evaluate(languageTier(literal(tag), attribute, best)) as string;
      for (const a of TAGS) {
        expect(character(a)).toHaveLength(1);
        const kept = keep(strictLanguageFilter(variable('k0'), attribute), a);
        expect(kept, `filter on ${a}`).toBe(tierOf(tiers, a) !== undefined);
        for (const b of TAGS) {
          const [ta, tb] = [tierOf(tiers, a) ?? tiers.length, tierOf(tiers, b) ?? tiers.length];
          const js = Math.sign(ta - tb);
          const [ca, cb] = [character(a), character(b)];
          const byCodePoint = ca < cb ? -1 : ca > cb ? 1 : 0;
          expect(byCodePoint, `${best}: '${a}' vs '${b}'`).toBe(best === 'low' ? js : 0 - js);
        }
      }
    }
  });
});

describe('languageTiers', () => {
  const describeTiers = (language: string, strictLanguage = false) =>
    languageTiers({ language, strictLanguage }).map((t) =>
      t.kind === 'exact' ? t.tag : t.kind === 'range' ? `${t.range}-*` : t.kind,
    );
  it.each([
    ['en', false, ['en', 'en-*', 'untagged', 'any']],
    ['pt-br', false, ['pt-br', 'pt', 'pt-*', 'untagged', 'any']],
    ['zh-hant-tw', false, ['zh-hant-tw', 'zh-hant', 'zh', 'zh-*', 'untagged', 'any']],
    ['de-ch-x-foo', false, ['de-ch-x-foo', 'de-ch', 'de', 'de-*', 'untagged', 'any']],
    ['de', true, ['de', 'de-*']],
    ['pt-br', true, ['pt-br', 'pt', 'pt-*']],
    ['*', false, ['any']],
  ] as const)('%s strict=%s', (language, strict, expected) => {
    expect(describeTiers(language, strict)).toEqual(expected);
  });

  it('a very long tag keeps its tiers within one character', () => {
    const tag = ['en', ...Array.from({ length: 60 }, () => 'abc')].join('-');
    const tiers = languageTiers({ language: tag });
    expect(tiers.length).toBeLessThanOrEqual(35);
    expect(tiers.slice(-3).map((t) => t.kind)).toEqual(['range', 'untagged', 'any']);
    const attribute = { name: 'l', predicate: 'http://x/p', language: tag, many: false };
    for (const best of ['low', 'high'] as const)
      for (const value of ['en', 'en-abc', '', 'de'])
        expect(evaluate(languageTier(literal(value), attribute, best))).toMatch(/^[0-9A-Z]$/);
  });
});

describe('languageTier: text', () => {
  const text = (expression: Expression) =>
    toText({
      type: 'query',
      queryType: 'SELECT',
      prefixes: {},
      variables: [variable('t')],
      where: [bind(expression, variable('t'))],
    } as unknown as SparqlQuery);

  it('en: exact with LCASE, the range with LANGMATCHES, then untagged, then any', () => {
    const en = { name: 'label', predicate: 'http://x/p', language: 'en', many: false };
    expect(text(languageTier(op('lang', variable('k0')), en, 'low'))).toContain(
      'IF((LCASE(LANG(?k0))) = "en", "0", IF(LANGMATCHES(LANG(?k0), "en"), "1", IF((LANG(?k0)) = "", "2", "3")))',
    );
    expect(text(languageTier(op('lang', variable('k0')), en, 'high'))).toContain(
      '"3", IF(LANGMATCHES(LANG(?k0), "en"), "2"',
    );
  });

  it('strict de: a FILTER for the OPTIONAL; none for other attributes', () => {
    const de = { name: 'label', predicate: 'http://x/p', language: 'de', strictLanguage: true, many: false };
    expect(strictLanguageFilter(variable('k0'), de)).toHaveLength(1);
    expect(text(languageTier(op('lang', variable('k0')), de, 'low'))).toContain(
      'IF((LCASE(LANG(?k0))) = "de", "0", IF(LANGMATCHES(LANG(?k0), "de"), "1", "2"))',
    );
    expect(strictLanguageFilter(variable('k0'), { ...de, strictLanguage: false })).toEqual([]);
    expect(strictLanguageFilter(variable('k0'), { ...de, language: '*', strictLanguage: false })).toEqual([]);
  });

  it('*: one tier', () => {
    const star = { name: 'label', predicate: 'http://x/p', language: '*', many: false };
    expect(evaluate(languageTier(op('lang', variable('k0')), star, 'low'))).toBe('0');
    expect(evaluate(languageTier(op('lang', variable('k0')), star, 'high'))).toBe('0');
  });
});
