import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApiServer } from '../../src/http/server.js';
import { loadMapping } from '../../src/mapping/load-mapping.js';
import { describeEachStore, SAMPLE_MAPPING, sampleApp } from '../support/each-store.js';
import {
  CANARY,
  type FuzzGrammar,
  type FuzzRequest,
  headerSeed,
  methodArb,
  pathSeed,
  querySeed,
  renderHeaders,
  renderPath,
  renderQuery,
} from '../support/fuzz-arbitraries.js';
import { SAMPLE_DATA } from '../support/global-setup.js';
import { Oracle } from '../support/oracle.js';
import { noteQueries } from '../support/query-log.js';

/*
 * Property-based fuzzing of the whole HTTP surface over the sample mapping, on each store: paths,
 * every query parameter family, the headers the server reads, and methods. Each response must
 * hold the invariants below whatever the input; each SPARQL query the server sends is recorded
 * on its way to the store and parsed.
 *
 * Budget: 1,000 requests per store (FUZZ_SCALE multiplies it). A run collects every violation
 * rather than stopping at the first, and fails listing them by invariant, each with the
 * fast-check seed and path that replay it:
 *
 *   FUZZ_SEED=<seed> FUZZ_PATH=<path> npx vitest run test/integration/fuzz.test.ts -t '<property>'
 *
 * FUZZ_SHRINK=1 throws at the first violation instead, so that fast-check shrinks it.
 */

const mapping = await loadMapping(SAMPLE_MAPPING);
const oracle = Oracle.fromFile(SAMPLE_DATA, mapping);
const { Parser: SparqlParser } = await import('sparqljs');

const schema = JSON.parse(readFileSync(new URL('../fixtures/jsonapi-schema.json', import.meta.url), 'utf8'));
const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormatsModule as unknown as (a: Ajv2020) => void)(ajv);
const validateDocument = ajv.compile(schema);

const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);
const REPLAY_PATH = process.env.FUZZ_PATH;
const SHRINK = process.env.FUZZ_SHRINK === '1';
const SCALE = Number(process.env.FUZZ_SCALE ?? 1);
/** Runs per property; the conditional property sends two requests per run. Sum of requests: 1,000. */
const RUNS = { paths: 250, query: 450, headers: 200, conditional: 50 } as const;
/** A request with no answer by then is a violation (the default deadline is 10 s). */
const REQUEST_TIMEOUT_MS = 15_000;
/** Most SPARQL queries one request may cost: list, count, fetch, and one per include level (3). */
const QUERY_BUDGET = 6;
/** Statuses the API answers client input with; anything else is a violation. */
const CLIENT_STATUSES = new Set([200, 204, 304, 400, 404, 405, 406, 413, 414, 415, 431]);
/** A stack trace or a source path in a response body. */
const LEAK = /\n\s+at .+:\d+:\d+|node_modules\/|\/src\/[\w/-]+\.ts\b|<br> &nbsp; &nbsp;at /;
/** Whole-property time limit: past it the remaining runs are skipped, and the run says so loudly. */
const PROPERTY_TIME_LIMIT_MS = 55_000;

/** Requests fuzzing made fail once (seed and path in each comment), kept so that every run sends them. */
const COUNTEREXAMPLES: readonly FuzzRequest[] = [
  // A path starting with // or /\ is a protocol-relative URL to `new URL()`: 500 in HTML, then an uncaught exception.
  { method: 'GET', path: '//%00/nope', headers: {}, what: 'seed 1925044503 path 156' },
  { method: 'GET', path: '//.%2F../links/nope', headers: {}, what: 'seed 93759729 path 154' },
  { method: 'POST', path: '/\\"%20}/x', headers: {}, what: 'seed 1607349325 path 192' },
  { method: 'HEAD', path: '/\\"%20}/965A6', headers: {}, what: 'seed 93759729 path 703' },
  // OFFSET past 2^32 - 1: both stores fail the query (502).
  { method: 'GET', path: '/concepts?page%5Bnumber%5D=999999999', headers: {}, what: 'seed 93759729 path 1700' },
  // A HEAD past Node's 16 KB header limit: the 431 is written with a body.
  { method: 'HEAD', path: `/public-projects/${'0'.repeat(20_000)}`, headers: {}, what: 'seed 328376696 path 952' },
  // A forged cursor whose xsd:integer value is no integer: Virtuoso refused the whole query (SR341), a 502.
  {
    method: 'GET',
    path: '/trade-activities?page[before]=eyJrIjpbeyJ2IjoiOVxcbkVgXSIsInQiOiJ4c2Q6aW50ZWdlciJ9XSwiaSI6IjJmOWIxMWQwIiwiZSI6MSwiaCI6InVwMjRsa2owUkNnIn0&include=',
    headers: {
      Accept: 'application/vnd.api+json; profile="https://jsonapi.org/profiles/ethanresnick/cursor-pagination"',
    },
    what: 'seed 712062258 path 239',
  },
  // CONNECT is answered by the server around the app (405), not by closing the connection.
  { method: 'CONNECT', path: '/health', headers: {}, what: 'seed 1925044503 path 13' },
];

