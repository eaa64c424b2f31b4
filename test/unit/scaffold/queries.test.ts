import { Parser } from 'sparqljs';
import { describe, expect, it } from 'vitest';
import { ID_PATTERNS } from '../../../src/mapping/ids.js';
import {
  classesQuery,
  incomingQuery,
  iriRef,
  literalsQuery,
  membersQuery,
  objectClassesQuery,
  outlierQuery,
  predicatesQuery,
  shapesQuery,
  untypedObjectsQuery,
  valuesQuery,
} from '../../../src/scaffold/queries.js';

const C = 'http://x.org/C';
const SAMPLE = ['http://x.org/c/1', 'http://x.org/c/2'];
const [P, Q] = ['http://x.org/p', 'http://x.org/q'];

describe('scaffold queries', () => {
  it.each([
    ['classes', classesQuery(10)],
    ['members', membersQuery(C, 5)],
    ['predicates', predicatesQuery(SAMPLE, 100)],
    ['literals', literalsQuery(SAMPLE, 100)],
    ['predicates of blank nodes', predicatesQuery({ sample: SAMPLE, path: [P, Q] }, 100)],
    ['literals of blank nodes', literalsQuery({ sample: SAMPLE, path: [P] }, 100)],
    ['object classes', objectClassesQuery(SAMPLE, 100)],
    ['untyped objects', untypedObjectsQuery(SAMPLE, 100)],
    ['incoming', incomingQuery(SAMPLE, 100)],
    ['values', valuesQuery(SAMPLE, 'http://x.org/p')],
    ['outlier (template)', outlierQuery(C, 'http://x.org/c/', { hex: true })],
    ['outlier (base)', outlierQuery(C, 'http://x.org/été/', { hex: false })],
    ['shapes', shapesQuery(100)],
  ])('%s: one SPARQL 1.1 SELECT with a LIMIT', (_, text) => {
    const parsed = new Parser().parse(text) as { queryType: string; limit?: number };
    expect(parsed.queryType).toBe('SELECT');
    expect(parsed.limit).toBeGreaterThan(0);
  });

  it('refuses an IRI that could close the <…> or "…" it is written in', () => {
    for (const bad of ['http://x/a> } DROP ALL #', 'http://x/"', 'not an iri', 'http://x/a\u2028'])
      expect(() => iriRef(bad)).toThrow(/not an IRI a query may hold/);
    expect(() => outlierQuery(C, 'http://x/" || true || "', { hex: false })).toThrow();
    expect(() => membersQuery('http://x/C>', 5)).toThrow();
    expect(() => predicatesQuery(['http://x/c/1', 'http://x/c/2> } DROP ALL #'], 5)).toThrow();
  });

  it('samples the members in the order of their text, and starts each per-class query from them', () => {
    expect(membersQuery(C, 5)).toMatch(/ORDER BY STR\(\?s\) LIMIT 5$/);
    for (const text of [predicatesQuery(SAMPLE, 9), objectClassesQuery(SAMPLE, 9), untypedObjectsQuery(SAMPLE, 9)])
      expect(text).toContain('VALUES ?s { <http://x.org/c/1> <http://x.org/c/2> }');
    expect(incomingQuery(SAMPLE, 9)).toContain('VALUES ?o { <http://x.org/c/1> <http://x.org/c/2> }');
    expect(objectClassesQuery(SAMPLE, 9)).not.toContain('OPTIONAL');
  });

  it('describes the blank nodes a path reaches from the sample in one basic graph pattern, rdf:type among their predicates', () => {
    const text = predicatesQuery({ sample: SAMPLE, path: [P, Q] }, 9);
    expect(text).toContain(
      'VALUES ?s0 { <http://x.org/c/1> <http://x.org/c/2> } ?s0 <http://x.org/p> ?s1 . ?s1 <http://x.org/q> ?s . ?s ?p ?o FILTER(isBlank(?s1) && isBlank(?s))',
    );
    expect(predicatesQuery(SAMPLE, 9)).toContain('FILTER(?p != <http://www.w3.org/1999/02/22-rdf-syntax-ns#type>)');
    expect(text).not.toContain('22-rdf-syntax-ns#type');
    expect(literalsQuery({ sample: SAMPLE, path: [P] }, 9)).toContain('FILTER(isBlank(?s) && isLiteral(?o))');
  });

  it("the template check is mapping/ids.ts's template id pattern, as SPARQL parses it", () => {
    const parsed = JSON.stringify(new Parser().parse(outlierQuery(C, 'http://x.org/c/', { hex: true })));
    expect(parsed).toContain(`"value":${JSON.stringify(ID_PATTERNS.template.source)}`);
  });

  it('the template check counts code points, as SPARQL SUBSTR does', () => {
    expect(outlierQuery(C, 'http://x.org/\u{1D538}/', { hex: true })).toContain('SUBSTR(STR(?s), 16)');
  });
});
