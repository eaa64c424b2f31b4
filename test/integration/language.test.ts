import { readFileSync } from 'node:fs';
import { Parser } from 'n3';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { compileMapping } from '../../src/mapping/load-mapping.js';
import type { Store } from '../../src/store/store.js';
import { ApiClient, CURSOR_PAGE } from '../support/api-client.js';
import { describeStores, openStoreWith } from '../support/each-store.js';
import { codePointCompare } from '../support/oracle.js';

/**
 * Language choice over real HTTP, on every store: the label each language attribute shows (an
 * exact tag beats a sub-tag, a strict attribute has no fallback, `*` shows every language) and
 * that `sort` follows the shown label. The expectations are computed here from the Turtle file,
 * with the README's tier list written out once more by hand.
 */
const FIXTURE = 'test/fixtures/languages.ttl';
const BASE = 'http://example.org/units/';
const RDFS_LABEL = 'http://www.w3.org/2000/01/rdf-schema#label';

const mapping = compileMapping(
  {
    prefixes: { ex: BASE, rdfs: 'http://www.w3.org/2000/01/rdf-schema#' },
    types: {
      units: {
        class: 'ex:Unit',
        id: { hex: { base: BASE } },
        attributes: {
          label: { predicate: 'rdfs:label', language: 'en' },
          'label-us': { predicate: 'rdfs:label', language: 'en-US' },
          'label-pt': { predicate: 'rdfs:label', language: 'pt-BR' },
          'label-de': { predicate: 'rdfs:label', language: 'de', strictLanguage: true },
          'de-labels': { predicate: 'rdfs:label', language: 'de', strictLanguage: true, many: true },
          labels: { predicate: 'rdfs:label', language: '*' },
          'all-labels': { predicate: 'rdfs:label', language: '*', many: true },
        },
      },
    },
  },
  'language.test.ts',
);

// --- The expectations, from the Turtle file -------------------------------------------------

interface Label {
  readonly value: string;
  /** Lowercase; '' when untagged. */
  readonly tag: string;
}
interface Unit {
  readonly id: string;
  readonly labels: Label[];
}

const units: Unit[] = (() => {
  const quads = new Parser().parse(readFileSync(FIXTURE, 'utf8'));
  const subjects = [...new Set(quads.map((q) => q.subject.value))];
  return subjects
    .map((iri) => ({
      id: Buffer.from(iri.slice(BASE.length)).toString('hex'),
      labels: quads
        .filter((q) => q.subject.value === iri && q.predicate.value === RDFS_LABEL)
        .map((q) => ({
          value: q.object.value,
          tag: q.object.termType === 'Literal' ? q.object.language.toLowerCase() : '',
        })),
    }))
    .sort((a, b) => codePointCompare(a.id, b.id));
})();

const is = (tag: string) => (l: Label) => l.tag === tag;
const within = (range: string) => (l: Label) => l.tag === range || l.tag.startsWith(`${range}-`);
const untagged = (l: Label) => l.tag === '';
const any = () => true;
/** The tiers of each attribute, best first, as the README lists them. */
const TIERS: Record<string, ((l: Label) => boolean)[]> = {
  label: [is('en'), within('en'), untagged, any],
  'label-us': [is('en-us'), is('en'), within('en'), untagged, any],
  'label-pt': [is('pt-br'), is('pt'), within('pt'), untagged, any],
  'label-de': [is('de'), within('de')],
  'de-labels': [is('de'), within('de')],
};

/** The labels an attribute shows, least first. */
function shown(unit: Unit, field: string): string[] {
  for (const inTier of TIERS[field]!) {
    const found = unit.labels.filter(inTier);
    if (found.length > 0) return found.map((l) => l.value).sort(codePointCompare);
  }
  return [];
}

function expectedAttributes(unit: Unit): Record<string, unknown> {
  const byTag = new Map<string, string[]>();
  for (const l of unit.labels) byTag.set(l.tag || 'und', [...(byTag.get(l.tag || 'und') ?? []), l.value]);
  const tags = [...byTag.keys()].sort(codePointCompare);
  const sorted = (tag: string) => byTag.get(tag)!.sort(codePointCompare);
  return {
    label: shown(unit, 'label')[0] ?? null,
    'label-us': shown(unit, 'label-us')[0] ?? null,
    'label-pt': shown(unit, 'label-pt')[0] ?? null,
    'label-de': shown(unit, 'label-de')[0] ?? null,
    'de-labels': shown(unit, 'de-labels'),
    labels: Object.fromEntries(tags.map((tag) => [tag, sorted(tag)[0]])),
    'all-labels': Object.fromEntries(tags.map((tag) => [tag, sorted(tag)])),
  };
}

/**
 * The order of `sort=<field>`: by the shown label (a `many` or `*` attribute by its least label
 * ascending, its greatest descending), units without one last, ties by id.
 */
