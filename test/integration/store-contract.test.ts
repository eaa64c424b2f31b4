import { readFileSync } from 'node:fs';
import { copyFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHttpStore } from '../../src/store/http-store.js';
import { createOxigraphStore } from '../../src/store/oxigraph-store.js';
import { type Store, StoreError } from '../../src/store/store.js';
import { startJenaEndpoint } from '../support/jena.js';
import {
  ENDLESS_QUERY,
  MIXED_ORDER_QUERY,
  SLOW_QUERY,
  storeContract,
  writeOrderPanicFixture,
} from '../support/store-contract.js';
import { closedPort, type FakeEndpoint, ONE_ROW, startFakeEndpoint } from '../support/store-fake-endpoint.js';
import { endpointOrSkip, startTestEndpoint } from '../support/virtuoso.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/store-contract.ttl', import.meta.url));
const orderFixture = await writeOrderPanicFixture();
afterAll(() => orderFixture.remove());
const FILES = [FIXTURE, orderFixture.file];
const PREFIXES = 'PREFIX ex: <http://example.org/>\n';
const TERMS_QUERY = 'SELECT ?p WHERE { <http://example.org/terms> ?p ?o }';
const QUICK_QUERY = `${PREFIXES}SELECT ?rank WHERE { ex:item1 ex:rank ?rank }`;
/**
 * A heavy query of a few hundred ms over the contract data, per engine: on Virtuoso 42⁴ rows,
 * compared without STR; Jena walks each row (about 30 s for those), so 42³ there.
 */
const BURST_QUERY = {
  Virtuoso: 'SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l FILTER(?c != ?l) }',
  Jena: 'SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i FILTER(?c != ?i) }',
} as const;

async function storeError(promise: Promise<unknown>): Promise<StoreError> {
  const error = await promise.then(
    () => expect.unreachable('expected a rejection'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StoreError);
  return error as StoreError;
}

/** CPU time of this process, every thread (the embedded store's workers) included, in ms. */
function processCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Resolves once `check` holds, polling; rejects after `ms` (a bound that only catches hangs). */
async function eventually(check: () => boolean, ms = 20_000): Promise<void> {
  for (const deadline = Date.now() + ms; !check(); await delay(20)) {
    if (Date.now() > deadline) throw new Error(`still not the case after ${ms} ms`);
  }
}

/** A logger that keeps every line's message, for the tests that watch the pool's replacements. */
function recordingLogger(): { logger: pino.Logger; messages: string[] } {
  const messages: string[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void messages.push(JSON.parse(line).msg) });
  return { logger, messages };
}

// ---------------------------------------------------------------- embedded Oxigraph
storeContract('oxigraph', async () => ({
  store: await createOxigraphStore({ files: FILES }),
  lexical: { boolean: 'true' },
  open: (settings) => createOxigraphStore({ files: FILES, ...settings }),
  // Oxigraph 0.5 panics on this sort (see ORDER_PANIC_TURTLE); the store reports it as the query's failure.
  failsMixedOrder: true,
  cpuMs: processCpuMs,
}));

