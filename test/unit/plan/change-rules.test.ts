/**
 * The invalidation rules as a table: for each rule, a changed triple on the sample mapping and the
 * IRIs it marks; then, for requests planned from real URLs, whether a change under each rule
 * reaches what they read (`planReads`). The same rules are docs/live-data.md's table: the test
 * fails when the document and the code disagree, or when a rule has no case.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_DATASET_OPTIONS } from '../../../src/dataset.js';
import { loadMapping } from '../../../src/mapping/load-mapping.js';
import type { Mapping } from '../../../src/mapping/model.js';
import { CHANGE_RULES, type ChangeRule, changeRules } from '../../../src/plan/change-rules.js';
import type { DeltaTerm, DeltaTriple } from '../../../src/plan/delta-triple.js';
import type { Plan } from '../../../src/plan/plan.js';
import { listReads, planReads } from '../../../src/plan/plan-reads.js';
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
  { rule: 'mapped-predicate', triple: triple(ACTIVITY, `${ELOD}concerns`, CONCEPT, GRAPH), iris: [`${ELOD}concerns`] },
  { rule: 'unmapped-predicate', triple: triple(ACTIVITY, 'http://example.org/p', CONCEPT), iris: [] },
  {
    rule: 'blank-node',
    triple: triple({ type: 'bnode', value: 'b0' }, `${SKOS}prefLabel`, label),
    iris: [`${SKOS}prefLabel`],
  },
  {
    rule: 'other-graph',
    triple: triple(CONCEPT, `${SKOS}broader`, CONCEPT, 'http://example.org/other'),
    iris: [`${SKOS}broader`],
  },
  { rule: 'invalid-body', iris: [] },
];

let mapping: Mapping;
beforeAll(async () => {
  mapping = await loadMapping('mappings/sample.yaml');
});

/** The IRIs a GET of `url` reads, as the response cache keys it. */
function reads(url: string): string[] {
  const [path, query = ''] = url.split('?');
  const plan = planRequest(mapping, parsePath(path!), parseQuery(query, 'json-api'), DEFAULT_DATASET_OPTIONS, []);
  return planReads(mapping, plan);
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

describe('listReads: a whole list (the window cache) depends on its order, members and filters only', () => {
  const list = (url: string) => {
    const [path, query = ''] = url.split('?');
    const plan = planRequest(mapping, parsePath(path!), parseQuery(query, 'json-api'), DEFAULT_DATASET_OPTIONS, []);
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
    ['/concepts/01/narrower-concepts', `${SKOS}broader`, true],
    ['/trade-activities/7c1e0a42/concerns', `${ELOD}TradeActivity`, true],
  ])('%s reads %s: %s', (url, iri, expected) => {
    expect(list(url).includes(iri)).toBe(expected);
    // Whatever a list reads, the response showing it reads too.
    if (expected) expect(reads(url)).toContain(iri);
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
