import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { Term } from '@rdfjs/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LaneLimits } from '../../src/store/lane-gate.js';
import { type Row, type SelectOptions, type Store, StoreError } from '../../src/store/store.js';

const EX = 'http://example.org/';
const XSD = 'http://www.w3.org/2001/XMLSchema#';
const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
const PREFIXES = `PREFIX ex: <${EX}>\n`;

/**
 * The data of the ORDER BY that Oxigraph panics on: decimals beyond its decimal range (it keeps
 * 18 fractional digits in an i128, so about ±1.7e20) mixed with doubles in one sorted column. Its
 * sort then finds no total order: "user-provided comparison function does not correctly implement
 * a total order". Twelve of each, since Rust's sort checks the order only on inputs past about 20.
 * Loaded beside test/fixtures/store-contract.ttl (18 triples), under a predicate of its own.
 */
export const ORDER_PANIC_TURTLE = `@prefix ex: <${EX}> .
@prefix xsd: <${XSD}> .
${Array.from({ length: 12 }, (_, i) => `ex:big${i + 1} ex:amount "${i + 1}00000000000000000000000000000000"^^xsd:decimal .`).join('\n')}
${Array.from({ length: 12 }, (_, i) => `ex:double${i + 1} ex:amount "${i + 1}.5e32"^^xsd:double .`).join('\n')}
`;
/** Every amount of {@link ORDER_PANIC_TURTLE}, sorted. */
export const MIXED_ORDER_QUERY = 'SELECT ?s ?amount WHERE { ?s ex:amount ?amount } ORDER BY ?amount';

