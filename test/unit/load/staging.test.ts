import { describe, expect, test } from 'vitest';
import { isJenaGraphMoveRefusal } from '../../../src/load/http.js';
import { DEFAULT_GRAPH } from '../../../src/load/source.js';
import {
  clearUpdate,
  commitUpdate,
  dropUpdate,
  graphName,
  isVirtuosoLogLimit,
  patternMoveUpdate,
  preflightUpdate,
  STAGING_PREFIX,
  type StagedGraph,
  stagingGraphIri,
  stagingOwner,
  virtuosoRowByRow,
} from '../../../src/load/staging.js';

const g = (target: string, staging: string, triples = 10): StagedGraph => ({ target, staging, triples });

describe('staging graphs and the updates that move them', () => {
  test('a fresh staging IRI each time, naming its host, its process and its target', () => {
    const owner = { host: 'loader-1.example', pid: 4242 };
    const [a, b] = [stagingGraphIri('http://t/1', owner), stagingGraphIri('http://t/1', owner)];
    expect(a).toMatch(
      /^urn:sparql-jsonapi:staging:loader-1\.example:4242:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}:http%3A%2F%2Ft%2F1$/,
    );
    expect(a.startsWith(STAGING_PREFIX)).toBe(true);
    expect(a).not.toBe(b);
  });

  test('the owner read back from the IRI: any target, the default graph, odd host names; none from other IRIs', () => {
    for (const target of ['http://t/1', 'urn:x:a:b', 'http://t/é?q=1#f', DEFAULT_GRAPH])
      for (const host of ['h', 'host:with:colons', 'ünï'])
        expect(stagingOwner(stagingGraphIri(target, { host, pid: 7 }))).toEqual({ target, host, pid: 7 });
    expect(stagingOwner('urn:sparql-jsonapi:staging:0b6f1c52-3d0e-4c8e-9a59-8a4b2d5c1e3f')).toBeUndefined();
    expect(stagingOwner('http://example.org/g')).toBeUndefined();
    expect(stagingOwner(`${STAGING_PREFIX}h:1:not-a-uuid:x`)).toBeUndefined();
  });

  test('preflight: ADD SILENT from the empty staging graphs, the default graph as DEFAULT', () => {
    expect(preflightUpdate([g('http://t/1', 'urn:s:1'), g(DEFAULT_GRAPH, 'urn:s:0')])).toBe(
      'ADD SILENT <urn:s:1> TO <http://t/1> ;\nADD SILENT <urn:s:0> TO DEFAULT',
    );
  });

  test('commit: ADD to append, COPY to replace; an empty target is dropped when replacing, skipped when appending', () => {
    const graphs = [g('http://t/1', 'urn:s:1'), g(DEFAULT_GRAPH, 'urn:s:0'), g('http://t/2', 'urn:s:2', 0)];
    expect(commitUpdate(graphs, 'append')).toBe('ADD <urn:s:1> TO <http://t/1> ;\nADD <urn:s:0> TO DEFAULT');
    expect(commitUpdate(graphs, 'replace')).toBe(
      'COPY <urn:s:1> TO <http://t/1> ;\nCOPY <urn:s:0> TO DEFAULT ;\nDROP SILENT GRAPH <http://t/2>',
    );
    expect(commitUpdate([g(DEFAULT_GRAPH, 'urn:s:0', 0)], 'replace')).toBe('DROP SILENT DEFAULT');
  });

  test('the same move by INSERT … WHERE, for Jena 4.5, which refuses ADD and COPY from a named graph', () => {
    const graphs = [g('http://t/1', 'urn:s:1'), g(DEFAULT_GRAPH, 'urn:s:0'), g('http://t/2', 'urn:s:2', 0)];
    expect(patternMoveUpdate(graphs, 'append')).toBe(
      'INSERT { GRAPH <http://t/1> { ?s ?p ?o } } WHERE { GRAPH <urn:s:1> { ?s ?p ?o } } ;\n' +
        'INSERT { ?s ?p ?o } WHERE { GRAPH <urn:s:0> { ?s ?p ?o } }',
    );
    expect(patternMoveUpdate(graphs, 'replace')).toBe(
      'DROP SILENT GRAPH <http://t/1> ;\nINSERT { GRAPH <http://t/1> { ?s ?p ?o } } WHERE { GRAPH <urn:s:1> { ?s ?p ?o } } ;\n' +
        'DROP SILENT DEFAULT ;\nINSERT { ?s ?p ?o } WHERE { GRAPH <urn:s:0> { ?s ?p ?o } } ;\nDROP SILENT GRAPH <http://t/2>',
    );
    expect(
      isJenaGraphMoveRefusal(
        'Error: org.apache.jena.update.UpdateException: Invalid source target for operation; IRI$ <urn:s:1>',
      ),
    ).toBe(true);
    expect(isJenaGraphMoveRefusal('Virtuoso 40001 Error SR172: deadlock')).toBe(false);
  });

  test('clear (--replace --no-staging): every target dropped first', () => {
    expect(clearUpdate([g('http://t/1', 'http://t/1'), g(DEFAULT_GRAPH, DEFAULT_GRAPH)])).toBe(
      'DROP SILENT GRAPH <http://t/1> ;\nDROP SILENT DEFAULT',
    );
  });

  test('drop: every staging graph, SILENT', () => {
    expect(dropUpdate([g('http://t/1', 'urn:s:1'), g(DEFAULT_GRAPH, 'urn:s:0')])).toBe(
      'DROP SILENT GRAPH <urn:s:1> ;\nDROP SILENT GRAPH <urn:s:0>',
    );
  });

  test("Virtuoso's row-by-row pragma, only after its SR325; graph names for messages", () => {
    expect(virtuosoRowByRow('ADD <a> TO <b>')).toBe('DEFINE sql:log-enable 3\nADD <a> TO <b>');
    expect(isVirtuosoLogLimit("Virtuoso 40005 Error SR325: Transaction aborted because it's log")).toBe(true);
    expect(isVirtuosoLogLimit('Virtuoso 40001 Error SR172: deadlock')).toBe(false);
    expect([graphName('http://t/1'), graphName(DEFAULT_GRAPH)]).toEqual(['<http://t/1>', 'the default graph']);
  });
});