const grammar: FuzzGrammar = {
  mapping,
  ids: new Map([...mapping.types.keys()].map((type) => [type, oracle.members(type).map((m) => m.id)])),
  datasets: [
    { prefix: '', maxSize: 100 },
    { prefix: '/api/sample', maxSize: 100 },
    { prefix: '/api/mirror', maxSize: 100 },
    { prefix: '/api/uncounted', maxSize: 10 },
  ],
};

interface Answer {
  /** `undefined`: no HTTP answer (the connection closed, or no answer within the timeout). */
  status?: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  ms: number;
  failure?: string;
}

/** Sends one request over a fresh loopback connection with Node's client (which sends any method, raw paths too). */
function send(baseUrl: string, req: FuzzRequest): Promise<Answer> {
  const { hostname, port } = new URL(baseUrl);
  const started = performance.now();
  return new Promise((resolve) => {
    let settled = false;
    const done = (answer: Omit<Answer, 'ms'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...answer, ms: Math.round(performance.now() - started) });
    };
    const outgoing = httpRequest({
      host: hostname,
      port: Number(port),
      method: req.method,
      path: req.path,
      headers: { ...req.headers, ...(req.body !== undefined && { 'Content-Length': Buffer.byteLength(req.body) }) },
      agent: false,
    });
    const timer = setTimeout(() => {
      outgoing.destroy();
      done({ headers: {}, body: '', failure: `no answer within ${REQUEST_TIMEOUT_MS} ms` });
    }, REQUEST_TIMEOUT_MS);
    outgoing.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        done({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }),
      );
      response.on('error', (error) => done({ headers: {}, body: '', failure: `response: ${error.message}` }));
    });
    // A CONNECT's answer comes as 'connect': Node hands over the socket, with what followed the headers.
    outgoing.on('connect', (response, socket, head: Buffer) => {
      const chunks: Buffer[] = [head];
      const finish = () => {
        socket.destroy();
        done({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') });
      };
      const length = Number(response.headers['content-length'] ?? Number.NaN);
      if (head.length >= length) return finish();
      socket.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        if (Buffer.concat(chunks).length >= length) finish();
      });
      socket.on('end', finish);
      socket.on('close', finish);
      socket.on('error', finish);
    });
    outgoing.on('error', (error) => done({ headers: {}, body: '', failure: `connection: ${error.message}` }));
    outgoing.end(req.body);
  });
}

interface Violation {
  invariant: string;
  request: string;
  status: string;
  detail: string;
  seed: number;
  path: string;
}

const describeRequest = (req: FuzzRequest) =>
  `${req.method} ${req.path}${Object.keys(req.headers).length > 0 ? ` ${JSON.stringify(req.headers)}` : ''}`;

/** Every term of a parsed query (subjects, predicates, objects, expression arguments…), found by walking it. */
function* termsOf(node: unknown, depth = 0): Generator<{ termType: string; value: string }> {
  if (depth > 200 || node === null || typeof node !== 'object') return;
  const maybe = node as { termType?: unknown; value?: unknown };
  if (typeof maybe.termType === 'string' && typeof maybe.value === 'string')
    yield maybe as { termType: string; value: string };
  for (const value of Object.values(node)) yield* termsOf(value, depth + 1);
}

/** What is wrong with one query the server sent; undefined when nothing is. */
function queryProblem(text: string): { invariant: string; detail: string } | undefined {
  let parsed: { type?: string; queryType?: string };
  try {
    parsed = new SparqlParser().parse(text) as typeof parsed;
  } catch (error) {
    const message = (error as Error).message.split('\n').slice(0, 3).join(' | ');
    return { invariant: 'every query parses (sparqljs)', detail: `${message}\n    query: ${text.slice(0, 600)}` };
  }
  if (parsed.type !== 'query' || parsed.queryType !== 'SELECT')
    return {
      invariant: 'every query is a SELECT',
      detail: `${parsed.type} ${parsed.queryType ?? ''}: ${text.slice(0, 300)}`,
    };
  for (const term of termsOf(parsed)) {
    if (
      (term.termType === 'Variable' && term.value.startsWith(CANARY)) ||
      (term.termType === 'NamedNode' && term.value.startsWith(`urn:${CANARY}:`))
    )
      return {
        invariant: 'no raw client input in a query',
        detail: `${term.termType} ${term.value} in: ${text.slice(0, 600)}`,
      };
  }
  return undefined;
}

