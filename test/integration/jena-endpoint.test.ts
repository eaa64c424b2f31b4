/**
 * The harness's Jena endpoint itself (test/support/jena/): what the other suites stand on. It
 * speaks the SPARQL 1.1 Protocol in the forms the server and the loader send, and with
 * `--collation` it is an engine that deviates, ordering text by a locale's collation, for the
 * server's engine check. The expected orders are computed here: by code point, and by
 * `Intl.Collator` for the locale.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpStore } from '../../src/store/http-store.js';
import { type JenaEndpoint, jenaMissing, startJenaEndpoint } from '../support/jena.js';

/** Text whose orders differ: case, accents, and a character past U+FFFF against one below it. */
const WORDS = ['b', 'B', 'a', 'é', 'z', 'e', 'Z', '\uFF21', '\u{1F600}'];
const ORDER_QUERY = `SELECT ?w WHERE { VALUES ?w { ${WORDS.map((w) => JSON.stringify(w)).join(' ')} } } ORDER BY ?w`;

const byCodePoint = (a: string, b: string) => {
  const [x, y] = [[...a].map((c) => c.codePointAt(0)!), [...b].map((c) => c.codePointAt(0)!)];
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
};
/** Java's String.compareTo: by UTF-16 code unit, as Jena 4.5 compares strings. */
const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const missing = jenaMissing();
describe.skipIf(missing !== undefined && process.env.CI !== 'true')('[jena] the harness endpoint', () => {
  let plain: JenaEndpoint;
  let collated: JenaEndpoint;
  beforeAll(async () => {
    const started = await Promise.all([startJenaEndpoint(), startJenaEndpoint({ collation: 'en' })]);
    for (const s of started) if ('skip' in s) throw new Error(s.skip);
    [plain, collated] = started as [JenaEndpoint, JenaEndpoint];
  });
  afterAll(async () => {
    await plain?.stop();
    await collated?.stop();
  });

  const select = async (endpoint: JenaEndpoint, query: string) => {
    const store = createHttpStore({ endpointUrl: endpoint.endpointUrl });
    try {
      return (await store.select(query)).map((row) => row.w?.value);
    } finally {
      await store.close();
    }
  };

  it('orders text as Jena does: by UTF-16 code unit, which puts U+1F600 before U+FF21 (code point order: after)', async () => {
    const expected = [...WORDS].sort(byCodeUnit);
    expect(expected).not.toEqual([...WORDS].sort(byCodePoint));
    expect(await select(plain, ORDER_QUERY)).toEqual(expected);
  });

  it("--collation en orders text by the locale's collation instead, and numbers as before", async () => {
    const collator = new Intl.Collator('en');
    const latin = WORDS.filter((w) => /^[a-zé]$/i.test(w));
    const rows = await select(collated, ORDER_QUERY);
    expect(rows.filter((w) => latin.includes(w!))).toEqual([...latin].sort(collator.compare));
    expect(rows).not.toEqual([...WORDS].sort(byCodePoint));
    const numbers = 'SELECT ?w WHERE { VALUES ?w { 10 9 -1 2.5 } } ORDER BY ?w';
    expect(await select(collated, numbers)).toEqual(['-1', '2.5', '9', '10']);
  });

  it('takes a file into a named graph by the Graph Store Protocol and answers with default-graph-uri', async () => {
    const graph = 'http://example.org/sparql-jsonapi-test/jena-endpoint';
    const stored = await fetch(`${plain.graphStoreUrl}?graph=${encodeURIComponent(graph)}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/n-triples' },
      body: '<urn:s> <urn:p> "in the graph" .\n',
    });
    expect(stored.status).toBe(200);
    const store = createHttpStore({ endpointUrl: plain.endpointUrl, graph });
    try {
      expect((await store.select('SELECT ?o WHERE { ?s ?p ?o }')).map((r) => r.o?.value)).toEqual(['in the graph']);
    } finally {
      await store.close();
    }
    expect(await select(plain, 'SELECT ?w WHERE { ?s ?p ?w }')).toEqual([]);
  });

  it('answers a query it cannot parse with 400 and the parser message', async () => {
    const response = await fetch(`${plain.endpointUrl}?query=${encodeURIComponent('SELEC ?x')}`);
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/^Bad request: .*line 1/);
  });
});
