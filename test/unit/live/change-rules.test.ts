/**
 * The invalidation rules as a table: for each rule, a changed triple on the sample mapping and the
 * IRIs it marks; then, for requests planned from real URLs, whether a change under each rule
 * reaches what they read (`planReads`). The same rules are docs/live-data.md's table: the test
 * fails when the document and the code disagree, or when a rule has no case.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { listReads, planReads } from '../../../src/cache/plan-reads.js';
import { resourceKey } from '../../../src/cache/resource-key.js';
import { DEFAULT_DATASET_OPTIONS } from '../../../src/dataset.js';
import { CHANGE_RULES, type ChangeRule, changeRules } from '../../../src/live/change-rules.js';
import type { DeltaTerm, DeltaTriple } from '../../../src/live/delta-triple.js';
import { loadMapping } from '../../../src/mapping/load-mapping.js';
import type { Mapping } from '../../../src/mapping/model.js';
import type { Plan } from '../../../src/plan/plan.js';
import { planRequest } from '../../../src/plan/plan-request.js';
import { parsePath } from '../../../src/request/parse-path.js';
import { parseQuery } from '../../../src/request/parse-query.js';

const ELOD = 'http://linkedeconomy.org/ontology#';
const SKOS = 'http://www.w3.org/2004/02/skos/core#';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const GRAPH = 'http://example.org/graph';
const uri = (value: string): DeltaTerm => ({ type: 'uri', value });
const triple = (s: DeltaTerm, p: string, o: DeltaTerm, graph?: string): DeltaTriple => ({
  subject: s,
  predicate: uri(p),
  object: o,
  ...(graph && { graph: uri(graph) }),
});
const ACTIVITY = uri('http://linkedeconomy.org/resource/TradeActivity/001');
const CONCEPT = uri('http://linkedeconomy.org/resource/concept/0101');
const label = { type: 'literal', value: 'Live animals', 'xml:lang': 'en' } as const;

/** One changed triple per rule (but `invalid-body`, which is a body, not a triple), and what it marks. */
const CASES: readonly { rule: ChangeRule; triple?: DeltaTriple; iris: readonly string[] }[] = [
  {
    rule: 'mapped-class',
    triple: triple(ACTIVITY, RDF_TYPE, uri(`${ELOD}TradeActivity`)),
    iris: [`${ELOD}TradeActivity`],
  },
  { rule: 'unmapped-class', triple: triple(ACTIVITY, RDF_TYPE, uri('http://example.org/Other')), iris: [] },
  {
    rule: 'mapped-predicate',
    triple: triple(ACTIVITY, `${ELOD}concerns`, CONCEPT, GRAPH),
    // The bare predicate, and the key of each end.
    iris: [
      `${ELOD}concerns`,
      resourceKey(`${ELOD}concerns`, ACTIVITY.value),
      resourceKey(`${ELOD}concerns`, CONCEPT.value),
    ],
  },
  { rule: 'unmapped-predicate', triple: triple(ACTIVITY, 'http://example.org/p', CONCEPT), iris: [] },
  {
    rule: 'blank-node',
    triple: triple({ type: 'bnode', value: 'b0' }, `${SKOS}prefLabel`, label),
    // The blank node's key is every resource's: a literal object has none.
    iris: [`${SKOS}prefLabel`, resourceKey(`${SKOS}prefLabel`)],
  },
  {
    rule: 'other-graph',
    triple: triple(CONCEPT, `${SKOS}broader`, CONCEPT, 'http://example.org/other'),
    iris: [`${SKOS}broader`, resourceKey(`${SKOS}broader`, CONCEPT.value)],
  },
  { rule: 'invalid-body', iris: [] },
];

let mapping: Mapping;
beforeAll(async () => {
  mapping = await loadMapping('mappings/sample.yaml');
});

/**
 * The IRIs a GET of `url` reads, as the response cache keys it; `found`: the IRI a `predicate` id
 * stood for; `shown`: the IRIs of a page's members.
 */
function reads(url: string, found?: string, shown?: readonly string[], on = mapping): string[] {
  const [path, query = ''] = url.split('?');
  const plan = planRequest(
    on,
    { route: parsePath(path!), query: parseQuery(query, 'json-api') },
    DEFAULT_DATASET_OPTIONS,
  );
  return planReads(on, plan, found, shown);
}

describe('changeRules: the rule each changed triple falls under, and what it marks', () => {
  it.each(CASES.filter((c) => c.triple))('$rule', ({ rule, triple: changed, iris }) => {
    const effect = changeRules(mapping, GRAPH).effect(changed!);
    expect(effect).toEqual({ rule, iris });
  });

  it('without a dataset graph, a triple naming a graph falls under its own rule', () => {
    const changed = triple(CONCEPT, `${SKOS}broader`, CONCEPT, 'http://example.org/other');
    expect(changeRules(mapping).effect(changed).rule).toBe('mapped-predicate');
  });
});

