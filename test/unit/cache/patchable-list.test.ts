/**
 * The window cache's patch rule as a table: for lists of the sample mapping and the IRIs a change
 * made stale, whether the kept list may be patched (its changed members read again) or must be
 * read whole. Every "no" row names a way a change can reach members other than its subjects.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { patchDecision, patchScope, sortKeyPredicates } from '../../../src/cache/patchable-list.js';
import { loadMapping } from '../../../src/mapping/load-mapping.js';
import type { Mapping } from '../../../src/mapping/model.js';
import type { ListRequest } from '../../../src/plan/plan.js';
import { parseFilter } from '../../../src/request/parse-filter.js';
import { parseQuery } from '../../../src/request/parse-query.js';
import { parseSort } from '../../../src/request/parse-sort.js';
import { perMemberKeyIndex } from '../../../src/sparql/per-member-key.js';

const ELOD = 'http://linkedeconomy.org/ontology#';
const SKOS = 'http://www.w3.org/2004/02/skos/core#';
const MU_UUID = 'http://mu.semte.ch/vocabularies/core/uuid';
const YEAR = `${ELOD}financialYear`;
const ACTIVITY = `${ELOD}TradeActivity`;
const CONCEPT = `${SKOS}Concept`;

let mapping: Mapping;
beforeAll(async () => {
  mapping = await loadMapping('mappings/sample.yaml');
});

/** A list request from a type, a sort (the default when empty) and a query string's filters. */
function request(typeName: string, sort = '', query = '', parent = false): ListRequest {
  const type = mapping.types.get(typeName)!;
  const base: ListRequest = {
    type,
    sort: sort ? parseSort(sort, mapping, type) : type.defaultSort,
    filters: query ? parseFilter(parseQuery(query).filter, mapping, type) : [],
  };
  if (!parent) return base;
  const concepts = mapping.types.get('concepts')!;
  return {
    ...base,
    parent: {
      type: concepts,
      lookup: { kind: 'iri', iri: 'http://linkedeconomy.org/resource/concept/0101' },
      relationship: concepts.relationships.get('narrower-concepts')!,
    },
  };
}

const CASES: readonly { what: string; list: () => ListRequest; stale: string[]; patchable: boolean }[] = [
  { what: 'by year, a year changed', list: () => request('trade-activities'), stale: [YEAR], patchable: true },
  {
    what: 'by year, members typed or untyped',
    list: () => request('trade-activities'),
    stale: [ACTIVITY],
    patchable: true,
  },
  {
    what: 'by year, ids changed (and years)',
    list: () => request('trade-activities'),
    stale: [MU_UUID, YEAR],
    patchable: true,
  },
  { what: 'by id, a member typed', list: () => request('trade-activities', 'id'), stale: [ACTIVITY], patchable: true },
  {
    what: 'by year then id, filtered through concerns, a year changed',
    list: () => request('trade-activities', '-financial-year,id', 'filter[concerns.notation]=0101'),
    stale: [YEAR],
    patchable: true,
  },
  {
    what: 'concepts by notation, a notation changed',
    list: () => request('concepts', 'notation'),
    stale: [`${SKOS}notation`],
    patchable: true,
  },
  // A key through a relationship: the changed triple is the target's, read for every member that links to it.
  {
    what: 'by amount.value, an amount changed',
    list: () => request('trade-activities', 'amount.value'),
    stale: [`${ELOD}amount`],
    patchable: false,
  },
  // A key computed per member (a language, a to-many path): of the member, or through one forward hop.
  {
    what: 'concepts by label, a label changed',
    list: () => request('concepts', 'label'),
    stale: [`${SKOS}prefLabel`],
    patchable: true,
  },
  {
    what: 'by concerns.label, a label, a concept typed and a concerns link changed',
    list: () => request('trade-activities', 'concerns.label'),
    stale: [`${SKOS}prefLabel`, CONCEPT, `${ELOD}concerns`],
    patchable: true,
  },
  {
    what: 'by concerns.label, a year changed (not read)',
    list: () => request('trade-activities', 'concerns.label'),
    stale: [YEAR],
    patchable: false,
  },
  {
    what: 'by concerns.broader-concepts.label (two hops), a label changed',
    list: () => request('trade-activities', 'concerns.broader-concepts.label'),
    stale: [`${SKOS}prefLabel`],
    patchable: false,
  },
  {
    what: 'concepts by narrower-concepts.label (an inverse hop), a label changed',
    list: () => request('concepts', 'narrower-concepts.label'),
    stale: [`${SKOS}prefLabel`],
    patchable: false,
  },
  // A related list: the parent's link is a triple of the parent.
  {
    what: 'a related list by notation, a notation changed',
    list: () => request('concepts', 'notation', '', true),
    stale: [`${SKOS}notation`],
    patchable: false,
  },
  // A filter reads the stale IRI: a concept typed or untyped changes which activities the filter keeps.
  {
    what: 'filtered through concerns, a concept typed',
    list: () => request('trade-activities', '', 'filter[concerns.notation]=0101'),
    stale: [CONCEPT],
    patchable: false,
  },
  {
    what: 'filtered by year, a year changed',
    list: () => request('trade-activities', '', 'filter[financial-year]=2016-01-01Z'),
    stale: [YEAR],
    patchable: false,
  },
  // A stale IRI the list reads other than of its members (here the concerns link of a filter).
  {
    what: 'filtered through concerns, a concerns link moved',
    list: () => request('trade-activities', '', 'filter[concerns.notation]=0101'),
    stale: [YEAR, `${ELOD}concerns`],
    patchable: false,
  },
  {
    what: 'by year, an IRI the list does not own',
    list: () => request('trade-activities'),
    stale: [`${SKOS}prefLabel`],
    patchable: false,
  },
];

describe('patchDecision', () => {
  it.each(CASES)('$what: patchable $patchable', ({ list, stale, patchable }) => {
    const decision = patchDecision(patchScope(list(), mapping, perMemberKeyIndex(list())), stale);
    expect(decision.patchable).toBe(patchable);
    if (!decision.patchable) expect(decision.why).toMatch(/\S/);
  });
});

describe('sortKeyPredicates: what only moves a member, never makes a resource join or leave', () => {
  it.each([
    ['trade-activities', '', [YEAR]], // the default sort, -financial-year
    ['trade-activities', 'financial-year,-id', [YEAR]],
    ['trade-activities', 'id', []],
    ['trade-activities', 'origin.country.iso-code', [`${ELOD}hasOrigin`]], // the member's own link
    ['trade-activities', 'concerns.label', [`${ELOD}concerns`]],
    ['concepts', 'notation,label', [`${SKOS}notation`, `${SKOS}prefLabel`]],
  ])('%s sorted by %o: %o', (type, sort, predicates) => {
    expect([...sortKeyPredicates(request(type, sort))].sort()).toEqual([...predicates].sort());
  });
});
