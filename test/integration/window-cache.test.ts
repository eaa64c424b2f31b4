/**
 * The window cache changes where a page comes from, never what it says: every request is executed
 * twice, as the HTTP handler executes it (planRequest, then execute through a QueryRecorder), once
 * reading its page from the store and once cutting it from a cached whole list, and the two
 * documents (or errors) must be the same JSON, byte for byte. Over the request corpus of the
 * cross-store suite, walks by page number and by cursor both ways, ranges, jumps, related lists,
 * cursors the cached list can't place, and parents that don't exist; on the sample and on the
 * real-shapes fixture (embedded store), and on the sample in Virtuoso and in Jena when they are there. The query
 * counts show that the cached answers really came from the cache.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { histogramHints } from '../../src/cache/histogram-hints.js';
import { keptLists } from '../../src/cache/kept-lists.js';
import type { ListWindows } from '../../src/cache/list-windows.js';
import { templateMemo } from '../../src/cache/template-memo.js';
import { WindowCache } from '../../src/cache/window-cache.js';
import { type DatasetOptions, DEFAULT_DATASET_OPTIONS } from '../../src/dataset.js';
import { JsonApiError } from '../../src/errors/json-api-error.js';
import { execute } from '../../src/execute/execute.js';
import { loadMapping } from '../../src/mapping/load-mapping.js';
import type { Mapping } from '../../src/mapping/model.js';
import { planRequest } from '../../src/plan/plan-request.js';
import { encodeCursor } from '../../src/request/cursor.js';
import { parsePath } from '../../src/request/parse-path.js';
import { parseQuery } from '../../src/request/parse-query.js';
import { parseSort } from '../../src/request/parse-sort.js';
import { requestTarget } from '../../src/request/request-target.js';
import { requestLink } from '../../src/shape/page-links.js';
import { createOxigraphStore } from '../../src/store/oxigraph-store.js';
import { QueryRecorder } from '../../src/store/query-recorder.js';
import type { Store } from '../../src/store/store.js';
import { buildCorpus, dataPicker, type ValuePicker, walkCases } from '../support/corpus.js';
import {
  ENDPOINT_STORE_NAMES,
  openSampleStore,
  SAMPLE_MAPPING,
  type StoreName,
  sharedEndpoint,
} from '../support/each-store.js';
import { SAMPLE_DATA } from '../support/global-setup.js';

/** What the app remembers from one request to the next, with and without the window cache alike. */
const remembered = { hints: histogramHints(), memo: templateMemo() };

const CURSOR_PROFILE = 'https://jsonapi.org/profiles/ethanresnick/cursor-pagination';
/** Walks send hundreds of requests, each twice. */
/** The fetch query's head (sparql/fetch-query.ts): what a page cut from the cache still sends. */
const FETCH = /^SELECT \?s \?f \?o\b/;
const WALKS = { timeout: 180_000 };
const UNCOUNTED: DatasetOptions = { ...DEFAULT_DATASET_OPTIONS, count: false, page: { defaultSize: 4, maxSize: 10 } };

interface Case {
  readonly name: string;
  readonly mapping: string;
  readonly files: string[];
  readonly store: StoreName;
  /** How many relationships the walked sort paths cross (test/support/corpus.ts walkCases). */
  readonly walkDepth: number;
}
const CASES: Case[] = [
  { name: 'sample', mapping: SAMPLE_MAPPING, files: [SAMPLE_DATA], store: 'embedded', walkDepth: 1 },
  {
    name: 'real-shapes',
    mapping: 'test/fixtures/real-shapes.yaml',
    files: ['test/fixtures/real-shapes.trig'],
    store: 'embedded',
    walkDepth: 0,
  },
  ...ENDPOINT_STORE_NAMES.filter((store) => !('skip' in sharedEndpoint(store))).map((store) => ({
    name: 'sample',
    mapping: SAMPLE_MAPPING,
    files: [SAMPLE_DATA],
    store,
    walkDepth: 1,
  })),
];