describe('planReads: a change reaches exactly the requests that read it', () => {
  const marked = (changed: DeltaTriple) => changeRules(mapping, GRAPH).effect(changed).iris;
  const reaches = (changed: DeltaTriple, url: string) => marked(changed).some((iri) => reads(url).includes(iri));
  const year = triple(ACTIVITY, `${ELOD}financialYear`, {
    type: 'typed-literal',
    value: '2016-01-01Z',
    datatype: 'http://www.w3.org/2001/XMLSchema#date',
  });
  const conceptLabel = triple(CONCEPT, `${SKOS}prefLabel`, label);
  const conceptType = triple(CONCEPT, RDF_TYPE, uri(`${SKOS}Concept`));
  const concerns = triple(ACTIVITY, `${ELOD}concerns`, CONCEPT);
  const broader = triple(CONCEPT, `${SKOS}broader`, CONCEPT);

  it.each([
    // A sort key: the lists sorted through it and the documents showing it.
    [year, '/trade-activities?sort=financial-year', true],
    [year, '/trade-activities/7c1e0a42', true],
    [year, '/concepts?sort=label', false],
    // A label: concepts' lists and documents, lists sorted or filtered through concerns.label, includes of concepts.
    [conceptLabel, '/concepts?sort=label', true],
    [conceptLabel, '/trade-activities?sort=concerns.label', true],
    [conceptLabel, '/trade-activities?filter[concerns.label]=Pasta', true],
    [conceptLabel, '/trade-activities/7c1e0a42?include=concerns', true],
    [conceptLabel, '/trade-activities?sort=financial-year', false],
    [conceptLabel, '/trade-activities/7c1e0a42', false],
    [conceptLabel, '/amounts', false],
    // A type: its lists, and the documents that link to its members (linkage checks membership).
    [conceptType, '/concepts', true],
    [conceptType, '/trade-activities/7c1e0a42', true],
    [conceptType, '/amounts', false],
    // A link: both ends' documents, their related lists and linkage.
    [concerns, '/trade-activities/7c1e0a42/relationships/concerns', true],
    [concerns, '/trade-activities/7c1e0a42/concerns', true],
    [concerns, '/trade-activities?sort=financial-year', true],
    [concerns, '/countries', false],
    // An inverse relationship reads the same predicate.
    [broader, '/concepts/01/narrower-concepts', true],
    [broader, '/concept-schemes', false],
  ] as const)('%#: %o reaches %s: %s', (changed, url, expected) => {
    expect(reaches(changed, url)).toBe(expected);
  });
});