/** The invariants of one answer; each broken one is a violation. */
function check(req: FuzzRequest, answer: Answer, queries: readonly string[]): Omit<Violation, 'seed' | 'path'>[] {
  const found: Omit<Violation, 'seed' | 'path'>[] = [];
  const status = answer.status === undefined ? `no answer (${answer.failure})` : String(answer.status);
  const add = (invariant: string, detail: string) =>
    found.push({ invariant, request: describeRequest(req), status, detail: detail.slice(0, 1200) });
  const contentType = String(answer.headers['content-type'] ?? '');

  if (answer.status === undefined) {
    // Node's server closes a CONNECT it has no handler for: not a 5xx, and nothing to check.
    if (req.method !== 'CONNECT') add('an answer for every request', answer.failure ?? '');
  } else if (answer.status >= 500) {
    add('no 5xx for client input', `${answer.body.slice(0, 400)} (${answer.ms} ms)`);
  } else if (!CLIENT_STATUSES.has(answer.status)) {
    add('a status from the client-error table', answer.body.slice(0, 300));
  }
  if (LEAK.test(answer.body)) add('no stack trace or source path in a body', answer.body.slice(0, 400));
  if (answer.status !== undefined) {
    const bodiless = req.method === 'HEAD' || answer.status === 204 || answer.status === 304;
    if (bodiless) {
      if (answer.body !== '') add('304, 204 and HEAD have no body', answer.body.slice(0, 200));
      if (answer.status === 304 && contentType !== '') add('304 has no Content-Type', contentType);
    } else if (answer.status >= 400 || (answer.status === 200 && req.method === 'GET')) {
      const what = answer.status >= 400 ? 'every error is a JSON:API error document' : 'every 200 validates';
      let body: any;
      try {
        body = JSON.parse(answer.body);
      } catch {
        add(what, `not JSON (Content-Type ${contentType || 'none'}): ${answer.body.slice(0, 200)}`);
      }
      if (body !== undefined) {
        if (!contentType.startsWith('application/vnd.api+json'))
          add(what, `Content-Type ${contentType || 'none'}, not application/vnd.api+json`);
        if (!validateDocument(body))
          add(what, `${ajv.errorsText(validateDocument.errors)}: ${answer.body.slice(0, 300)}`);
        if (answer.status >= 400) {
          if (!Array.isArray(body.errors) || body.errors.length === 0) add(what, `no errors array: ${answer.body}`);
          else if (body.errors[0]?.status !== String(answer.status))
            add(
              'errors[0].status is the HTTP status',
              `errors[0].status ${JSON.stringify(body.errors[0]?.status)}, HTTP ${answer.status}`,
            );
        }
      }
    }
  }
  if (queries.length > QUERY_BUDGET)
    add(`at most ${QUERY_BUDGET} queries per request`, `${queries.length} queries: ${queries[0]!.slice(0, 200)}`);
  for (const text of new Set(queries)) {
    const problem = queryProblem(text);
    if (problem) add(problem.invariant, problem.detail);
  }
  return found;
}

function report(store: string, property: string, violations: readonly Violation[], runs: number): string {
  const byInvariant = new Map<string, Violation[]>();
  for (const v of violations) byInvariant.set(v.invariant, [...(byInvariant.get(v.invariant) ?? []), v]);
  const lines = [
    `[${store}] fuzz '${property}': ${violations.length} violation(s) in ${runs} runs, seed ${SEED}`,
    `replay one: FUZZ_SEED=${SEED} FUZZ_PATH=<path> npx vitest run test/integration/fuzz.test.ts -t '${property}'`,
  ];
  for (const [invariant, list] of byInvariant) {
    lines.push(`\n* ${invariant}: ${list.length}`);
    for (const v of list.slice(0, 4))
      lines.push(`  - seed ${v.seed} path ${v.path}: ${v.request}\n    → ${v.status}: ${v.detail}`);
  }
  return lines.join('\n');
}

