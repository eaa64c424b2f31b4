import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BenchDataset } from '../../bench/datasets.js';
import { SHAPES } from '../../bench/shapes.js';
import { writeDataset } from '../../scripts/generate.js';
import { createApp } from '../../src/app.js';
import type { PlanNode } from '../../src/execute/describe-list.js';
import { PATH_RULES } from '../../src/execute/paths/plan-list-read.js';
import { loadMapping } from '../../src/mapping/load-mapping.js';
import type { Mapping } from '../../src/mapping/model.js';
import { decorateStore } from '../../src/store/decorate-store.js';
import { createOxigraphStore } from '../../src/store/oxigraph-store.js';
import type { Store } from '../../src/store/store.js';
import { ApiClient, queryCount } from '../support/api-client.js';
import { describeStores, openStoreWith, SAMPLE_MAPPING } from '../support/each-store.js';
import { Oracle } from '../support/oracle.js';
import { singleFieldCases } from '../support/sort-cases.js';

/*
 * The plan is complete data before anything runs: `?explain-plan=dry` shows every node of a
 * request's plan, conditional ones included, and sends no query; the run's trace
 * (`?explain-plan`) is a path through that plan, with the same names, and every query whose
 * text no earlier answer decides is sent with the dry plan's text. On every bench shape
 * (bench/shapes.ts), a request per rule of PATH_RULES, and the declared fallbacks forced.
 */
const ACTIVITIES = 300;
const CURSOR_PROFILE = 'https://jsonapi.org/profiles/ethanresnick/cursor-pagination';
const CURSOR_ACCEPT = `application/vnd.api+json; profile="${CURSOR_PROFILE}"`;

interface Step {
  path: string;
  why: string;
  fallback?: true;
}
interface Analysed {
  plan: PlanNode[];
  path: string;
  steps: Step[];
  queries: { label: string; text: string }[];
}

/** A store that counts the queries it is sent. */
function counting(store: Store): { store: Store; sent: () => number } {
  let sent = 0;
  const counted = decorateStore(store, {
    select: (query, options, next) => {
      sent++;
      return next(query, options);
    },
  });
  return { store: counted, sent: () => sent };
}

/**
 * Walks the trace through the plan: each plan step in order, taken (its name is the next step's)
 * or skipped when conditional; within a taken node, the steps it adds (the kept list's patch) and
 * its declared fallback, which a `fallback` step must be. Returns the nodes taken; fails on a
 * step the plan does not hold.
 */
function walk(plan: readonly PlanNode[], steps: readonly Step[], where: string): PlanNode[] {
  const taken: PlanNode[] = [];
  let i = 0;
  for (const node of plan) {
    const step = steps[i];
    if (step?.path !== node.name || step.fallback) {
      expect(node.when, `${where}: the plan's ${node.name} is not taken, so it must be conditional`).toBeDefined();
      continue;
    }
    i++;
    let current = node;
    taken.push(current);
    for (;;) {
      const next = steps[i];
      const added = current.adds?.find((a) => a.name === next?.path);
      if (next && !next.fallback && added) {
        i++;
        continue;
      }
      if (!next?.fallback) break;
      expect(current.fallback?.name, `${where}: ${current.name}>${next.path}`).toBe(next.path);
      current = current.fallback!;
      taken.push(current);
      i++;
    }
  }
  expect(
    steps.slice(i).map((s) => s.path),
    `${where}: steps the plan does not hold`,
  ).toEqual([]);
  return taken;
}

/** Every node of a plan, conditional ones included. */
const nodesOf = (nodes: readonly PlanNode[]): PlanNode[] =>
  nodes.flatMap((n) => [n, ...nodesOf(n.adds ?? []), ...nodesOf(n.fallback ? [n.fallback] : [])]);

/**
 * Asks `url` dry, then analysed: the dry answer sent no query and shows the plan the run shows,
 * the run's steps are a path through it, and each unconditional query with a text was sent so.
 */
async function compare(
  api: ApiClient,
  sent: () => number,
  url: string,
  accept = 'application/vnd.api+json',
): Promise<string> {
  const join = url.includes('?') ? '&' : '?';
  const before = sent();
  const dry = await api.get(`${url}${join}explain-plan=dry`, { Accept: accept });
  expect(dry.status, url).toBe(200);
  expect(sent() - before, `${url}: a dry plan sends nothing`).toBe(0);
  expect(queryCount(dry), url).toBe(0);
  const plan = dry.body.meta.explain.plan as PlanNode[];
  expect(dry.body.meta.explain.dry).toBe(true);
  expect(dry.body.data, url).toBeUndefined();
  const run = await api.get(`${url}${join}explain-plan`, { Accept: accept });
  expect(run.status, url).toBe(200);
  const analysed = run.body.meta.explain as Analysed;
  expect(analysed.plan, `${url}: the dry plan is the run's`).toEqual(plan);
  const taken = walk(plan, analysed.steps, url);
  const texts = new Set(analysed.queries.map((q) => q.text));
  for (const node of taken)
    for (const query of node.queries)
      if (query.text !== undefined && query.when === undefined)
        expect(texts.has(query.text), `${url}: ${node.name}'s ${query.label} is sent as planned`).toBe(true);
  for (const node of nodesOf(plan)) expect(node.why.length, node.name).toBeGreaterThan(5);
  return analysed.path;
}

