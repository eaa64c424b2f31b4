import type { BenchDataset } from './datasets.js';
import { muPath } from './peer.js';

/** `Accept` that asks for the cursor pagination profile (the server then gives cursors). */
export const CURSOR_ACCEPT =
  'application/vnd.api+json; profile="https://jsonapi.org/profiles/ethanresnick/cursor-pagination"';
export const JSON_API = 'application/vnd.api+json';

/** What a shape needs to build its URLs: the data, and a GET to the server under test (for cursors). */
export interface ShapeContext {
  readonly dataset: BenchDataset;
  get(path: string, accept?: string): Promise<{ status: number; body: unknown }>;
}

/** One request shape of the benchmark: the URLs it rotates through, and what it costs by the targets. */
export interface Shape {
  readonly key: string;
  readonly label: string;
  readonly accept: string;
  /** Include levels: each may add one query to the budget (targets: 2, +1 for a count, +1 per include level). */
  readonly includeLevels: number;
  /** The rotation of request paths; throws {@link NotAvailable} when the server can't give one (a feature not merged yet). */
  urls(context: ShapeContext): Promise<string[]>;
  /** Measured after the other shapes: its requests may outlast their time limit and leave work behind. */
  readonly last?: boolean;
  /**
   * Each request to the server takes the next URL of `urls`, so that none is sent twice (until
   * they run out and start over); the floor replays a sample spread over them.
   */
  readonly fresh?: boolean;
  /** Why a 200 answer is not yet what the shape measures (a parameter accepted but not acted on), or undefined. */
  lacks?(body: unknown): string | undefined;
  /**
   * The same request to the peer (mu-cl-resources): its path for one of `urls` (default: the same
   * path), or why the peer has no such request.
   */
  readonly peer?: ((path: string) => string) | { readonly na: string };
}

/**
 * The peer's path for a shape's path, or why it has none.
 *
 * @example peerPathOf(SHAPES[0]!, '/trade-activities/1') // '/trade-activities/1'
 */
export function peerPathOf(shape: Shape, path: string): string | { readonly na: string } {
  if (shape.peer === undefined) return path;
  return typeof shape.peer === 'function' ? shape.peer(path) : shape.peer;
}

/** A shape this server can't answer yet; reported as n/a with the reason. */
export class NotAvailable extends Error {
  override name = 'NotAvailable';
}

const PAGES = 10;
const q = (name: string) => name.replaceAll('[', '%5B').replaceAll(']', '%5D');
const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);
const byId =
  (template: (id: string) => string) =>
  async ({ dataset }: ShapeContext) =>
    dataset.activityIds.map(template);
const pages = (query: string) => async () =>
  range(0, PAGES).map((n) => `/trade-activities?${query}${query ? '&' : ''}${q('page[number]')}=${n}`);

/**
 * The page the deep-page shapes start at: 500 (offset 10,000 with the default size of 20) when
 * the dataset is large enough (1M), else as deep as it goes, 10 pages before the end.
 */
export function deepPage(activities: number): number {
  return Math.max(0, Math.min(500, Math.floor(activities / 20) - 10));
}
const DEEP_ROTATION = 5;

/** Where the never-seen shape starts counting pages (wrapped into the dataset's pages). */
const NEVER_SEEN_START = 1000;

/**
 * Every page number of a dataset's activities (20 per page) once, from page 1000 up, wrapping
 * round past the last page: at 1M, pages 1000 to 3499 then 0 to 999; smaller datasets have fewer
 * pages, so they start where 1000 wraps to.
 *
 * @example neverSeenPages(70_000).slice(0, 2) // [1000, 1001]
 */
export function neverSeenPages(activities: number): number[] {
  const pages = Math.max(1, Math.ceil(activities / 20));
  return Array.from({ length: pages }, (_, i) => (NEVER_SEEN_START + i) % pages);
}

/**
 * A function that gives the items of `items` one after the other, starting over after the last.
 *
 * @example const next = sequence(['a', 'b']); [next(), next(), next()] // ['a', 'b', 'a']
 */
export function sequence<T>(items: readonly T[]): () => T {
  let i = 0;
  return () => items[i++ % items.length]!;
}

/**
 * At most `n` items spread evenly over `items`, the first one first.
 *
 * @example spread([0, 1, 2, 3, 4, 5], 3) // [0, 2, 4]
 */
