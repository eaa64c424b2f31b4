import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { loadMapping } from '../../src/mapping/load-mapping.js';
import { createHttpStore } from '../../src/store/http-store.js';
import { ApiClient } from '../support/api-client.js';
import { describeStores, ENDPOINT_STORE_NAMES, endpointOf, SAMPLE_MAPPING } from '../support/each-store.js';
import { type Fault, FaultProxy } from '../support/fault-proxy.js';
import { titled } from '../support/titled.js';

/*
 * A real store (Virtuoso, then Jena) behind a fault-injecting proxy (test/support/fault-proxy.ts), switched fault by
 * fault: for each, the status and error document the server must answer with, how fast (a hung or
 * trickling store must give a 504 at the request's deadline, not the store client's 30 s), what
 * /health says meanwhile (quickly, and not 200 "ok" while the store is unusable), and that the
 * same request gets a 200 again once the fault is switched off.
 */

const mapping = await loadMapping(SAMPLE_MAPPING);

const schema = JSON.parse(readFileSync(new URL('../fixtures/jsonapi-schema.json', import.meta.url), 'utf8'));
const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormatsModule as unknown as (a: Ajv2020) => void)(ajv);
const validateDocument = ajv.compile(schema);
/** Whether `value` validates against the JSON:API schema (a plain boolean: no narrowing). */
const isDocument = (value: unknown): boolean => validateDocument(value);

/** The dataset's request deadline (DatasetOptions.timeoutMs). */
const DEADLINE_MS = 1000;
/** /health's own deadline: the default of the health handler. */
const HEALTH_DEADLINE_MS = 2000;
/** What the server may take beyond a deadline to answer. */
const MARGIN_MS = 1000;
/** The client gives up past this, and the case fails with "no answer": well before the store client's own 30 s. */
const GIVE_UP_MS = DEADLINE_MS + MARGIN_MS + 3000;

const STORE_ERROR = 'Triplestore error';
/** A deadline is the request's (json-api-handler.ts) or the store client's (error-handler.ts). */
const TIMEOUT = ['Request timeout', 'Triplestore timeout'];
const UNEXPECTED = 'Unexpected answer from the triplestore';

interface FaultCase {
  readonly fault: Fault;
  readonly status: number;
  /** Titles the error may carry (error-handler.ts STORE_FAILURE). */
  readonly titles: readonly string[];
  /** /health statuses allowed meanwhile: 503, or 200 only when the store still answers its trivial query. */
  readonly health: readonly number[];
}

const FAULTS: readonly FaultCase[] = [
  { fault: 'hang', status: 504, titles: TIMEOUT, health: [503] },
  { fault: 'slow-body', status: 504, titles: TIMEOUT, health: [503] },
  { fault: 'reset', status: 502, titles: ['Triplestore unavailable'], health: [503] },
  {
    fault: 'reset-mid-body',
    status: 502,
    titles: ['Triplestore unavailable', STORE_ERROR, UNEXPECTED],
    health: [503],
  },
  { fault: 'http-500', status: 502, titles: [STORE_ERROR], health: [503] },
  { fault: 'garbage', status: 502, titles: [UNEXPECTED, STORE_ERROR], health: [503] },
  { fault: 'truncated-json', status: 502, titles: [UNEXPECTED, STORE_ERROR], health: [503] },
  // The health query reads no variable and no IRI: a store answering in the wrong shape still answers it.
  { fault: 'missing-variables', status: 502, titles: [UNEXPECTED], health: [200, 503] },
  { fault: 'literal-for-iri', status: 502, titles: [UNEXPECTED], health: [200, 503] },
];

/** A single resource (one light query), and a page with its count and an include level (four queries in three waves). */
const URLS = ['/concepts/0101', '/trade-activities?include=concerns&page%5Bsize%5D=5'] as const;

interface Timed {
  status?: number;
  body: any;
  text: string;
  ms: number;
  failure?: string;
}

/** One GET with a time limit, its body parsed; `status` is undefined when no answer came in time. */
async function timedGet(baseUrl: string, path: string, giveUpMs = GIVE_UP_MS): Promise<Timed> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  try {
    const response = await fetch(baseUrl + path, {
      headers: { Accept: 'application/vnd.api+json' },
      signal: AbortSignal.timeout(giveUpMs),
    });
    const text = await response.text();
    let body: any;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { status: response.status, body, text, ms: ms() };
  } catch (error) {
    return { body: undefined, text: '', ms: ms(), failure: `no answer within ${giveUpMs} ms (${String(error)})` };
  }
}

/** A JSON:API error document whose first error has `status`, revealing nothing internal. */
function expectErrorDocument(what: string, answer: Timed, status: number, titles?: readonly string[]) {
  const body: any = answer.body;
  expect(body, `${what}: a JSON body (got ${answer.text.slice(0, 200)})`).toBeDefined();
  if (!isDocument(body))
    expect.fail(`${what}: not a JSON:API document: ${ajv.errorsText(validateDocument.errors)}\n${answer.text}`);
  expect(body.errors?.[0]?.status, `${what}: errors[0].status`).toBe(String(status));
  if (titles) expect(titles, `${what}: errors[0].title`).toContain(body.errors[0].title);
  expect(answer.text, `${what}: nothing internal`).not.toMatch(
    /\n\s+at |ECONNRESET|127\.0\.0\.1|\.ts:\d+|Virtuoso|org\.apache\.jena/,
  );
}

const describeAnswer = (answer: Timed) =>
  answer.status === undefined ? answer.failure! : `${answer.status} in ${answer.ms} ms: ${answer.text.slice(0, 300)}`;