describeStores(
  `the dry plan and the run's trace, ${ACTIVITIES} generated activities`,
  (storeName) => {
    let dir: string;
    let store: Store;
    let mapping: Mapping;
    let oracle: Oracle;
    let plain: ApiClient;
    let cached: ApiClient;
    let sent: () => number;
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'sparql-jsonapi-plan-trace-'));
      const file = join(dir, 'generated.nt');
      await writeDataset({ activities: ACTIVITIES, seed: 11 }, file);
      const counted = counting(await openStoreWith(storeName, [file]));
      store = counted.store;
      sent = counted.sent;
      mapping = await loadMapping(SAMPLE_MAPPING);
      oracle = Oracle.fromFile(file, mapping);
      const dataset = { name: 'generated', mapping, store, linkBase: '' };
      const forever = Number.POSITIVE_INFINITY;
      plain = await ApiClient.listen(createApp({ datasets: [{ ...dataset, options: { explain: true } }] }));
      cached = await ApiClient.listen(
        createApp({ datasets: [{ ...dataset, options: { explain: true, windowCacheTtlSeconds: forever } }] }),
      );
    });
    afterAll(async () => {
      await plain?.close();
      await cached?.close();
      await store?.close();
      await rm(dir, { recursive: true, force: true });
    });

    it('every bench shape: the trace is a path through the dry plan, the same names and texts', async () => {
      const activities = oracle.members('trade-activities');
      const withConcepts = activities.filter((a) => oracle.related('trade-activities', a.iri, 'concerns').length > 0);
      const codes = oracle.members('countries').flatMap((c) => {
        const code = oracle.attributes('countries', c.iri)['iso-code'];
        return typeof code === 'string' ? [code] : [];
      });
      const dataset = {
        size: '10k',
        file: '',
        triples: 0,
        generatedMs: 0,
        activities: activities.length,
        activityIds: withConcepts.slice(0, 3).map((a) => a.id),
        countryCodes: codes.slice(0, 2),
      } as BenchDataset;
      const get = async (path: string, accept?: string) => {
        const { status, body } = await plain.get(path, { Accept: accept ?? 'application/vnd.api+json' });
        return { status, body };
      };
      for (const shape of SHAPES) {
        const urls = (await shape.urls({ dataset, get })).slice(0, 2);
        expect(urls.length, shape.key).toBeGreaterThan(0);
        // Twice each: the second plans with the hint the first left (the histogram's guessed page).
        for (const url of urls) for (const _ of [1, 2]) await compare(plain, sent, url, shape.accept);
      }
    }, 180_000);

    it('a request per rule of PATH_RULES, and the declared fallbacks forced', async () => {
      const [activity] = oracle
        .members('trade-activities')
        .filter((a) => oracle.related('trade-activities', a.iri, 'concerns').length > 0);
      const first = await plain.get('/concepts?sort=id&page[size]=5', { Accept: CURSOR_ACCEPT });
      const nextUrl = new URL(first.body.links.next, 'http://localhost');
      const next = nextUrl.pathname + nextUrl.search;
      const byLabel = await plain.get('/trade-activities?sort=concerns.label&page[size]=50');
      const last = Math.ceil(byLabel.body.meta.count / 50) - 1;
      const seen = new Set<string>();
      const ask = async (client: ApiClient, url: string, accept?: string) => {
        const path = await compare(client, sent, url, accept);
        for (const name of path.split(/[+>]/)) seen.add(name);
        return path;
      };
      // window-cache: a page whose list is not kept yet is its fallback's, while the list is read
      // whole in the background; once it is read, every page is cut from it.
      expect(await ask(cached, '/trade-activities?sort=-financial-year&page[number]=2')).toMatch(
        /^window-cache>histogram/,
      );
      await cached.listsRead();
      expect(await ask(cached, '/trade-activities?sort=-financial-year&page[number]=2')).toMatch(
        /^window-cache(\+fetch)?$/,
      );
      expect(await ask(plain, '/trade-activities?page[number]=3')).toMatch(/^histogram/);
      expect(await ask(plain, `/trade-activities/${activity!.id}/concerns`)).toMatch(/^related-page/);
      expect(await ask(plain, `/trade-activities/${activity!.id}/links/concerns`)).toMatch(/^related-list/);
      expect(await ask(plain, '/trade-activities?sort=concerns.label')).toMatch(/^keyed-window/);
      // The last page reaches past the members that have a label: the keyed window's fallback.
      expect(await ask(plain, `/trade-activities?sort=concerns.label&page[size]=50&page[number]=${last}`)).toMatch(
        /^keyed-window>list-query/,
      );
      expect(await ask(plain, '/trade-activities?sort=id')).toMatch(/^list-query/);
      expect(await ask(plain, next, CURSOR_ACCEPT)).toMatch(/^keyset/);
      for (const rule of PATH_RULES) expect(seen, rule.path).toContain(rule.path);
    }, 120_000);
  },
  ['embedded', 'virtuoso'],
);

// Data that breaks its mapping on purpose: the histogram's counts don't add up, and its declared fallback reads the page.
describe('[embedded] the histogram’s fallback, planned and taken, real-shapes', () => {
  let store: Store;
  let sent: () => number;
  let api: ApiClient;
  beforeAll(async () => {
    const mapping = await loadMapping('test/fixtures/real-shapes.yaml');
    const counted = counting(await createOxigraphStore({ files: ['test/fixtures/real-shapes.trig'] }));
    store = counted.store;
    sent = counted.sent;
    api = await ApiClient.listen(
      createApp({ datasets: [{ name: 'real-shapes', mapping, store, linkBase: '', options: { explain: true } }] }),
    );
  });
  afterAll(async () => {
    await api?.close();
    await store?.close();
  });

  it('each sort: the trace is a path through the dry plan; the histogram falls back somewhere', async () => {
    const mapping = await loadMapping('test/fixtures/real-shapes.yaml');
    const paths = new Set<string>();
    for (const { type, sort } of singleFieldCases(mapping))
      paths.add(await compare(api, sent, `/${type}?sort=${encodeURIComponent(sort)}`));
    expect([...paths].some((path) => path.startsWith('histogram>'))).toBe(true);
  }, 120_000);
});