export function spread<T>(items: readonly T[], n: number): T[] {
  if (items.length <= n) return [...items];
  return Array.from({ length: n }, (_, i) => items[Math.floor((i * items.length) / n)]!);
}

export const SHAPES: readonly Shape[] = [
  {
    key: 'single',
    label: 'single resource',
    accept: JSON_API,
    includeLevels: 0,
    urls: byId((id) => `/trade-activities/${id}`),
  },
  { key: 'collection', label: 'collection, default order', accept: JSON_API, includeLevels: 0, urls: pages('') },
  {
    key: 'sorted',
    label: 'sorted by attribute',
    accept: JSON_API,
    includeLevels: 0,
    urls: pages('sort=financial-year'),
  },
  {
    key: 'sorted-to-many',
    label: 'sorted by concerns.label',
    accept: JSON_API,
    includeLevels: 0,
    urls: pages('sort=concerns.label'),
    last: true,
  },
  {
    key: 'deep-offset',
    label: 'deep page, offset',
    accept: JSON_API,
    includeLevels: 0,
    urls: async ({ dataset }) =>
      range(deepPage(dataset.activities), DEEP_ROTATION).map((n) => `/trade-activities?${q('page[number]')}=${n}`),
  },
  {
    key: 'deep-cursor',
    label: 'deep page, cursor',
    accept: CURSOR_ACCEPT,
    includeLevels: 0,
    peer: { na: 'mu-cl-resources has no cursor pages' },
    urls: async (context) =>
      Promise.all(
        range(deepPage(context.dataset.activities), DEEP_ROTATION).map(
          async (n) => `/trade-activities?${q('page[after]')}=${encodeURIComponent(await cursorBefore(context, n))}`,
        ),
      ),
  },
  {
    key: 'never-seen',
    label: 'page never seen before',
    accept: JSON_API,
    includeLevels: 0,
    fresh: true,
    urls: async ({ dataset }) =>
      neverSeenPages(dataset.activities).map((n) => `/trade-activities?${q('page[number]')}=${n}`),
  },
  {
    key: 'related',
    label: 'related to-many',
    accept: JSON_API,
    includeLevels: 0,
    urls: byId((id) => `/trade-activities/${id}/concerns`),
  },
  {
    key: 'relationship',
    label: 'relationship linkage',
    accept: JSON_API,
    includeLevels: 0,
    urls: byId((id) => `/trade-activities/${id}/links/concerns`),
  },
  {
    key: 'include',
    label: 'include=concerns',
    accept: JSON_API,
    includeLevels: 1,
    urls: pages('include=concerns'),
    lacks: (body) =>
      Array.isArray((body as { included?: unknown }).included)
        ? undefined
        : 'the answer has no `included` member (include not merged yet?)',
  },
  {
    key: 'filtered',
    label: 'filtered page with count',
    accept: JSON_API,
    includeLevels: 0,
    peer: muPath,
    urls: async ({ dataset }) =>
      dataset.countryCodes.map((code) => `/trade-activities?${q('filter[origin.country.iso-code][eq]')}=${code}`),
  },
];

/**
 * The cursor of the last resource before page `n` (default size): that resource's
 * `meta.page.cursor` on page n-1, asked for with the cursor profile.
 */
async function cursorBefore(context: ShapeContext, n: number): Promise<string> {
  if (n === 0) throw new NotAvailable('no page before page 0');
  const path = `/trade-activities?${q('page[number]')}=${n - 1}`;
  const { status, body } = await context.get(path, CURSOR_ACCEPT);
  if (status !== 200) throw new NotAvailable(`${path} with the cursor profile answered ${status}${errorDetail(body)}`);
  const items = (body as { data?: { meta?: { page?: { cursor?: unknown } } }[] }).data ?? [];
  const cursor = items.at(-1)?.meta?.page?.cursor;
  if (typeof cursor !== 'string')
    throw new NotAvailable('resources carry no meta.page.cursor (cursor pagination not merged yet?)');
  return cursor;
}

/** `: <detail>` of a JSON:API error document, or ''. */
export function errorDetail(body: unknown): string {
  const error = (body as { errors?: { detail?: string; title?: string }[] } | undefined)?.errors?.[0];
  return error ? `: ${error.detail ?? error.title ?? ''}` : '';
}
