import type { Term } from '@rdfjs/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Row, type Store, StoreError } from '../../src/store/store.js';

const EX = 'http://example.org/';
const XSD = 'http://www.w3.org/2001/XMLSchema#';
const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
const PREFIXES = `PREFIX ex: <${EX}>\n`;

/** A query that keeps one worker / the endpoint busy for about a second on the fixture (18 triples → 18⁵ rows). */
export const SLOW_QUERY = `SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l . ?m ?n2 ?o FILTER(STR(?c) != STR(?o)) }`;

/** Lexical forms a store may legitimately choose differently; each override is a finding, named where it is set. */
export interface LexicalForms {
  boolean: string;
}

export interface ContractSubject {
  store: Store;
  lexical: LexicalForms;
}

/** A term as the assertions compare it: datatype by its IRI. */
interface TermShape {
  termType: Term['termType'];
  value: string;
  datatype?: string;
  language?: string;
}

/** Expected shape of each object of `ex:terms` in test/fixtures/store-contract.ttl, by predicate local name. */
function expectedTerms(lexical: LexicalForms): Record<string, TermShape> {
  return {
    date: { termType: 'Literal', value: '2016-01-01Z', datatype: `${XSD}date`, language: '' },
    integer: { termType: 'Literal', value: '42', datatype: `${XSD}integer`, language: '' },
    decimal: { termType: 'Literal', value: '3.14', datatype: `${XSD}decimal`, language: '' },
    boolean: { termType: 'Literal', value: lexical.boolean, datatype: `${XSD}boolean`, language: '' },
    langString: { termType: 'Literal', value: 'Grüße', datatype: `${RDF}langString`, language: 'de' },
    plainString: { termType: 'Literal', value: 'plain "quoted" text', datatype: `${XSD}string`, language: '' },
    iri: { termType: 'NamedNode', value: `${EX}target` },
  };
}

function shape(term: Term | undefined): TermShape | undefined {
  if (term === undefined) return undefined;
  if (term.termType !== 'Literal') return { termType: term.termType, value: term.value };
  return { termType: term.termType, value: term.value, datatype: term.datatype.value, language: term.language };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable('expected a rejection'),
    (error: unknown) => error,
  );
}

/**
 * The contract every {@link Store} adapter passes over the fixture data. `start` runs in
 * beforeAll and returns the store (already holding the fixture) and any lexical forms in which
 * this store differs; the suite closes the store in afterAll.
 */
export function storeContract(name: string, start: () => Promise<ContractSubject>): void {
  describe(`Store contract: ${name}`, () => {
    let subject: ContractSubject;
    const select = (query: string, signal?: AbortSignal): Promise<Row[]> =>
      subject.store.select(PREFIXES + query, signal ? { signal } : {});

    beforeAll(async () => {
      subject = await start();
    });
    afterAll(async () => {
      await subject?.store.close();
    });

    it('returns every term kind with its termType, value, datatype and language', async () => {
      const rows = await select('SELECT ?p ?o WHERE { ex:terms ?p ?o }');
      const byPredicate = Object.fromEntries(rows.map((row) => [row.p!.value.slice(EX.length), row.o]));
      for (const [predicate, expected] of Object.entries(expectedTerms(subject.lexical))) {
        expect(shape(byPredicate[predicate]), predicate).toEqual(expected);
      }
      expect(byPredicate.blank?.termType).toBe('BlankNode');
      expect(byPredicate.blank?.value).not.toBe('');
    });

    it('joins through a blank node within one result', async () => {
      const rows = await select('SELECT ?b ?text WHERE { ex:terms ex:blank ?b . ?b ex:plainString ?text }');
      expect(rows).toHaveLength(1);
      expect(rows[0]!.b!.termType).toBe('BlankNode');
      expect(rows[0]!.text!.value).toBe('inside a blank node');
    });

    it('keeps ORDER BY order and leaves unbound variables out of the row', async () => {
      const rows = await select(
        'SELECT ?item ?note WHERE { ?item ex:rank ?rank OPTIONAL { ?item ex:note ?note } } ORDER BY DESC(?rank)',
      );
      expect(rows.map((row) => row.item!.value.slice(EX.length))).toEqual([
        'item4',
        'item5',
        'item1',
        'item3',
        'item2',
      ]);
      expect(rows.map((row) => row.note?.value)).toEqual(['fifth', 'fourth', 'third', undefined, 'first']);
      expect(Object.keys(rows[3]!)).toEqual(['item']);
    });

    it('answers a long query (sent by POST over HTTP) like a short one', async () => {
      const values = Array.from({ length: 200 }, (_, i) => `ex:item${i + 1}`).join(' ');
      const query = `SELECT ?item WHERE { VALUES ?item { ${values} } ?item ex:rank ?rank } ORDER BY ?rank`;
      expect(query.length).toBeGreaterThan(1500);
      const rows = await select(query);
      expect(rows.map((row) => row.item!.value.slice(EX.length))).toEqual([
        'item2',
        'item3',
        'item1',
        'item5',
        'item4',
      ]);
    });

    it("rejects a syntax error with StoreError kind 'query'", async () => {
      const error = await rejection(select('SELECT * WHERE { ?s ?p }'));
      expect(error).toBeInstanceOf(StoreError);
      expect((error as StoreError).kind).toBe('query');
    });

    it('rejects with the reason of an already aborted signal', async () => {
      const reason = new Error('caller went away');
      expect(await rejection(select('SELECT * WHERE { ?s ?p ?o }', AbortSignal.abort(reason)))).toBe(reason);
    });

    it('rejects a query in flight when its signal aborts, and keeps answering afterwards', async () => {
      const controller = new AbortController();
      const pending = rejection(select(SLOW_QUERY, controller.signal));
      setTimeout(() => controller.abort(new Error('stop')), 50);
      expect(((await pending) as Error).message).toBe('stop');
      expect(await select('SELECT ?rank WHERE { ex:item1 ex:rank ?rank }')).toHaveLength(1);
    });

    it('pings', async () => {
      await expect(subject.store.ping()).resolves.toBeUndefined();
    });
  });
}
