/**
 * The page of test/integration/front-end-clients.test.ts, bundled by esbuild (WarpDrive's dev
 * build, which warns) and served from another origin than the API. `window.walks` holds what the
 * test calls: each walks a collection from its first link to the end by `links.next` only, as the
 * client does by itself (no link handler), and reports what it read.
 */
import { useRecommendedStore } from '@warp-drive/core';
import { setupSignals } from '@warp-drive/core/configure';
import { withDefaults } from '@warp-drive/core/reactive';
import { JSONAPICache } from '@warp-drive/json-api';

// No framework renders here: the no-op signals WarpDrive allows (no memoization, nothing to flush).
setupSignals(() => ({
  createSignal: () => ({}),
  consumeSignal: () => {},
  notifySignal: () => {},
  createMemo: (_object, _key, fn) => fn,
  willSyncFlushWatchers: () => false,
}));

/** A type as the test describes it from the mapping: its attributes and relationships. */
interface TypeSpec {
  readonly type: string;
  readonly attributes: readonly string[];
  readonly relationships: readonly { name: string; target: string; kind: 'resource' | 'hasMany' }[];
}

/** One resource as the walk read it: its id, and the ids its relationships point at. */
type Read = { id: string; links: Record<string, string | null | string[]> };

type Loose = Record<string, unknown> & { id: string };
type Page = { data: Loose[]; meta?: { count?: number }; next(): Promise<Page | null> };

function storeOf(types: readonly TypeSpec[]) {
  const Store = useRecommendedStore({
    cache: JSONAPICache,
    schemas: types.map(({ type, attributes, relationships }) =>
      withDefaults({
        type,
        fields: [
          ...attributes.map((name) => ({ name, kind: 'field' as const })),
          ...relationships.map(({ name, target, kind }) => {
            // A to-one is a `resource` field: its `data` is the record its linkage names, and
            // WarpDrive asks for no include (a `belongsTo` in links mode wants its target included);
            // async, as its `fetch()` loads it by its related link: a sync one warns at `data: null`.
            const options = { async: false as const, inverse: null, linksMode: true as const };
            return kind === 'resource'
              ? { name, kind: 'resource' as const, type: target, options: { async: true, inverse: null } }
              : { name, kind: 'hasMany' as const, type: target, options };
          }),
          // 5.8's Polaris field types leave out the `resource` kind its records implement.
        ] as unknown as Parameters<typeof withDefaults>[0]['fields'],
      }),
    ),
  });
  return new Store();
}

/** What a record's relationships point at, by id: null or an id for a to-one (`record.origin.data`), ids for a to-many (`record.concerns`). */
function linksOf(record: Loose, spec: TypeSpec): Read['links'] {
  const links: Read['links'] = {};
  for (const { name, kind } of spec.relationships) {
    const value = record[name] as { data: Loose | null } | Loose[];
    links[name] =
      kind === 'resource'
        ? ((value as { data: Loose | null }).data?.id ?? null)
        : [...(value as Loose[])].map((r) => r.id);
  }
  return links;
}

const walks = {
  /**
   * WarpDrive: one store; `first` of each type in `preload` walked first (so that linkage resolves
   * to loaded records, as an app with lookup lists does), then the walked type's, each page by
   * `doc.next()`; then the walk again with `reload`, which the browser's cache revalidates.
   */
  async warpDrive(options: { types: TypeSpec[]; preload: string[]; walked: string; base: string }) {
    const { types, preload, walked, base } = options;
    const store = storeOf(types);
    const walk = async (type: string, reload: boolean) => {
      let page: Page | null = (
        await store.request<Page>({
          url: `${base}/${type}?page%5Bsize%5D=5`,
          ...(reload && { cacheOptions: { reload: true } }),
        })
      ).content;
      const spec = types.find((t) => t.type === type)!;
      const read: Read[] = [];
      const count = page.meta?.count;
      for (let pages = 0; page && pages < 1000; pages++) {
        read.push(...page.data.map((record) => ({ id: record.id, links: linksOf(record, spec) })));
        page = await page.next();
      }
      return { count, read };
    };
    for (const type of preload) await walk(type, false);
    const first = await walk(walked, false);
    const again = await walk(walked, true);
    return { ...first, again: again.read.length };
  },

  /** Plain fetch: the collection by `links.next` from `url`, and each resource's relationship `data`. */
  async fetch(url: string) {
    const read: { id: string; relationships: Record<string, unknown> }[] = [];
    let next: string | null = url;
    let count: number | undefined;
    for (let pages = 0; next && pages < 1000; pages++) {
      const body = (await (await fetch(next, { headers: { accept: 'application/vnd.api+json' } })).json()) as {
        data: { id: string; relationships: Record<string, { data?: unknown }> }[];
        links: { next?: string | null };
        meta?: { count?: number };
      };
      count ??= body.meta?.count;
      for (const item of body.data)
        read.push({
          id: item.id,
          relationships: Object.fromEntries(Object.entries(item.relationships).map(([k, v]) => [k, v.data])),
        });
      next = body.links.next ?? null;
    }
    return { count, read };
  },
};

(globalThis as unknown as { walks: typeof walks }).walks = walks;
