import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHttpStore } from '../../src/store/http-store.js';
import { createOxigraphStore } from '../../src/store/oxigraph-store.js';
import { type Store, StoreError } from '../../src/store/store.js';
import { SLOW_QUERY, storeContract } from '../support/store-contract.js';
import { closedPort, type FakeEndpoint, ONE_ROW, startFakeEndpoint } from '../support/store-fake-endpoint.js';
import { endpointOrSkip, startTestEndpoint } from '../support/virtuoso.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/store-contract.ttl', import.meta.url));
const TERMS_QUERY = 'SELECT ?p WHERE { <http://example.org/terms> ?p ?o }';

async function storeError(promise: Promise<unknown>): Promise<StoreError> {
  const error = await promise.then(
    () => expect.unreachable('expected a rejection'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StoreError);
  return error as StoreError;
}

// ---------------------------------------------------------------- embedded Oxigraph
storeContract('oxigraph', async () => ({
  store: await createOxigraphStore({ files: [FIXTURE], workers: 2 }),
  lexical: { boolean: 'true' },
}));

describe('oxigraph store', () => {
  let store: Store;
  beforeAll(async () => {
    store = await createOxigraphStore({ files: [FIXTURE], workers: 2 });
  });
  afterAll(() => store?.close());

  it('describes itself with files, triples and workers', () => {
    expect(store.description).toBe('oxigraph (1 files, 18 triples, 2 workers)');
  });

  it('answers a quick query while a slow one occupies the other worker', async () => {
    const order: string[] = [];
    const slow = store.select(SLOW_QUERY).then(() => order.push('slow'));
    const quick = store.select(TERMS_QUERY).then(() => order.push('quick'));
    await Promise.all([slow, quick]);
    expect(order).toEqual(['quick', 'slow']);
  });

  it('rejects a file that does not parse, naming the file and the parser message', async () => {
    const bad = fileURLToPath(new URL('../fixtures/store-contract-invalid.ttl', import.meta.url));
    await expect(createOxigraphStore({ files: [FIXTURE, bad], workers: 1 })).rejects.toThrow(
      `${bad}: Parser error at line 3`,
    );
  });
});

// ---------------------------------------------------------------- SPARQL over HTTP (real Virtuoso)
const endpoint = endpointOrSkip(await startTestEndpoint(), 'Store contract: http (Virtuoso)');
if (endpoint) {
  // File-level hooks: the data is there before the suites' own beforeAll, and Virtuoso stops even when tests fail.
  beforeAll(() => endpoint.load([FIXTURE]));
  afterAll(() => endpoint.stop());
  const { endpointUrl, graph } = endpoint;
  const virtuoso = endpoint.name === 'virtuoso';

  storeContract(`http (${endpoint.name})`, async () => ({
    store: createHttpStore({ endpointUrl, graph }),
    // Virtuoso keeps xsd:boolean as an integer: `true` in the Turtle comes back as
    // {"type":"typed-literal","datatype":"http://www.w3.org/2001/XMLSchema#boolean","value":"1"}
    // ("1" is a valid xsd:boolean lexical form, but consumers must not compare it with "true").
    lexical: { boolean: virtuoso ? '1' : 'true' },
  }));

  describe(`http store against ${endpoint.name}`, () => {
    it('sees only the named graph it is given', async () => {
      expect(await createHttpStore({ endpointUrl, graph }).select(TERMS_QUERY)).toHaveLength(8);
      expect(await createHttpStore({ endpointUrl, graph: `${graph}-other` }).select(TERMS_QUERY)).toEqual([]);
    });

    it("rejects a query slower than timeoutMs with kind 'timeout'", async () => {
      const error = await storeError(createHttpStore({ endpointUrl, graph, timeoutMs: 50 }).select(SLOW_QUERY));
      expect(error.kind).toBe('timeout');
    });

    it.runIf(virtuoso)("rejects a result Virtuoso cut at its row cap with kind 'truncated'", async () => {
      // `maxrows` lowers ResultSetMaxRows for one request; the cut and its X-SPARQL-MaxRows header are the same.
      const capped = createHttpStore({ endpointUrl: `${endpointUrl}?maxrows=5`, graph });
      const error = await storeError(capped.select('SELECT * WHERE { ?s ?p ?o }'));
      expect(error.kind).toBe('truncated');
      expect(error.message).toContain('5 rows');
      expect(await capped.select('SELECT * WHERE { ?s ?p ?o } LIMIT 4')).toHaveLength(4);
    });
  });
}

// ---------------------------------------------------------------- HTTP failures no real store shows on cue
describe('http store failure handling', () => {
  let fake: FakeEndpoint | undefined;
  afterEach(() => fake?.close());

  it("rejects with kind 'unavailable' when nothing listens", async () => {
    const store = createHttpStore({ endpointUrl: `http://127.0.0.1:${await closedPort()}/sparql` });
    expect((await storeError(store.select(TERMS_QUERY))).kind).toBe('unavailable');
    expect((await storeError(store.ping())).kind).toBe('unavailable');
  });

  it('retries once when a reused keep-alive socket turns out closed', async () => {
    fake = await startFakeEndpoint((n, _req, res) => (n === 2 ? 'drop' : void res.end(ONE_ROW)));
    const store = createHttpStore({ endpointUrl: fake.endpointUrl });
    expect(await store.select(TERMS_QUERY)).toHaveLength(1);
    expect(await store.select(TERMS_QUERY)).toHaveLength(1);
    expect(fake.requests).toBe(3);
  });

  it("gives up after one retry with kind 'unavailable'", async () => {
    fake = await startFakeEndpoint(() => 'drop');
    expect((await storeError(createHttpStore({ endpointUrl: fake.endpointUrl }).select(TERMS_QUERY))).kind).toBe(
      'unavailable',
    );
    expect(fake.requests).toBe(2);
  });

  it("never retries an HTTP error, which is kind 'query' with the store's message", async () => {
    fake = await startFakeEndpoint(
      (_n, _req, res) => void res.writeHead(500).end('Virtuoso 42000 Error: out of memory'),
    );
    const error = await storeError(createHttpStore({ endpointUrl: fake.endpointUrl }).select(TERMS_QUERY));
    expect(error.kind).toBe('query');
    expect(error.message).toContain('HTTP 500: Virtuoso 42000 Error: out of memory');
    expect(fake.requests).toBe(1);
  });

  it('sends Accept, Basic auth and default-graph-uri; GET for short queries, a POST form for long ones', async () => {
    const seen: string[] = [];
    fake = await startFakeEndpoint((_n, req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const params = new URLSearchParams(req.method === 'GET' ? req.url!.split('?')[1] : body);
        seen.push(
          `${req.method} ${req.headers.accept} ${req.headers.authorization} ${params.get('default-graph-uri')} ${params.get('query')?.length}`,
        );
        res.end(ONE_ROW);
      });
    });
    const store = createHttpStore({ endpointUrl: fake.endpointUrl, graph: 'urn:g', user: 'u', password: 'p' });
    await store.select(TERMS_QUERY);
    await store.select(`${TERMS_QUERY} #${'x'.repeat(1500)}`);
    const auth = `Basic ${btoa('u:p')}`;
    expect(seen).toEqual([
      `GET application/sparql-results+json ${auth} urn:g ${TERMS_QUERY.length}`,
      `POST application/sparql-results+json ${auth} urn:g ${TERMS_QUERY.length + 1502}`,
    ]);
  });
});