describe('oxigraph store', () => {
  let store: Store;
  beforeAll(async () => {
    store = await createOxigraphStore({ files: FILES, workers: 2 });
  });
  afterAll(() => store?.close());

  it('describes itself with files, triples and workers (light + heavy + a spare by default)', async () => {
    expect(store.description).toBe('oxigraph (2 files, 42 triples, 2 workers)');
    const byDefault = await createOxigraphStore({ files: [FIXTURE], queries: { heavy: 2 } });
    await byDefault.close();
    expect(byDefault.description).toBe('oxigraph (1 files, 18 triples, 4 workers)');
  });

  it('answers a light query while a slow heavy one occupies the other worker', async () => {
    const order: string[] = [];
    const slow = store.select(SLOW_QUERY, { lane: 'heavy' }).then(() => order.push('slow'));
    const quick = store.select(TERMS_QUERY, { lane: 'light' }).then(() => order.push('quick'));
    await Promise.all([slow, quick]);
    expect(order).toEqual(['quick', 'slow']);
  });

  it('rejects a file that does not parse, naming the file and the parser message', async () => {
    const bad = fileURLToPath(new URL('../fixtures/store-contract-invalid.ttl', import.meta.url));
    await expect(createOxigraphStore({ files: [FIXTURE, bad], workers: 1 })).rejects.toThrow(
      `${bad}: Parser error at line 3`,
    );
  });

  // Both other workers busy (the light one with an endless query): a query that answers before the
  // replacement has loaded can only have run on the spare, so the lane lost no capacity to the load.
  it.each([
    [
      'its query is aborted',
      async (s: Store) => {
        const controller = new AbortController();
        const running = s.select(ENDLESS_QUERY, { signal: controller.signal }).catch((error: unknown) => error);
        await delay(200);
        controller.abort(new Error('stop'));
        expect(await running).toEqual(new Error('stop'));
      },
    ],
    [
      'Oxigraph panics on its query',
      async (s: Store) => expect((await storeError(s.select(PREFIXES + MIXED_ORDER_QUERY))).kind).toBe('query'),
    ],
  ])(
    'goes on with the spare at once when a worker stops because %s, and replaces it in the background',
    async (_, stop) => {
      const { logger, messages } = recordingLogger();
      const spared = await createOxigraphStore({ files: FILES, logger, queries: { light: 1, heavy: 1 } });
      const busy = new AbortController();
      const light = spared.select(ENDLESS_QUERY, { lane: 'light', signal: busy.signal }).catch(() => undefined);
      try {
        await stop(spared);
        expect(await spared.select(QUICK_QUERY)).toHaveLength(1);
        messages.push('answered');
        const replaced = (m: string) => m.startsWith('oxigraph worker replaced: 42 triples');
        await eventually(() => messages.some(replaced));
        expect(
          messages.filter((m) => m === 'answered' || replaced(m)).map((m) => (replaced(m) ? 'replaced' : m)),
        ).toEqual(['answered', 'replaced']);
      } finally {
        busy.abort();
        await light;
        await spared.close();
      }
    },
  );

  it('lets a short query whose caller went away finish on its worker, so no worker is replaced', async () => {
    const { logger, messages } = recordingLogger();
    const kept = await createOxigraphStore({ files: FILES, logger });
    try {
      const controller = new AbortController();
      const dropped = kept.select(SLOW_QUERY, { signal: controller.signal }).catch((error: unknown) => error);
      controller.abort(new Error('gone'));
      expect(await dropped).toEqual(new Error('gone')); // the caller is answered at once
      // Past the grace a worker still running would have been stopped and replaced.
      await delay(1_500);
      expect(await kept.select(QUICK_QUERY)).toHaveLength(1);
      expect(messages.filter((m) => m.startsWith('oxigraph worker replaced'))).toEqual([]);
    } finally {
      await kept.close();
    }
  });

  it('without a spare, starts a waiting query as soon as the replacement of a stopped worker has loaded', async () => {
    const { logger, messages } = recordingLogger();
    const tight = await createOxigraphStore({ files: FILES, logger, workers: 2, timeoutMs: 60_000 });
    const busy = new AbortController();
    const light = tight.select(ENDLESS_QUERY, { lane: 'light', signal: busy.signal }).catch(() => undefined);
    try {
      const controller = new AbortController();
      const stopped = tight.select(ENDLESS_QUERY, { signal: controller.signal }).catch((error: unknown) => error);
      await delay(200);
      controller.abort(new Error('stop'));
      await stopped;
      // No idle loaded worker until the replacement is up: the query waits for it, then runs on it.
      expect(await tight.select(QUICK_QUERY)).toHaveLength(1);
      expect(messages.filter((m) => m.startsWith('oxigraph worker replaced'))).toHaveLength(1);
      expect(messages).toContain(
        'no spare oxigraph worker: after a stopped query its lane is short of a worker until the replacement has loaded the data',
      );
    } finally {
      busy.abort();
      await light;
      await tight.close();
    }
  });

  it('starts no replacement that would load a file changed since start-up, and goes on with the workers it has', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'oxigraph-changed-'));
    const copy = join(dir, 'data.ttl');
    await copyFile(FIXTURE, copy);
    const { logger, messages } = recordingLogger();
    const changing = await createOxigraphStore({ files: [copy, orderFixture.file], logger });
    try {
      await writeFile(copy, `${await readFile(copy, 'utf8')}\n<http://example.org/new> <http://example.org/p> 1 .\n`);
      await storeError(changing.select(PREFIXES + MIXED_ORDER_QUERY)); // its worker is replaced
      await eventually(() => messages.some((m) => m.startsWith('oxigraph worker failed')));
      const rows = await changing.select(`${PREFIXES}SELECT ?s WHERE { ?s ?p ?o }`, { lane: 'light' });
      expect(rows).toHaveLength(42); // the data of start-up, not the edited file's
      expect(await changing.select(QUICK_QUERY)).toHaveLength(1);
    } finally {
      await changing.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('reloads the files beside the data it serves: each store answers its own data, the old one until closed', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'oxigraph-reload-'));
    const copy = join(dir, 'data.ttl');
    await copyFile(FIXTURE, copy);
    const first = await createOxigraphStore({ files: [copy], workers: 2 });
    // On both workers at once (one query per lane), so that each holds what is asked of it.
    const counts = async (s: Store) =>
      Promise.all(
        (['light', 'heavy'] as const).map(
          async (lane) => (await s.select('SELECT ?s ?p ?o WHERE { ?s ?p ?o }', { lane })).length,
        ),
      );
    try {
      const [before] = await counts(first);
      await writeFile(copy, `${await readFile(copy, 'utf8')}\n<http://example.org/new> <http://example.org/p> 1 .\n`);
      const second = await first.reload!();
      expect(await counts(second)).toEqual([before! + 1, before! + 1]);
      expect(await counts(first)).toEqual([before, before]);
      await writeFile(copy, '<http://example.org/broken');
      await expect(second.reload!()).rejects.toThrow(`${copy}: `);
      expect(await counts(second)).toEqual([before! + 1, before! + 1]);
      await first.close();
      expect((await storeError(first.select(QUICK_QUERY))).kind).toBe('unavailable');
      expect(await counts(second)).toEqual([before! + 1, before! + 1]);
      await second.close();
    } finally {
      await first.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

// ---------------------------------------------------------------- SPARQL over HTTP (real Virtuoso, real Jena)
const ENDPOINTS = [
  ['Virtuoso', await startTestEndpoint()],
  ['Jena', await startJenaEndpoint()],
] as const;
for (const [engine, started] of ENDPOINTS) {
  const endpoint = endpointOrSkip(started, `Store contract: http (${engine})`);
  if (!endpoint) continue;
  // File-level hooks: the data is there before the suites' own beforeAll, and the store stops even when tests fail.
  beforeAll(() => endpoint.load(FILES));
  afterAll(() => endpoint.stop());
  const { endpointUrl, graph } = endpoint;
  const virtuoso = endpoint.name === 'virtuoso';
  const virtuosoCpu = await localProcessCpu(endpoint.description);

  storeContract(`http (${endpoint.name})`, async () => ({
    store: createHttpStore({ endpointUrl, graph }),
    // Virtuoso keeps xsd:boolean as an integer: `true` in the Turtle comes back as
    // {"type":"typed-literal","datatype":"http://www.w3.org/2001/XMLSchema#boolean","value":"1"}
    // ("1" is a valid xsd:boolean lexical form, but consumers must not compare it with "true").
    lexical: { boolean: virtuoso ? '1' : 'true' },
    open: async (settings) => createHttpStore({ endpointUrl, graph, ...settings }),
    failsMixedOrder: false,
    // A local virtuoso-t's CPU time, from /proc: it stops a query whose client has gone.
    ...(virtuosoCpu && { cpuMs: virtuosoCpu }),
  }));

  describe(`http store against ${endpoint.name}`, () => {
    it('sees only the named graph it is given', async () => {
      expect(await createHttpStore({ endpointUrl, graph }).select(TERMS_QUERY)).toHaveLength(8);
      expect(await createHttpStore({ endpointUrl, graph: `${graph}-other` }).select(TERMS_QUERY)).toEqual([]);
    });

    // Virtuoso's own cap: no other engine sends X-SPARQL-MaxRows (the fault proxy's tests cover the rest).
    if (virtuoso)
      it("rejects a result Virtuoso cut at its row cap with kind 'truncated'", async () => {
        // `maxrows` lowers ResultSetMaxRows for one request; the cut and its X-SPARQL-MaxRows header are the same.
        const capped = createHttpStore({ endpointUrl: `${endpointUrl}?maxrows=5`, graph });
        const error = await storeError(capped.select('SELECT * WHERE { ?s ?p ?o }'));
        expect(error.kind).toBe('truncated');
        expect(error.message).toContain('5 rows');
        expect(await capped.select('SELECT * WHERE { ?s ?p ?o } LIMIT 4')).toHaveLength(4);
      });

    it('under a burst of heavy queries, refuses those past the queue at once, runs the rest, and answers light queries meanwhile', async () => {
      const store = createHttpStore({
        endpointUrl,
        graph,
        queries: { light: 2, heavy: 4, queue: 16 },
        timeoutMs: 60_000,
      });
      try {
        const burst = Array.from({ length: 40 }, () =>
          store.select(BURST_QUERY[engine]).then(
            () => 'answered',
            (error: unknown) => (error instanceof StoreError ? error.kind : (error as Error).message),
          ),
        );
        // The refusals are decided before anything is sent: all 20 settle first, while the rest wait or run.
        const outcomes = await Promise.all(
          burst.map((outcome) => Promise.race([outcome, delay(1).then(() => 'pending')])),
        );
        expect(outcomes.filter((o) => o === 'overloaded')).toHaveLength(20);
        expect(outcomes.filter((o) => o === 'pending')).toHaveLength(20);
        const light = await Promise.race([
          store.select(QUICK_QUERY, { lane: 'light' }).then((rows) => rows.length),
          delay(5000).then(() => 'no answer within 5 s'),
        ]);
        expect(light).toBe(1);
        // The 20 admitted ones all answer: no connection reset, no error of the store's.
        expect((await Promise.all(burst)).filter((o) => o !== 'overloaded')).toEqual(Array(20).fill('answered'));
      } finally {
        await store.close();
      }
    }, 60_000);
  });
}

/**
 * CPU time (ms) of the local `virtuoso-t` the harness started, found by its database folder in
 * the endpoint's description (`local virtuoso-t 127.0.0.1:PORT (DIR)`); undefined for a container
 * or an external endpoint, whose process this suite cannot see.
 */
async function localProcessCpu(description: string): Promise<(() => number) | undefined> {
  const dir = /^local virtuoso-t \S+ \((.+)\)$/.exec(description)?.[1];
  if (dir === undefined) return undefined;
  for (const entry of await readdir('/proc').catch(() => [])) {
    if (!/^\d+$/.test(entry)) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (!cmdline.includes('virtuoso-t') || !cmdline.includes(dir)) continue;
    const ticksPerMs = 100 / 1000; // USER_HZ is 100 on Linux
    return () => {
      const fields = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      return (Number(fields[11]) + Number(fields[12])) / ticksPerMs;
    };
  }
  return undefined;
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

  it('takes a user:password@ in the endpoint URL as Basic auth, and never shows it', async () => {
    const seen: (string | undefined)[] = [];
    fake = await startFakeEndpoint((_n, req, res) => {
      seen.push(req.headers.authorization);
      res.end(ONE_ROW);
    });
    const withCredentials = fake.endpointUrl.replace('://', '://dba:s%40cret@');
    const store = createHttpStore({ endpointUrl: withCredentials });
    await store.select(TERMS_QUERY);
    expect(seen).toEqual([`Basic ${btoa('dba:s@cret')}`]);
    expect(store.description).not.toContain('cret');
    await store.close();
    // Unreachable: the message names the endpoint, without the credentials.
    const closed = withCredentials.replace(/:\d+\//, `:${await closedPort()}/`);
    const error = await storeError(createHttpStore({ endpointUrl: closed }).select(TERMS_QUERY));
    expect(error.kind).toBe('unavailable');
    expect(error.message).not.toMatch(/dba|cret/);
  });

  it('keeps the parameters of the endpoint URL, and sends spaces as %20', async () => {
    const urls: string[] = [];
    fake = await startFakeEndpoint((_n, req, res) => {
      urls.push(req.url!);
      res.end(ONE_ROW);
    });
    await createHttpStore({ endpointUrl: `${fake.endpointUrl}?maxrows=5` }).select('SELECT * WHERE {}');
    expect(urls).toEqual([`/sparql?maxrows=5&query=SELECT%20*%20WHERE%20%7B%7D`]);
  });

  it('sends requests over keep-alive connections it reuses', async () => {
    const sockets = new Set<number | undefined>();
    fake = await startFakeEndpoint((_n, req, res) => {
      sockets.add(req.socket.remotePort);
      res.end(ONE_ROW);
    });
    const store = createHttpStore({ endpointUrl: fake.endpointUrl });
    for (let i = 0; i < 10; i++) await store.select(TERMS_QUERY, { lane: i % 2 === 0 ? 'light' : 'heavy' });
    expect(fake.requests).toBe(10);
    // undici may open a second connection while the first one finishes its response; never one per request.
    expect(sockets.size).toBeLessThanOrEqual(2);
    await store.close();
  });

  it.each([
    ['text that is not JSON', '<html>Service Unavailable</html>', 'not JSON'],
    ['an object without head', '{"results":{"bindings":[]}}', 'no "head" object'],
    ['an ASK answer', '{"head":{},"boolean":true}', 'an ASK answer'],
    ['bindings that are not an array', '{"head":{"vars":[]},"results":{"bindings":{}}}', 'no "results.bindings" array'],
    [
      'a binding that is not an object',
      '{"head":{"vars":["x"]},"results":{"bindings":[1]}}',
      'binding 0 is not an object',
    ],
    [
      'a term of an unknown type',
      '{"head":{"vars":["x"]},"results":{"bindings":[{"x":{"type":"iri","value":"urn:x"}}]}}',
      'unknown term type "iri"',
    ],
  ])("rejects %s with kind 'unexpected'", async (_, body, message) => {
    fake = await startFakeEndpoint((_n, _req, res) => void res.end(body));
    const error = await storeError(createHttpStore({ endpointUrl: fake.endpointUrl }).select(TERMS_QUERY));
    expect(error.kind).toBe('unexpected');
    expect(error.message).toContain(message);
  });

  /** An endpoint that holds every request unanswered until the test ends; `closed` counts requests whose connection closed. */
  async function holdingEndpoint(): Promise<{ held: ServerResponse[]; closed: () => number }> {
    const held: ServerResponse[] = [];
    let closed = 0;
    fake = await startFakeEndpoint((_n, req: IncomingMessage, res) => {
      held.push(res);
      req.socket.on('close', () => (closed += 1));
    });
    return { held, closed: () => closed };
  }

  it("answers 'overloaded' at once when the lane's queue is full, sending nothing", async () => {
    const { held } = await holdingEndpoint();
    const store = createHttpStore({ endpointUrl: fake!.endpointUrl, queries: { light: 1, heavy: 1, queue: 1 } });
    const running = store.select(TERMS_QUERY).catch((error: unknown) => error);
    const waiting = store.select(TERMS_QUERY).catch((error: unknown) => error);
    await eventually(() => held.length === 1);
    expect((await storeError(store.select(TERMS_QUERY))).kind).toBe('overloaded');
    expect(fake!.requests).toBe(1);
    // The light lane is another one: its request goes out.
    const light = store.select(TERMS_QUERY, { lane: 'light' });
    await eventually(() => held.length === 2);
    for (const res of held) res.end(ONE_ROW);
    await eventually(() => held.length === 3); // the waiting heavy query, sent once the first answered
    held[2]!.end(ONE_ROW);
    expect(await light).toHaveLength(1);
    expect(await running).toHaveLength(1);
    expect(await waiting).toHaveLength(1);
    expect(fake!.requests).toBe(3);
    await store.close();
  });

  it("cancels the HTTP request when the caller's signal aborts: the endpoint sees the connection close", async () => {
    const { held, closed } = await holdingEndpoint();
    const store = createHttpStore({ endpointUrl: fake!.endpointUrl });
    const controller = new AbortController();
    const reason = new Error('client went away');
    const pending = store.select(TERMS_QUERY, { signal: controller.signal }).catch((error: unknown) => error);
    await eventually(() => held.length === 1);
    controller.abort(reason);
    expect(await pending).toBe(reason);
    await eventually(() => closed() === 1, 5000);
    await store.close();
  });

  it("rejects with kind 'timeout' after timeoutMs, cancelling the request", async () => {
    const { closed } = await holdingEndpoint();
    const store = createHttpStore({ endpointUrl: fake!.endpointUrl, timeoutMs: 200 });
    const error = await storeError(store.select(TERMS_QUERY));
    expect(error.kind).toBe('timeout');
    expect(error.message).toContain('within 200 ms');
    await eventually(() => closed() === 1, 5000);
    await store.close();
  });

  it("rejects queries after close with kind 'unavailable'", async () => {
    fake = await startFakeEndpoint((_n, _req, res) => void res.end(ONE_ROW));
    const store = createHttpStore({ endpointUrl: fake.endpointUrl });
    expect(await store.select(TERMS_QUERY)).toHaveLength(1);
    await store.close();
    expect((await storeError(store.select(TERMS_QUERY))).kind).toBe('unavailable');
  });
});