describeEachStore('fuzz (fast-check over the mapping grammar)', (h) => {
  /** Every query text the fuzz app sends to the store; emptied before each request. */
  const sent: string[] = [];
  let server: Server;
  let baseUrl = '';
  let requests = 0;
  let started = 0;

  beforeAll(async () => {
    started = performance.now();
    const store = noteQueries(h().store, sent);
    const app = sampleApp(mapping, store);
    // The server the CLI runs: CONNECT and requests Node cannot parse are answered there, not by Express.
    server = createApiServer(app, pino({ level: 'silent' })).listen(0, '127.0.0.1');
    await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    console.log(
      `[${h().storeName}] fuzz: ${requests} requests in ${Math.round((performance.now() - started) / 1000)} s, seed ${SEED}`,
    );
  });

  /** Sends `req` and checks its answer and the queries it caused. */
  async function exchange(req: FuzzRequest): Promise<{ answer: Answer; problems: Omit<Violation, 'seed' | 'path'>[] }> {
    sent.length = 0;
    requests += 1;
    const answer = await send(baseUrl, req);
    return { answer, problems: check(req, answer, [...sent]) };
  }

  /**
   * Runs `arbitrary` through `property` for `runs` runs (× FUZZ_SCALE) and fails with every
   * violation found, each with the seed and path that replay it.
   */
  async function fuzz<T>(
    name: string,
    runs: number,
    arbitrary: fc.Arbitrary<T>,
    property: (value: T) => Promise<Omit<Violation, 'seed' | 'path'>[]>,
  ): Promise<void> {
    const violations: Violation[] = [];
    let run = 0;
    const replayOffset = REPLAY_PATH ? Number(REPLAY_PATH.split(':')[0]) : 0;
    const result = await fc.check(
      fc.asyncProperty(arbitrary, async (value) => {
        const path = REPLAY_PATH?.includes(':') ? REPLAY_PATH : String(replayOffset + run);
        run += 1;
        const found = (await property(value)).map((v) => ({ ...v, seed: SEED, path }));
        if (SHRINK && found.length > 0) throw new Error(report(h().storeName, name, found, run));
        violations.push(...found);
      }),
      {
        seed: SEED,
        // A replay runs the one case its path names.
        numRuns: REPLAY_PATH ? 1 : Math.max(1, Math.round(runs * SCALE)),
        ...(REPLAY_PATH && { path: REPLAY_PATH }),
        interruptAfterTimeLimit: PROPERTY_TIME_LIMIT_MS * Math.max(1, SCALE),
        markInterruptAsFailure: false,
        endOnFailure: !SHRINK,
      },
    );
    if (result.interrupted)
      console.warn(`!!! [${h().storeName}] fuzz '${name}' stopped by its time limit after ${run} of ${runs} runs`);
    if (result.failed) throw new Error(fc.defaultReportMessage(result));
    if (violations.length > 0) {
      mkdirSync('.tmp', { recursive: true });
      const file = `.tmp/fuzz-${h().storeName}-${name.replace(/\W+/g, '-')}.json`;
      writeFileSync(file, JSON.stringify(violations, null, 1));
      expect.fail(`${report(h().storeName, name, violations, run)}\n(all of them: ${file})`);
    }
  }

  it('counterexamples fuzzing found, sent on every run whatever the seed', async () => {
    const found: Violation[] = [];
    for (const req of COUNTEREXAMPLES) {
      const { problems } = await exchange(req);
      const [, seed, path] = /seed (\d+) path (\S+)/.exec(req.what) ?? [];
      found.push(...problems.map((v) => ({ ...v, seed: Number(seed), path: path ?? '-' })));
    }
    if (found.length > 0) expect.fail(report(h().storeName, 'counterexamples', found, COUNTEREXAMPLES.length));
  });

  it('paths: types, ids valid and invalid, relationships, /links/, /relationships/, dataset prefixes, encodings', async () => {
    await fuzz(
      'paths',
      RUNS.paths,
      fc.record({
        path: pathSeed,
        query: fc.option(querySeed, { freq: 3 }),
        type: fc.nat(),
        head: fc.constantFrom(false, false, false, true),
      }),
      async ({ path, query, type, head }) => {
        const rendered = renderPath(grammar, path);
        const search = query ? renderQuery(grammar, rendered.listType, query, type) : '';
        return (
          await exchange({
            method: head ? 'HEAD' : 'GET',
            path: rendered.path + (search ? `?${search}` : ''),
            headers: { Accept: 'application/vnd.api+json' },
            what: 'paths',
          })
        ).problems;
      },
    );
  }, 120_000);

  it('query parameters: sort, page[…] and cursors, filter[…] with every operator, include, fields[type]', async () => {
    // Mostly URLs that answer with a list, so that every family reaches its parser and the query builders.
    const listPath = fc
      .record({
        seed: pathSeed,
        idKind: fc.constantFrom('none', 'none', 'none', 'real'),
        tail: fc.constantFrom('related', 'links', 'related'),
        known: fc.constantFrom(true, true, true, true, true, false),
      })
      .map(({ seed, idKind, tail, known }) =>
        known
          ? {
              ...seed,
              typeKind: 'known' as const,
              prefixKind: seed.prefixKind === 'dataset' ? ('dataset' as const) : ('default' as const),
              idKind: idKind as 'none' | 'real',
              tail: tail as 'related' | 'links',
            }
          : seed,
      );
    await fuzz(
      'query parameters',
      RUNS.query,
      fc.record({
        path: listPath,
        query: querySeed,
        type: fc.nat(),
        cursorProfile: fc.constantFrom(false, false, false, true),
      }),
      async ({ path, query, type, cursorProfile }) => {
        const rendered = renderPath(grammar, path);
        const search = renderQuery(grammar, rendered.listType, query, type);
        return (
          await exchange({
            method: 'GET',
            path: rendered.path + (search ? `?${search}` : ''),
            headers: {
              Accept: cursorProfile
                ? 'application/vnd.api+json; profile="https://jsonapi.org/profiles/ethanresnick/cursor-pagination"'
                : 'application/vnd.api+json',
            },
            what: 'query parameters',
          })
        ).problems;
      },
    );
  }, 120_000);

  it('headers and methods: Accept, Content-Type, If-None-Match, Origin; GET HEAD POST PUT PATCH DELETE OPTIONS TRACE CONNECT', async () => {
    await fuzz(
      'headers and methods',
      RUNS.headers,
      fc.record({
        path: fc.oneof(
          pathSeed.map((seed) => ({ seed, health: false })),
          fc.constant({ seed: undefined, health: true }),
        ),
        query: fc.option(querySeed, { freq: 3 }),
        type: fc.nat(),
        headers: headerSeed,
        method: methodArb,
        body: fc.option(fc.constantFrom('{"data":{"type":"concepts","id":"0101"}}', 'x'.repeat(5000), ''), { freq: 2 }),
      }),
      async ({ path, query, type, headers, method, body }) => {
        const rendered = path.seed ? renderPath(grammar, path.seed) : { path: '/health', listType: undefined };
        const search = query ? renderQuery(grammar, rendered.listType, query, type) : '';
        return (
          await exchange({
            method,
            path: rendered.path + (search ? `?${search}` : ''),
            headers: renderHeaders(headers, method),
            ...(body !== null && method !== 'GET' && method !== 'HEAD' && { body }),
            what: 'headers and methods',
          })
        ).problems;
      },
    );
  }, 120_000);

  it('conditional requests: a 200 revalidated with its ETag gives 304 with no body', async () => {
    await fuzz(
      'conditional requests',
      RUNS.conditional,
      fc.record({
        path: pathSeed.map((seed) => ({
          ...seed,
          typeKind: 'known' as const,
          prefixKind: 'default' as const,
          idKind: seed.idKind === 'none' ? ('none' as const) : ('real' as const),
        })),
        form: fc.constantFrom('exact', 'weak', 'list', 'star'),
        method: fc.constantFrom('GET', 'HEAD'),
      }),
      async ({ path, form, method }) => {
        const rendered = renderPath(grammar, path);
        const first = await exchange({
          method: 'GET',
          path: rendered.path,
          headers: { Accept: 'application/vnd.api+json' },
          what: 'conditional',
        });
        const etag = first.answer.headers.etag;
        if (first.answer.status !== 200 || typeof etag !== 'string') return first.problems;
        const ifNoneMatch = { exact: etag, weak: `W/${etag}`, list: `"nope", ${etag}`, star: '*' }[form]!;
        const req = { method, path: rendered.path, headers: { 'If-None-Match': ifNoneMatch }, what: 'conditional' };
        const second = await exchange(req);
        const problems = [...first.problems, ...second.problems];
        if (second.answer.status !== 304)
          problems.push({
            invariant: 'a matching If-None-Match gives 304',
            request: describeRequest(req),
            status: String(second.answer.status),
            detail: second.answer.body.slice(0, 200),
          });
        return problems;
      },
    );
  }, 120_000);
});