describe('planReads: an answer about one resource is reached by changes to that resource alone', () => {
  const reaches = (changed: DeltaTriple, url: string, found?: string) =>
    changeRules(mapping, GRAPH)
      .effect(changed)
      .iris.some((iri) => reads(url, found).includes(iri));
  const OTHER_ACTIVITY = 'http://linkedeconomy.org/resource/TradeActivity/002';
  const year = triple(ACTIVITY, `${ELOD}financialYear`, { type: 'literal', value: '2016-01-01Z' });
  const uuid = triple(uri(OTHER_ACTIVITY), 'http://mu.semte.ch/vocabularies/core/uuid', {
    type: 'literal',
    value: 'x',
  });
  const concerns = triple(ACTIVITY, `${ELOD}concerns`, CONCEPT);
  const conceptLabel = triple(CONCEPT, `${SKOS}prefLabel`, label);
  const blankLabel = triple({ type: 'bnode', value: 'b0' }, `${SKOS}prefLabel`, label);
  const blankBroader = triple(CONCEPT, `${SKOS}broader`, { type: 'bnode', value: 'b1' });
  const broader = triple(CONCEPT, `${SKOS}broader`, uri('http://linkedeconomy.org/resource/concept/01'));
  const conceptType = triple(CONCEPT, RDF_TYPE, uri(`${SKOS}Concept`));
  const inScheme = triple(CONCEPT, `${SKOS}inScheme`, uri('http://linkedeconomy.org/resource/scheme/01'));

  it.each([
    // A `predicate` id's document, once the store said which IRI it stands for.
    [year, '/trade-activities/7c1e0a42', ACTIVITY.value, true],
    [year, '/trade-activities/7c1e0a42', OTHER_ACTIVITY, false],
    [concerns, '/trade-activities/7c1e0a42', ACTIVITY.value, true],
    [concerns, '/trade-activities/7c1e0a42', OTHER_ACTIVITY, false],
    // Ids: a change of any resource's id may move this id to it, or change a target's id.
    [uuid, '/trade-activities/7c1e0a42', ACTIVITY.value, true],
    // Includes read other resources: by predicate, as before.
    [conceptLabel, '/trade-activities/7c1e0a42?include=concerns', OTHER_ACTIVITY, true],
    [concerns, '/trade-activities/7c1e0a42?include=concerns', OTHER_ACTIVITY, false], // its own links alone
    // A template id: either end of a link, forward or inverse.
    [conceptLabel, '/concepts/0101', undefined, true],
    [conceptLabel, '/concepts/02', undefined, false],
    [conceptLabel, '/concepts/02?fields[concepts]=label', undefined, false],
    [conceptLabel, '/concepts/02?include=narrower-concepts', undefined, true],
    [broader, '/concepts/0101', undefined, true],
    [broader, '/concepts/01', undefined, true], // narrower-concepts, the inverse
    [broader, '/concepts/02', undefined, false],
    [concerns, '/concepts/0101', undefined, false], // no relationship of concepts reads concerns
    // Classes stay coarse: a member's type says whether a link shows.
    [conceptType, '/concepts/02', undefined, true],
    // A blank node can be any resource's end.
    [blankLabel, '/concepts/02', undefined, true],
    [blankBroader, '/concepts/02', undefined, true],
    // A parent's relationship of that parent alone; the listed type's predicates by predicate.
    [inScheme, '/concepts/0101/concept-scheme', undefined, true],
    [inScheme, '/concepts/02/concept-scheme', undefined, false],
    [inScheme, '/concepts/02/relationships/concept-scheme', undefined, false],
    [inScheme, '/concept-schemes/02/top-concepts', undefined, true], // lists concepts: reads their relationships
  ] as const)('%#: %o reaches %s (found %s): %s', (changed, url, found, expected) => {
    expect(reaches(changed, url, found)).toBe(expected);
  });
});

describe('planReads: a page reads the attributes it shows of its members alone, and its list as a list', () => {
  const OTHER_CONCEPT = 'http://linkedeconomy.org/resource/concept/0201';
  const SCHEME = 'http://linkedeconomy.org/resource/scheme/';
  const labelOf = (concept: string) => triple(uri(concept), `${SKOS}prefLabel`, label);
  const notationOf = (concept: string) => triple(uri(concept), `${SKOS}notation`, { type: 'literal', value: '0101' });
  const concerns = triple(ACTIVITY, `${ELOD}concerns`, CONCEPT);
  const conceptType = triple(uri(OTHER_CONCEPT), RDF_TYPE, uri(`${SKOS}Concept`));
  const reaches = (changed: DeltaTriple, url: string, shown: readonly string[]) =>
    changeRules(mapping, GRAPH)
      .effect(changed)
      .iris.some((iri) => reads(url, undefined, shown).includes(iri));

  it.each([
    // A shown attribute the list does not sort by: of the page's members alone.
    [labelOf(CONCEPT.value), '/trade-activities/7c1e0a42/concerns', [CONCEPT.value], true],
    [labelOf(OTHER_CONCEPT), '/trade-activities/7c1e0a42/concerns', [CONCEPT.value], false],
    [labelOf(OTHER_CONCEPT), '/concepts', [CONCEPT.value], false],
    // A related to-one document shows its one resource's attributes: of that resource alone.
    [labelOf(`${SCHEME}c0de`), '/concepts/0101/concept-scheme', [`${SCHEME}c0de`], true],
    [labelOf(`${SCHEME}0b1e`), '/concepts/0101/concept-scheme', [`${SCHEME}c0de`], false],
    // A blank node's label may be any member's.
    [triple({ type: 'bnode', value: 'b0' }, `${SKOS}prefLabel`, label), '/concepts', [CONCEPT.value], true],
    // What orders or filters the list: any resource's change may move a member in or out.
    [notationOf(OTHER_CONCEPT), '/trade-activities/7c1e0a42/concerns?sort=notation', [CONCEPT.value], true],
    [labelOf(OTHER_CONCEPT), '/concepts?sort=label', [CONCEPT.value], true],
    [labelOf(OTHER_CONCEPT), '/concepts?filter[label]=Pasta', [CONCEPT.value], true],
    [conceptType, '/concepts', [CONCEPT.value], true],
    [concerns, '/trade-activities/7c1e0a42/concerns', [CONCEPT.value], true],
    // With include, the listed type's attributes may show of included resources: by predicate.
    [labelOf(OTHER_CONCEPT), '/concepts?include=broader-concepts', [CONCEPT.value], true],
    // An empty page shows no attribute.
    [labelOf(OTHER_CONCEPT), '/trade-activities/7c1e0a42/concerns', [], false],
  ] as const)('%#: %o reaches %s (showing %o): %s', (changed, url, shown, expected) => {
    expect(reaches(changed, url, shown)).toBe(expected);
  });

  it('without the members (a cached answer stored before they were known), by predicate as before', () => {
    expect(reads('/concepts')).toContain(`${SKOS}prefLabel`);
    expect(reads('/concepts', undefined, [CONCEPT.value])).not.toContain(`${SKOS}prefLabel`);
  });
});