describeStores(
  'store faults behind a fault-injecting proxy',
  (storeName) => {
    let proxy: FaultProxy;
    let api: ApiClient;

    beforeAll(async () => {
      const endpoint = endpointOf(storeName);
      proxy = await FaultProxy.start(endpoint.endpointUrl);
      // The store client keeps its own 30 s default: the deadline must come from the dataset option.
      const store = createHttpStore({ endpointUrl: proxy.endpointUrl, graph: endpoint.graph });
      api = await ApiClient.listen(
        createApp({
          datasets: [{ name: 'sample', mapping, store, linkBase: '', options: { timeoutMs: DEADLINE_MS } }],
        }),
      );
      // The proxy relays faithfully when no fault is set.
      for (const url of URLS) expect((await timedGet(api.baseUrl, url)).status, `${url} through the proxy`).toBe(200);
    });
    afterAll(async () => {
      await api?.close();
      await proxy?.close();
    });

    describe.each(titled(FAULTS, (c) => `${c.fault}: ${c.status}`))('%s', (_, { fault, status, titles, health }) => {
      it.each(URLS)(
        `GET %s answers ${status} with a JSON:API error document, within the deadline + margin`,
        async (url) => {
          proxy.set(fault);
          try {
            const answer = await timedGet(api.baseUrl, url);
            expect(answer.status, `${fault}: ${url} → ${describeAnswer(answer)}`).toBe(status);
            expectErrorDocument(`${fault}: ${url}`, answer, status, titles);
            expect(answer.ms, `${fault}: ${url} answered in ${answer.ms} ms`).toBeLessThanOrEqual(
              DEADLINE_MS + MARGIN_MS,
            );
          } finally {
            proxy.set('none');
          }
        },
        GIVE_UP_MS + 5000,
      );

      it(
        `/health answers within ${HEALTH_DEADLINE_MS} ms + margin, with ${health.join(' or ')}`,
        async () => {
          proxy.set(fault);
          try {
            const answer = await timedGet(api.baseUrl, '/health', HEALTH_DEADLINE_MS + MARGIN_MS + 2000);
            expect(health, `${fault}: /health → ${describeAnswer(answer)}`).toContain(answer.status);
            expect(answer.ms, `${fault}: /health answered in ${answer.ms} ms`).toBeLessThanOrEqual(
              HEALTH_DEADLINE_MS + MARGIN_MS,
            );
            if (answer.status === 503) expectErrorDocument(`${fault}: /health`, answer, 503);
            else expect(isDocument(answer.body), `${fault}: /health: ${answer.text}`).toBe(true);
          } finally {
            proxy.set('none');
          }
        },
        HEALTH_DEADLINE_MS + MARGIN_MS + 7000,
      );

      it.each(URLS)('GET %s is a 200 again once the fault is off (recovery)', async (url) => {
        proxy.set('none');
        const answer = await timedGet(api.baseUrl, url);
        expect(answer.status, `after ${fault}: ${url} → ${describeAnswer(answer)}`).toBe(200);
        expect(isDocument(answer.body), `after ${fault}: ${url}`).toBe(true);
        const ok = await timedGet(api.baseUrl, '/health');
        expect(ok.status, `after ${fault}: /health → ${describeAnswer(ok)}`).toBe(200);
      });
    });

    it(
      'a hung store query is cancelled at the deadline: the server closes its request to the store',
      async () => {
        const before = proxy.received;
        proxy.set('hang');
        let answer: Timed;
        try {
          answer = await timedGet(api.baseUrl, URLS[0]);
        } finally {
          proxy.set('none');
        }
        // Give the cancellation a moment to reach the proxy.
        await new Promise((resolve) => setTimeout(resolve, 300));
        const hung = proxy.since(before).filter((request) => request.fault === 'hang');
        expect(hung.length, 'the request reached the store').toBeGreaterThan(0);
        for (const request of hung) {
          expect(
            request.abortedAt,
            `the store request of ${URLS[0]} is still open ${Math.round(performance.now() - request.arrivedAt)} ms after it was sent (answer: ${describeAnswer(answer)})`,
          ).toBeDefined();
          expect(request.abortedAt! - request.arrivedAt).toBeLessThanOrEqual(DEADLINE_MS + MARGIN_MS);
        }
      },
      GIVE_UP_MS + 5000,
    );

    it(
      'one query of a request hanging (the count) makes the whole request a 504 at the deadline',
      async () => {
        proxy.set(({ query }) => (/COUNT/i.test(query) ? 'hang' : 'none'));
        try {
          const answer = await timedGet(api.baseUrl, URLS[1]);
          expect(answer.status, `count hangs: ${URLS[1]} → ${describeAnswer(answer)}`).toBe(504);
          expectErrorDocument(`count hangs: ${URLS[1]}`, answer, 504, TIMEOUT);
          expect(answer.ms).toBeLessThanOrEqual(DEADLINE_MS + MARGIN_MS);
        } finally {
          proxy.set('none');
        }
        expect((await timedGet(api.baseUrl, URLS[1])).status, 'recovery').toBe(200);
      },
      GIVE_UP_MS + 5000,
    );

    it('a wrong-shape answer to the fetch query only (IRIs as literals) is a 502, not a page of broken resources', async () => {
      // The page's list and count are faithful; the attributes' query (?s ?f ?o) answers literals for IRIs.
      proxy.set(({ query }) => (/\?f\b/.test(query) && !/COUNT/i.test(query) ? 'literal-for-iri' : 'none'));
      try {
        const answer = await timedGet(api.baseUrl, '/concepts?page%5Bsize%5D=3');
        expect(answer.status, `fetch answers literals for IRIs → ${describeAnswer(answer)}`).toBe(502);
        expectErrorDocument('fetch answers literals for IRIs', answer, 502, [UNEXPECTED]);
      } finally {
        proxy.set('none');
      }
    });
  },
  ENDPOINT_STORE_NAMES,
);
