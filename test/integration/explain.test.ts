import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BenchDataset } from '../../bench/datasets.js';
import { SHAPES } from '../../bench/shapes.js';
import { writeDataset } from '../../scripts/generate.js';
import { createApp } from '../../src/app.js';
import { PATH_RULES } from '../../src/execute/paths/plan-list-read.js';
import { loadMapping } from '../../src/mapping/load-mapping.js';
import type { Mapping } from '../../src/mapping/model.js';
import { createOxigraphStore } from '../../src/store/oxigraph-store.js';
import type { Store } from '../../src/store/store.js';
import { ApiClient, type ApiResponse, queryCount } from '../support/api-client.js';
import { describeStores, openStoreWith, SAMPLE_MAPPING } from '../support/each-store.js';
import { Oracle } from '../support/oracle.js';
import { singleFieldCases } from '../support/sort-cases.js';

/*
 * Explain (`?explain-plan`, docs/api.md "Explain") on every request shape of the benchmark
 * (bench/shapes.ts), over HTTP to each store: the steps it names are the ones `Server-Timing`
 * names, each query it lists is one the request sent (its text, replayed on the store, gives the
 * rows it says), and the answer is the request's own. The shapes' first step is the access
 * path docs/performance.md gives for such a request.
 */
const ACTIVITIES = 300;
const TIMING_PATH = /path;desc="([^"]*)"/;

/** The first step each bench shape takes without the window cache (docs/performance.md's access-path table). */
const FIRST_STEP: Readonly<Record<string, string>> = {
  single: 'resource',
  collection: 'histogram',
  sorted: 'histogram',
  'sorted-to-many': 'keyed-window',
  'deep-offset': 'histogram',
  'deep-cursor': 'histogram',
  'never-seen': 'histogram',
  related: 'related-page',
  relationship: 'related-list',
  include: 'histogram',
  filtered: 'histogram',
};

/** The shapes whose pages a list's last histogram places: one query each once the list was read. */
const ONE_QUERY = new Set(['collection', 'sorted', 'deep-offset', 'never-seen']);

interface Explained {
  path: string;
  steps: { path: string; why: string; fallback?: true }[];
  queryCount: number;
  storeMs: number;
  queries: { label: string; lane: string; text: string; startMs: number; ms: number; rows?: number }[];
}

const withExplain = (url: string) => `${url}${url.includes('?') ? '&' : '?'}explain-plan`;
const timingPath = (response: ApiResponse) => TIMING_PATH.exec(response.headers.get('server-timing') ?? '')?.[1];