describe('listReads: a whole list (the window cache) depends on its order, members and filters only', () => {
  const list = (url: string) => {
    const [path, query = ''] = url.split('?');
    const plan = planRequest(
      mapping,
      { route: parsePath(path!), query: parseQuery(query, 'json-api') },
      DEFAULT_DATASET_OPTIONS,
    );
    return listReads(mapping, (plan as Extract<Plan, { list: unknown }>).list);
  };

  it.each([
    ['/trade-activities', `${ELOD}financialYear`, true], // the default sort, -financial-year
    ['/trade-activities?sort=amount.value', `${ELOD}financialYear`, false],
    ['/trade-activities?sort=amount.value', 'http://purl.org/goodrelations/v1#hasCurrencyValue', true],
    ['/trade-activities?sort=amount.value', `${ELOD}amount`, true],
    ['/trade-activities?sort=amount.value', 'http://purl.org/goodrelations/v1#UnitPriceSpecification', true],
    ['/trade-activities?sort=amount.value', `${ELOD}TradeActivity`, true],
    ['/concepts?sort=label', `${SKOS}notation`, false],
    ['/concepts?filter[notation]=01', `${SKOS}notation`, true],
    [
      '/concepts/01/narrower-concepts',
      resourceKey(`${SKOS}broader`, 'http://linkedeconomy.org/resource/concept/01'),
      true,
    ],
    ['/concepts/01/narrower-concepts', `${SKOS}broader`, false], // of its parent alone
    ['/trade-activities/7c1e0a42/concerns', `${ELOD}TradeActivity`, true],
  ])('%s reads %s: %s', (url, iri, expected) => {
    expect(list(url).includes(iri)).toBe(expected);
    // Whatever a list reads, the response showing it reads too.
    if (expected) expect(reads(url)).toContain(iri);
  });
});

describe('structured attributes: a change of a field of their nodes', () => {
  const LV2 = 'http://lv2plug.in/ns/lv2core#';
  const RDFS_LABEL = 'http://www.w3.org/2000/01/rdf-schema#label';
  const EG_AMP = 'http://lv2plug.in/plugins/eg-amp';
  let lv2: Mapping;
  beforeAll(async () => {
    lv2 = await loadMapping('test/fixtures/mappings/lv2-structured.yaml');
  });

  it('on a blank node falls under the blank-node rule and marks the field predicate for any resource', () => {
    const changed = triple({ type: 'bnode', value: 'port0' }, `${LV2}index`, {
      type: 'literal',
      value: '7',
      datatype: 'http://www.w3.org/2001/XMLSchema#integer',
    });
    expect(changeRules(lv2).effect(changed)).toEqual({
      rule: 'blank-node',
      iris: [`${LV2}index`, resourceKey(`${LV2}index`)],
    });
  });

  it.each([
    ['/plugins/eg-amp', [EG_AMP]],
    ['/plugins', [EG_AMP]],
    ['/projects?include=plugins', undefined],
  ] as const)('reaches %s, which shows the ports (a field two deep too)', (url, shown) => {
    const read = reads(url, undefined, shown, lv2);
    expect(read).toEqual(expect.arrayContaining([`${LV2}index`, `${LV2}scalePoint`, RDFS_LABEL]));
  });

  it('does not reach a page that only links to the plugins', () => {
    expect(reads('/projects', undefined, undefined, lv2)).not.toContain(`${LV2}index`);
  });
});

describe("docs/live-data.md's invalidation table", () => {
  it('has a case here for every rule, and a rule for every case', () => {
    expect(CASES.map((c) => c.rule)).toEqual(Object.keys(CHANGE_RULES));
  });

  it('is the code’s table', () => {
    const doc = readFileSync('docs/live-data.md', 'utf8');
    const expected = [
      '| rule | a changed triple | drops |',
      '|---|---|---|',
      ...Object.entries(CHANGE_RULES).map(([rule, { change, drops }]) => `| \`${rule}\` | ${change} | ${drops} |`),
    ].join('\n');
    expect(doc, `docs/live-data.md should hold this table:\n${expected}`).toContain(expected);
  });
});