for (const spec of CASES) {
  describe(`[${spec.store}] ${spec.name}: pages from the window cache are the pages from the store`, () => {
    let mapping: Mapping;
    let store: Store;
    let picker: ValuePicker;
    let windows: ListWindows;
    let cacheOf: WindowCache;

    beforeAll(async () => {
      mapping = await loadMapping(spec.mapping);
      picker = dataPicker(spec.files, mapping);
      store =
        spec.store === 'embedded'
          ? await createOxigraphStore({ files: spec.files })
          : await openSampleStore(spec.store);
      cacheOf = new WindowCache();
      windows = cacheOf.forDataset(spec.name, Number.POSITIVE_INFINITY)!;
    });
    afterAll(() => store?.close());
    /** The store the window cache reads whole lists from, in the background: it counts them. */
    let wholeReads = 0;
    const wholeStore: Store = new Proxy({} as Store, {
      get: (_, name: keyof Store) =>
        name === 'select'
          ? (text: string, options: Parameters<Store['select']>[1]) => {
              wholeReads++;
              return store.select(text, options);
            }
          : store[name],
    });

    /** A request executed as the handler does; its document (or error) as JSON, and the queries it sent. */
    async function answer(target: string, profiles: string[], options: DatasetOptions, cache?: ListWindows) {
      const { path, query } = requestTarget(target);
      const texts: string[] = [];
      const recorder = new QueryRecorder({
        ...store,
        select: (text, options) => {
          texts.push(text);
          return store.select(text, options);
        },
      });
      const page = { path, query };
      const related = path.replace(/\/(links|relationships)\/([^/]+)$/, '/$2');
      try {
        const plan = planRequest(mapping, { route: parsePath(path), query: parseQuery(query), profiles }, options);
        const links = { linkBase: '', self: requestLink(page), related, page };
        const document = await execute(mapping, plan, {
          store: recorder.store,
          links,
          kept: cache && keptLists(cache, () => wholeStore),
          ...remembered,
        });
        return { json: JSON.stringify(document), queries: recorder.queries, texts };
      } catch (error) {
        if (!(error instanceof JsonApiError)) throw error;
        return {
          json: JSON.stringify({ status: error.status, errors: error.errors }),
          queries: recorder.queries,
          texts,
        };
      }
    }

    /** The request without and with the cache: the same JSON; the answer, and each one's query count. */
    async function same(target: string, profiles: string[] = [], options = DEFAULT_DATASET_OPTIONS) {
      const fromStore = await answer(target, profiles, options);
      // The first page of a list not kept yet is read from the store while the list is read in the
      // background: the same answer; once that reading settled, the page is cut from the list.
      const before = wholeReads;
      const first = await answer(target, profiles, options, windows);
      expect(first.json, `${target} ${profiles.join(' ')} (list not kept yet)`).toBe(fromStore.json);
      await cacheOf.settled();
      const read = wholeReads - before;
      const cached = await answer(target, profiles, options, windows);
      expect(cached.json, `${target} ${profiles.join(' ')}`).toBe(fromStore.json);
      return {
        page: JSON.parse(fromStore.json) as Answer,
        store: fromStore.queries,
        cached: cached.queries,
        cachedTexts: cached.texts,
        wholeReads: read,
      };
    }

    /**
     * `same`, for a page of a list already cached: it reads nothing of the list from the store
     * (its only queries fetch the page's attributes), where the store read the list at least once.
     */
    async function cut(target: string, profiles: string[] = []) {
      const result = await same(target, profiles);
      const listQueries = result.cachedTexts.filter((text) => !FETCH.test(text));
      expect(listQueries, `${target}: list queries with the cache`).toEqual([]);
      // Not more than from the store: a related page that is not full reads its values with it there, in one query.
      expect(result.cached, `${target}: queries with the cache`).toBeLessThanOrEqual(result.store);
      return result.page;
    }

    /** Follows `next` (or `prev`) from `target` to the end, each page cut from the cache. */
    async function walk(target: string, direction: 'next' | 'prev', limit: number) {
      const pages: { target: string; page: Answer }[] = [];
      for (let at: string | null | undefined = target; at; at = pages.at(-1)!.page.links![direction]) {
        expect(pages.length, `${target}: a walk of at most ${limit} pages`).toBeLessThan(limit);
        pages.push({ target: at, page: await cut(at, [CURSOR_PROFILE]) });
      }
      return pages;
    }

    it('every request of the corpus, plain, with the cursor profile, and uncounted', WALKS, async () => {
      for (const { kind, url } of buildCorpus(mapping, picker)) {
        await same(url);
        if (kind === 'resource') continue;
        await same(url, [CURSOR_PROFILE]);
        await same(url, [], UNCOUNTED);
      }
    });

    it('walks every sort path to the end: by page number, by cursor forward, then back', WALKS, async () => {
      for (const { type, sort, size } of walkCases(mapping, picker, spec.walkDepth)) {
        const base = `/${type}?sort=${sort}&page[size]=${size}`;
        const { count } = (await same(base)).page.meta!; // reads the list into the cache
        const pages = Math.ceil(count! / size);
        for (let n = 0; n <= pages; n++) await cut(`${base}&page[number]=${n}`);
        const forward = await walk(base, 'next', pages + 2);
        await walk(forward.at(-1)!.target, 'prev', pages + 2);
      }
    });

    it('ranges (cut short too), jumps by page[number], and uncounted cursor pages', WALKS, async () => {
      for (const { type, sort, size } of walkCases(mapping, picker, 0)) {
        const base = `/${type}?sort=${sort}&page[size]=${size}`;
        await same(base);
        const cursors = cursorsOf(await cut(base, [CURSOR_PROFILE]));
        if (cursors.length < 3) continue;
        const [a, b] = [encodeURIComponent(cursors[0]!), encodeURIComponent(cursors.at(-1)!)];
        await cut(`${base}&page[after]=${a}&page[before]=${b}`, [CURSOR_PROFILE]);
        await cut(`/${type}?sort=${sort}&page[size]=1&page[after]=${a}&page[before]=${b}`, [CURSOR_PROFILE]);
        await cut(`${base}&page[before]=${b}`, [CURSOR_PROFILE]);
        await cut(`${base}&page[number]=1`, [CURSOR_PROFILE]);
        await same(`/${type}?sort=${sort}&page[after]=${a}`, [CURSOR_PROFILE], UNCOUNTED);
        await same(`/${type}?sort=${sort}&page[before]=${b}`, [CURSOR_PROFILE], UNCOUNTED);
      }
    });

    it("a cursor the cached list can't place goes to the store: one from another filter, one with other key values", async () => {
      const type = [...mapping.types.values()].find((t) => t.attributes.size > 0 && picker.members(t.name).length > 2)!;
      const attribute = [...type.attributes.keys()].find((name) =>
        picker.members(type.name).some((m) => picker.memberValues(type.name, m.iri, name).length > 0),
      )!;
      const base = `/${type.name}?sort=${attribute}&page[size]=2`;
      const [first, second] = cursorsOf(await same(base, [CURSOR_PROFILE]).then((r) => r.page));
      const filtered = `${base}&filter[id]=${picker.members(type.name).at(-1)!.id}`;
      await same(filtered);
      for (const cursor of [first!, second!]) {
        const outside = await same(`${filtered}&page[after]=${encodeURIComponent(cursor)}`, [CURSOR_PROFILE]);
        expect(outside.cached, 'the store answered').toBe(outside.store);
      }
      // A member that has a value, given none: the store places it (last), the cache can't.
      const holder = picker
        .members(type.name)
        .find((m) => picker.memberValues(type.name, m.iri, attribute).length > 0)!;
      const list = { type, sort: parseSort(attribute, mapping, type) };
      const odd = encodeURIComponent(encodeCursor(list, { values: [null], id: holder.id, inclusive: false }));
      for (const side of ['after', 'before']) {
        const other = await same(`${base}&page[${side}]=${odd}`, [CURSOR_PROFILE]);
        expect(other.cached, 'the store answered').toBe(other.store);
      }
    });

    /** The member with the most targets (/concepts/01/narrower-concepts), and the first member. */
    const parentsOf = (type: string, relationship: string) => {
      const members = picker.members(type);
      const targets = (m: { iri: string }) => picker.related(type, m.iri, relationship).length;
      const fullest = members.reduce((best, m) => (targets(m) > targets(best) ? m : best), members[0]!);
      return [...new Set([fullest, members[0]!])].filter(Boolean);
    };

    it('related lists and relationship linkage, by page and by cursor both ways', async () => {
      for (const type of mapping.types.values())
        for (const relationship of [...type.relationships.values()].filter((r) => r.cardinality === 'many'))
          for (const parent of parentsOf(type.name, relationship.name))
            for (const shape of [relationship.name, `links/${relationship.name}`]) {
              const base = `/${type.name}/${parent.id}/${shape}?page[size]=2`;
              await same(base);
              await cut(`${base}&page[number]=1`);
              const forward = await walk(base, 'next', 50);
              await walk(forward.at(-1)!.target, 'prev', 50);
            }
    });

    it('a parent that does not exist: the same 404 by page and by cursor, then from the cache with no query', async () => {
      const type = [...mapping.types.values()].find((t) =>
        [...t.relationships.values()].some((r) => r.cardinality === 'many'),
      );
      if (!type) return;
      const relationship = [...type.relationships.values()].find((r) => r.cardinality === 'many')!;
      // An id of the type's syntax that no member has: one the store is asked about, and answers 404.
      const ids = new Set(picker.members(type.name).map((m) => m.id));
      const candidates = [...ids].flatMap((id) => ['30', '61', '7a'].map((end) => id.slice(0, -2) + end));
      let missing: string | undefined;
      for (const id of candidates.filter((c) => !ids.has(c))) {
        const probe = await answer(`/${type.name}/${id}/${relationship.name}`, [], DEFAULT_DATASET_OPTIONS);
        if (probe.queries > 0 && JSON.parse(probe.json).status === 404) {
          missing = id;
          break;
        }
      }
      expect(missing, 'an id the store says is missing').toBeDefined();
      const related = `/${type.name}/${missing}/${relationship.name}`;
      const first = await same(related);
      expect(first.page.status, related).toBe(404);
      expect(first.wholeReads, 'the list query alone, in the background').toBe(1);
      expect(first.cached, 'then none: the list says its parent is missing').toBe(0);
      // The relationship URL lists the same: its 404 is cached already, by page or by cursor.
      for (const target of [`/${type.name}/${missing}/links/${relationship.name}`, `${related}?page[size]=1`])
        for (const profiles of [[], [CURSOR_PROFILE]]) {
          const again = await same(target, profiles);
          expect(again.page.status, target).toBe(404);
          expect(again.cached, `${target}: no query`).toBe(0);
        }
    });

    it('requests for a list not cached yet share one reading of it, in the background', async () => {
      const cache = new WindowCache();
      const fresh = cache.forDataset(spec.name, Number.POSITIVE_INFINITY)!;
      const type = [...mapping.types.values()][0]!;
      const pages = (n: number) =>
        answer(
          `/${type.name}?fields[${type.name}]=&page[size]=1&page[number]=${n}`,
          [],
          DEFAULT_DATASET_OPTIONS,
          fresh,
        );
      const wholeBefore = wholeReads;
      const first = await Promise.all([0, 1, 2, 3, 4].map(pages));
      await cache.settled();
      // None waited: each page came from the store (its page query and count), and the whole list
      // was read once beside them.
      for (const a of first) expect(a.queries).toBeGreaterThan(0);
      expect(wholeReads - wholeBefore, 'one whole-list reading').toBe(1);
      // No attribute shown, so no fetch: once the list is kept, the five pages send no query.
      const after = await Promise.all([0, 1, 2, 3, 4].map(pages));
      expect(after.reduce((sum, a) => sum + a.queries, 0)).toBe(0);
      expect(wholeReads - wholeBefore).toBe(1);
    });
  });
}

/** A document or an error, as JSON. */
interface Answer {
  status?: number;
  links?: Record<string, string | null>;
  data?: unknown;
  meta?: { count?: number };
}

/** The cursors of a cursor page's items. */
function cursorsOf(page: Answer): string[] {
  return (page.data as { meta: { page: { cursor: string } } }[]).map((item) => item.meta.page.cursor);
}