/** A document without what explain adds: `meta.explain`, and `explain-plan` in its links. */
function withoutExplain(body: any): unknown {
  const { explain, ...meta } = body.meta ?? {};
  const document = { ...body, meta };
  if (Object.keys(meta).length === 0) delete document.meta;
  const text = JSON.stringify(document)
    .replaceAll('?explain-plan=&', '?')
    .replaceAll(/\?explain-plan=(?=")/g, '')
    .replaceAll(/&explain-plan=(?=[&"])/g, '');
  return JSON.parse(text);
}

describeStores(`explain on every bench shape, ${ACTIVITIES} generated activities`, (storeName) => {
  let dir: string;
  let store: Store;
  let mapping: Mapping;
  let oracle: Oracle;
  let api: ApiClient;
  let quiet: ApiClient;
  const lines: any[] = [];
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sparql-jsonapi-explain-'));
    const file = join(dir, 'generated.nt');
    await writeDataset({ activities: ACTIVITIES, seed: 11 }, file);
    store = await openStoreWith(storeName, [file]);
    mapping = await loadMapping(SAMPLE_MAPPING);
    oracle = Oracle.fromFile(file, mapping);
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    const logger = pino({ level: 'debug' }, sink);
    const dataset = { name: 'generated', mapping, store, linkBase: '' };
    api = await ApiClient.listen(createApp({ datasets: [{ ...dataset, options: { explain: true } }], logger }));
    quiet = await ApiClient.listen(createApp({ datasets: [dataset] }));
  });
  afterAll(async () => {
    await api?.close();
    await quiet?.close();
    await store?.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** What the bench's shapes need of their dataset, read from the data. */
  function benchDataset(): BenchDataset {
    const activities = oracle.members('trade-activities');
    const withConcepts = activities.filter((a) => oracle.related('trade-activities', a.iri, 'concerns').length > 0);
    const codes = oracle.members('countries').flatMap((c) => {
      const code = oracle.attributes('countries', c.iri)['iso-code'];
      return typeof code === 'string' ? [code] : [];
    });
    return {
      size: '10k',
      file: '',
      triples: 0,
      activities: activities.length,
      activityIds: withConcepts.slice(0, 3).map((a) => a.id),
      countryCodes: codes.slice(0, 2),
      generatedMs: 0,
    } as BenchDataset;
  }

  it('names the path and the queries, as Server-Timing does, and answers as without it', async () => {
    const dataset = benchDataset();
    const context = {
      dataset,
      get: async (path: string, accept?: string) => {
        const { status, body } = await quiet.get(path, { Accept: accept ?? 'application/vnd.api+json' });
        return { status, body };
      },
    };
    const known = new Set<string>([...PATH_RULES.map((rule) => rule.path), 'resource', 'fetch']);
    for (const shape of SHAPES) {
      const urls = (await shape.urls(context)).slice(0, 2);
      expect(urls.length, shape.key).toBeGreaterThan(0);
      for (const url of urls) {
        const headers = { Accept: shape.accept };
        // A list's first read leaves the hint its next reads guess their window from (a page
        // through the histogram then takes one query: execute/histogram-window.ts). The hints are
        // each app's own (cache/histogram-hints.ts): the pair compared below both come after one.
        await quiet.get(url, headers);
        await api.get(url, headers);
        const [explained, plain] = [await api.get(withExplain(url), headers), await quiet.get(url, headers)];
        expect(explained.status, url).toBe(200);
        const explain = explained.body.meta.explain as Explained;
        // The same steps as Server-Timing, on both the explained and the plain response.
        expect(timingPath(explained), url).toBe(explain.path);
        expect(timingPath(plain), url).toBe(explain.path);
        expect(explain.steps.map((s, i) => (i === 0 ? '' : s.fallback ? '>' : '+') + s.path).join('')).toBe(
          explain.path,
        );
        expect(explain.steps[0]!.path, `${shape.key}: ${url}`).toBe(FIRST_STEP[shape.key]);
        for (const step of explain.steps) {
          expect(known.has(step.path) || /^include-\d+$/.test(step.path), step.path).toBe(true);
          expect(step.why.length, step.path).toBeGreaterThan(10);
        }
        if (shape.includeLevels > 0) expect(explain.steps.map((s) => s.path)).toContain('include-1');
        // After the list's first read, an offset page of a year-sorted list takes one query: the
        // histogram, with the window the last one put it in.
        if (ONE_QUERY.has(shape.key))
          expect(
            explain.queries.map((q) => q.label),
            url,
          ).toEqual(['histogram+range']);
        // Every query of the request, each with what it read.
        expect(explain.queries).toHaveLength(queryCount(explained));
        expect(explain.queryCount).toBe(queryCount(plain));
        for (const query of explain.queries) {
          expect(['light', 'heavy'], query.label).toContain(query.lane);
          expect(query.ms).toBeGreaterThanOrEqual(0);
          const rows = await store.select(query.text);
          expect(rows.length, `${url}: ${query.label}`).toBe(query.rows);
        }
        expect(withoutExplain(explained.body), url).toEqual(withoutExplain(plain.body));
        expect(explained.headers.get('cache-control')).toBe('no-store');
      }
    }
  }, 120_000);

  it('logs each query at debug level with its request id', async () => {
    lines.length = 0;
    const response = await api.get('/trade-activities?include=concerns');
    const queries = lines.filter((line) => line.query !== undefined);
    expect(queries).toHaveLength(queryCount(response));
    expect(new Set(queries.map((line) => line.reqId)).size).toBe(1);
    expect(queries.map((line) => line.label)).toContain('include-1');
    for (const line of queries) {
      expect(line.level).toBe(20);
      expect(line.query).toMatch(/SELECT/);
      expect(typeof line.ms).toBe('number');
    }
  });

  it('is a 400 naming explain-plan where the dataset does not explain, or with another value', async () => {
    for (const [client, url] of [
      [quiet, '/trade-activities?explain-plan'],
      [api, '/trade-activities?explain-plan=yes'],
    ] as const) {
      const response = await client.get(url);
      expect(response.status, url).toBe(400);
      expect(response.body.errors[0].source).toEqual({ parameter: 'explain-plan' });
      expect(queryCount(response), url).toBe(0);
    }
  });
});

// Data that breaks its mapping on purpose (several values where it says one, values that tie):
// the histogram's counts don't add up there, and its fallback reads the page; explain says so.
describe('[embedded] explain shows a fallback where the histogram hands over, real-shapes', () => {
  let store: Store;
  let api: ApiClient;
  let mapping: Mapping;
  beforeAll(async () => {
    mapping = await loadMapping('test/fixtures/real-shapes.yaml');
    store = await createOxigraphStore({ files: ['test/fixtures/real-shapes.trig'] });
    api = await ApiClient.listen(
      createApp({ datasets: [{ name: 'real-shapes', mapping, store, linkBase: '', options: { explain: true } }] }),
    );
  });
  afterAll(async () => {
    await api?.close();
    await store?.close();
  });

  it('names the fallback, why, and the queries of both', async () => {
    /** Why each path hands over to its fallback, by the path that does. */
    const handsOver: Record<string, RegExp> = {
      histogram: /^the histogram does not give the page: /,
      'keyed-window': /^the page reaches past the members that have the key/,
    };
    let fromHistogram = 0;
    for (const { type, sort } of singleFieldCases(mapping)) {
      const url = `/${type}?sort=${encodeURIComponent(sort)}&explain-plan`;
      const response = await api.get(url);
      expect(response.status, url).toBe(200);
      const explain = response.body.meta.explain as Explained;
      expect(timingPath(response), url).toBe(explain.path);
      for (const [i, step] of explain.steps.entries()) {
        if (!step.fallback) continue;
        const from = explain.steps[i - 1]!.path;
        expect(step.why, `${url}: ${from}>${step.path}`).toMatch(handsOver[from]!);
        expect(explain.path, url).toContain(`${from}>${step.path}`);
        if (from !== 'histogram') continue;
        fromHistogram++;
        const labels = explain.queries.map((query) => query.label);
        expect(labels, url).toContain('histogram');
        expect(
          labels.some((label) => label === 'list' || label === 'keyed'),
          url,
        ).toBe(true);
      }
    }
    expect(fromHistogram).toBeGreaterThan(0);
  }, 120_000);
});