function expectedOrder(sort: string): string[] {
  const descending = sort.startsWith('-');
  const field = sort.replace(/^-/, '');
  const keyOf = (unit: Unit): string | undefined => {
    const values = field === 'labels' ? unit.labels.map((l) => l.value).sort(codePointCompare) : shown(unit, field);
    const multi = field === 'labels' || field === 'de-labels';
    return descending && multi ? values.at(-1) : values[0];
  };
  return [...units]
    .sort((a, b) => {
      const [x, y] = [keyOf(a), keyOf(b)];
      if (x === undefined || y === undefined)
        return (x === undefined ? 1 : 0) - (y === undefined ? 1 : 0) || codePointCompare(a.id, b.id);
      return (descending ? codePointCompare(y, x) : codePointCompare(x, y)) || codePointCompare(a.id, b.id);
    })
    .map((u) => u.id);
}

const hex = (name: string) => Buffer.from(name).toString('hex');
const SORTS = [
  'label',
  '-label',
  'label-us',
  '-label-us',
  'label-pt',
  '-label-pt',
  'label-de',
  '-label-de',
  'de-labels',
  '-de-labels',
  'labels',
  '-labels',
];

// --- The suites ---------------------------------------------------------------------------

const _endpoint = inject('endpoint');

describeStores(`language choice`, (storeName) => {
  let store: Store;
  let api: ApiClient;
  beforeAll(async () => {
    store = await openStoreWith(storeName, [FIXTURE]);
    api = await ApiClient.listen(createApp({ datasets: [{ name: 'units', mapping, store, linkBase: '' }] }));
  });
  afterAll(async () => {
    await api?.close();
    await store?.close();
  });

  it('shows the label of the best tier: exact tag, truncations, the language, untagged, any', async () => {
    const response = await api.get('/units?page[size]=100');
    expect(response.status).toBe(200);
    expect(response.body.data.map((r: { id: string }) => r.id)).toEqual(units.map((u) => u.id));
    for (const [i, unit] of units.entries())
      expect(response.body.data[i].attributes, `unit ${unit.id}`).toEqual(expectedAttributes(unit));
  });

  it('an exact tag beats a sub-tag; strict attributes show null; * shows every tag', async () => {
    const metre = (await api.get(`/units/${hex('metre')}`)).body.data.attributes;
    expect(metre).toMatchObject({ label: 'Metre', 'label-us': 'Meter', 'label-pt': 'm', 'label-de': 'Meter' });
    expect(metre.labels).toEqual({ de: 'Meter', en: 'Metre', 'en-gb': 'Metre (UK)', 'en-us': 'Meter', und: 'm' });
    const litre = (await api.get(`/units/${hex('litre')}`)).body.data.attributes;
    expect(litre).toMatchObject({ 'label-pt': 'Litro', 'label-de': 'Liter', 'de-labels': ['Liter'] });
    const kelvin = (await api.get(`/units/${hex('kelvin')}`)).body.data.attributes;
    expect(kelvin).toMatchObject({ label: 'Kelvin', 'label-de': null, 'de-labels': [] });
    const mole = (await api.get(`/units/${hex('mole')}`)).body.data.attributes;
    expect(mole).toMatchObject({ label: 'Mole', 'label-de': 'Mol', labels: { de: 'Mol', en: 'Mole', und: 'mol' } });
    const candela = (await api.get(`/units/${hex('candela')}`)).body.data.attributes;
    expect(candela).toEqual({
      label: null,
      'label-us': null,
      'label-pt': null,
      'label-de': null,
      'de-labels': [],
      labels: {},
      'all-labels': {},
    });
  });

  it.each(SORTS)('sort=%s orders by the shown label, missing ones last', async (sort) => {
    const response = await api.get(`/units?sort=${sort}&page[size]=100`);
    expect(response.status).toBe(200);
    expect(response.body.data.map((r: { id: string }) => r.id)).toEqual(expectedOrder(sort));
  });

  it.each(['label-de', '-label-de', 'label', 'labels', '-labels'])(
    'sort=%s: a cursor walk sees the same order',
    async (sort) => {
      const seen: string[] = [];
      let next: string | null = `/units?sort=${sort}&page[size]=2`;
      while (next !== null && seen.length <= units.length) {
        const page = await api.get(next, { Accept: CURSOR_PAGE });
        expect(page.status).toBe(200);
        seen.push(...page.body.data.map((r: { id: string }) => r.id));
        next = page.body.links.next;
      }
      expect(seen).toEqual(expectedOrder(sort));
    },
  );

  it('filters compare every label, whatever its language', async () => {
    const ids = async (query: string) =>
      (await api.get(`/units?${query}`)).body.data.map((r: { id: string }) => r.id).sort(codePointCompare);
    expect(await ids('filter[label-de]=Metre')).toEqual([hex('metre')]);
    expect(await ids('filter[labels]=Kelvin (it)')).toEqual([hex('kelvin')]);
    expect(await ids('filter[label][starts-with]=litro')).toEqual([hex('litre')]);
    expect(await ids('filter[label-de][exists]=false')).toEqual([hex('candela')]);
  });
});