/** Writes {@link ORDER_PANIC_TURTLE} to a temporary file; `remove` deletes it. */
export async function writeOrderPanicFixture(): Promise<{ file: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'store-contract-'));
  const file = join(dir, 'order-panic.ttl');
  await writeFile(file, ORDER_PANIC_TURTLE);
  return { file, remove: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * A query that keeps a worker busy for about half a second on the contract data (the two
 * fixtures: 42 triples, so 42³ rows, each compared as strings); Virtuoso answers it in ~0.1 s.
 */
export const SLOW_QUERY = `SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i FILTER(STR(?c) != STR(?i)) }`;
/** A query that would run for hours on the contract data (42⁶ rows): only ever aborted. */
export const ENDLESS_QUERY = `SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l . ?m ?n2 ?o . ?p ?q ?r FILTER(STR(?c) != STR(?r)) }`;
const QUICK_QUERY = 'SELECT ?rank WHERE { ex:item1 ex:rank ?rank }';

/** Lexical forms a store may legitimately choose differently; each override is a finding, named where it is set. */
export interface LexicalForms {
  boolean: string;
}

/** Lane limits and timeout for a store opened by a test of its own. */
export interface StoreSettings {
  queries?: Partial<LaneLimits>;
  timeoutMs?: number;
}

export interface ContractSubject {
  /** A store with its default settings. */
  store: Store;
  lexical: LexicalForms;
  /** Opens another store of the same kind on the same data (the test closes it). */
  open(settings: StoreSettings): Promise<Store>;
  /**
   * Whether the store fails {@link MIXED_ORDER_QUERY} (Oxigraph panics) rather than sorting it; a
   * finding, named where it is set.
   */
  failsMixedOrder: boolean;
  /** CPU time (ms) the store's query work has used so far, where the suite can see it; else undefined. */
  cpuMs?: () => number;
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

async function storeError(promise: Promise<unknown>): Promise<StoreError> {
  const error = await rejection(promise);
  expect(error).toBeInstanceOf(StoreError);
  return error as StoreError;
}

/** A promise and whether it has settled yet. */
function tracked<T>(promise: Promise<T>): { promise: Promise<T>; readonly settled: boolean } {
  let settled = false;
  const settle = () => {
    settled = true;
  };
  promise.then(settle, settle);
  return {
    promise,
    get settled() {
      return settled;
    },
  };
}

/**
 * The contract every {@link Store} adapter passes over the fixture data (test/fixtures/store-contract.ttl
 * and {@link ORDER_PANIC_TURTLE}). `start` runs in beforeAll and returns the store (already
 * holding the data), a way to open more with other limits, and the findings in which this store
 * differs; the suite closes the store in afterAll.
 */
export function storeContract(name: string, start: () => Promise<ContractSubject>): void {
  describe(`Store contract: ${name}`, () => {
    let subject: ContractSubject;
    const select = (query: string, signal?: AbortSignal): Promise<Row[]> =>
      subject.store.select(PREFIXES + query, signal ? { signal } : {});
    /** A store with its own settings for one test, closed at its end. */
    const withStore = async (settings: StoreSettings, test: (store: Store) => Promise<void>) => {
      const store = await subject.open(settings);
      try {
        await test(store);
      } finally {
        await store.close();
      }
    };
    const on = (store: Store, query: string, options: SelectOptions = {}) => store.select(PREFIXES + query, options);

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
      expect((await storeError(select('SELECT * WHERE { ?s ?p }'))).kind).toBe('query');
    });

    it('rejects with the reason of an already aborted signal', async () => {
      const reason = new Error('caller went away');
      expect(await rejection(select('SELECT * WHERE { ?s ?p ?o }', AbortSignal.abort(reason)))).toBe(reason);
    });

    it("rejects a query in flight with its signal's reason, stops its work, and keeps answering on the lane", async () => {
      await withStore({ queries: { light: 1, heavy: 1 } }, async (store) => {
        const cpuMs = subject.cpuMs;
        // A store shared with earlier suites may still be finishing their work: start from quiet.
        if (cpuMs) expect(await quietWithin(cpuMs, 15_000), 'the store is idle before the test').toBe(true);
        const controller = new AbortController();
        const reason = new Error('stop');
        const pending = rejection(on(store, ENDLESS_QUERY, { signal: controller.signal }));
        await delay(300); // running by now: the store was idle
        if (cpuMs) {
          // The query keeps a core busy (~1000 ms a second): the measure can tell.
          const before = cpuMs();
          await delay(500);
          expect(cpuMs() - before, 'the endless query is running').toBeGreaterThan(200);
        }
        controller.abort(reason);
        expect(await pending).toBe(reason);
        // Stopped, the store falls quiet: within 5 s (the first second may start a replacement).
        if (cpuMs) expect(await quietWithin(cpuMs, 5_000), 'the store stops working on the query').toBe(true);
        expect(await on(store, QUICK_QUERY, { lane: 'heavy' })).toHaveLength(1);
      });
    });

    it('answers a light query while the heavy lane is busy and its queue is full', async () => {
      await withStore({ queries: { light: 1, heavy: 1, queue: 1 } }, async (store) => {
        const controller = new AbortController();
        const signal = controller.signal;
        const running = tracked(rejection(on(store, ENDLESS_QUERY, { signal })));
        const waiting = tracked(rejection(on(store, ENDLESS_QUERY, { signal })));
        expect((await storeError(on(store, QUICK_QUERY))).kind).toBe('overloaded');
        expect(await on(store, QUICK_QUERY, { lane: 'light' })).toHaveLength(1);
        await expect(store.ping({ lane: 'light', signal: AbortSignal.timeout(5000) })).resolves.toBeUndefined();
        expect([running.settled, waiting.settled]).toEqual([false, false]);
        controller.abort(new Error('done'));
        expect(((await running.promise) as Error).message).toBe('done');
        expect(((await waiting.promise) as Error).message).toBe('done');
      });
    });

    it("answers 'overloaded' at once when a lane's queue is full, while the queries before it go on", async () => {
      await withStore({ queries: { light: 1, heavy: 1, queue: 2 } }, async (store) => {
        const controller = new AbortController();
        const signal = controller.signal;
        const first = tracked(on(store, ENDLESS_QUERY, { signal }));
        const queued = [tracked(on(store, QUICK_QUERY)), tracked(on(store, QUICK_QUERY))];
        const refused = await storeError(on(store, QUICK_QUERY));
        expect(refused.kind).toBe('overloaded');
        expect(refused.message).toContain('heavy');
        expect([first, ...queued].map((query) => query.settled)).toEqual([false, false, false]);
        // Aborting the running query frees its slot: the queued ones run, in turn, and answer.
        controller.abort(new Error('make room'));
        expect(await rejection(first.promise)).toEqual(new Error('make room'));
        for (const query of queued) expect(await query.promise).toHaveLength(1);
      });
    });

    it('takes a waiting query out of the queue when its signal aborts', async () => {
      await withStore({ queries: { light: 1, heavy: 1, queue: 1 } }, async (store) => {
        const running = new AbortController();
        const first = rejection(on(store, ENDLESS_QUERY, { signal: running.signal }));
        const waiting = new AbortController();
        const second = rejection(on(store, QUICK_QUERY, { signal: waiting.signal }));
        waiting.abort(new Error('gave up'));
        expect(await second).toEqual(new Error('gave up'));
        // Its place in the queue is free again.
        const third = tracked(on(store, QUICK_QUERY));
        running.abort(new Error('stop'));
        expect(await first).toEqual(new Error('stop'));
        expect(await third.promise).toHaveLength(1);
      });
    });

    it("rejects a query slower than timeoutMs with kind 'timeout', then answers again", async () => {
      await withStore({ timeoutMs: 300, queries: { light: 1, heavy: 1 } }, async (store) => {
        const error = await storeError(on(store, ENDLESS_QUERY));
        expect(error.kind).toBe('timeout');
        expect(error.message).toContain('300 ms');
        expect(await on(store, QUICK_QUERY)).toHaveLength(1);
      });
    });

    it("sorts a column mixing out-of-range decimals and doubles, or fails it as kind 'query', and answers after", async () => {
      await withStore({ queries: { light: 1, heavy: 1 } }, async (store) => {
        for (let round = 0; round < 2; round++) {
          if (subject.failsMixedOrder) {
            const error = await storeError(on(store, MIXED_ORDER_QUERY));
            expect(error.kind).toBe('query');
            expect(error.message).toContain('does not correctly implement a total order');
            expect(error.message).not.toMatch(/try again|unavailable|retry/i);
          } else {
            expect(await on(store, MIXED_ORDER_QUERY)).toHaveLength(24);
          }
          expect(await on(store, QUICK_QUERY)).toHaveLength(1);
          expect(await on(store, QUICK_QUERY, { lane: 'light' })).toHaveLength(1);
        }
      });
    });

    it('pings, on either lane', async () => {
      await expect(subject.store.ping()).resolves.toBeUndefined();
      await expect(subject.store.ping({ lane: 'heavy' })).resolves.toBeUndefined();
    });
  });
}

/** Whether, within `withinMs`, a second passes in which the process uses under 500 ms of CPU (half a core). */
async function quietWithin(cpuMs: () => number, withinMs: number): Promise<boolean> {
  for (const end = Date.now() + withinMs; Date.now() < end; ) {
    const before = cpuMs();
    await delay(1000);
    if (cpuMs() - before < 500) return true;
  }
  return false;
}
