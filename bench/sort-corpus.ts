import type { Mapping } from '../src/mapping/model.js';
import { sortablePaths } from '../test/support/sort-cases.js';
import { get } from './measure.js';
import { percentile } from './stats.js';

/**
 * The sort corpus (issue 27): every sortable path of the mapping up to two hops, both directions,
 * on each collection, first page and a deep page, so that no sort hides a cliff behind the bench's
 * fixed shapes. Generated from the mapping: a new attribute or relationship is in it at once.
 */

/** The deep page of a corpus order (`page[number]`), or the last page of a shorter list. */
export const DEEP_PAGE = 100;
/** The default page size: the deep page's offset is `DEEP_PAGE × PAGE_SIZE` (2,000). */
const PAGE_SIZE = 20;
/** Over this per page, an order is a cliff on an endpoint (Virtuoso): the target. */
export const ENDPOINT_LIMIT_MS = 1_000;
/** Over this for its first read, an order is a cliff on the embedded store; a 504 always is. */
export const EMBEDDED_FIRST_READ_LIMIT_MS = 5_000;

/** One order of the corpus: a collection and a `sort` value. */
export interface CorpusOrder {
  readonly type: string;
  readonly sort: string;
}

/** One page of one order: the first request (which may read and cache the whole list) and the repeats. */
export interface CorpusPage {
  readonly page: number;
  readonly first: { readonly ms: number; readonly status: number };
  /** Median of the later requests of the same URL; undefined when the first did not answer 200. */
  readonly medianMs?: number;
  readonly repeats: number;
  /** The store's time of the last repeat (or of the first read), from `Server-Timing`. */
  readonly storeMs?: number;
}

export interface CorpusResult extends CorpusOrder {
  readonly pages: readonly CorpusPage[];
  /** Why the order misses its target, when it does (`first read 7.1 s`, `504`, `page 100: 2.8 s`). */
  readonly cliff?: string;
}

/**
 * Every order of the corpus: per collection (`types`, default every type), `id`, each attribute
 * and each path through one or two relationships, ascending then descending.
 *
 * @example sortCorpusOrders(mapping, ['trade-activities']) // [{ type: 'trade-activities', sort: 'id' }, { …, sort: '-id' }, …]
 */
export function sortCorpusOrders(mapping: Mapping, types?: readonly string[]): CorpusOrder[] {
  const chosen = types ?? [...mapping.types.keys()];
  return chosen.flatMap((name) => {
    const type = mapping.types.get(name);
    if (!type) throw new Error(`--sort-corpus: no type '${name}' in the mapping`);
    return sortablePaths(mapping, type, 2).flatMap((path) => [path, `-${path}`].map((sort) => ({ type: name, sort })));
  });
}

/**
 * Measures one order on the server at `base`: its first page, then the deep page (page 100, or
 * the list's last page when it has fewer), each read once (the first read) and `repeats` more
 * times (their median). A first read that fails (a 504) is not repeated. `store` decides the
 * target: an endpoint's pages must each take at most 1 s (the median: each page is read anew);
 * the embedded store's first read at most 5 s (it reads the whole list into the window cache),
 * and no 504.
 *
 * @example await measureOrder('http://127.0.0.1:3000', { type: 'trade-activities', sort: 'amount.value' }, 'virtuoso', 3)
 */
export async function measureOrder(
  base: string,
  order: CorpusOrder,
  store: 'embedded' | 'virtuoso',
  repeats: number,
): Promise<CorpusResult> {
  const url = (page: number) => `/${order.type}?sort=${encodeURIComponent(order.sort)}&page%5Bnumber%5D=${page}`;
  const pages: CorpusPage[] = [];
  let deep = DEEP_PAGE;
  for (const page of [0, DEEP_PAGE]) {
    const number = page === 0 ? 0 : deep;
    const first = await get(base, url(number), 'application/vnd.api+json');
    if (page === 0 && first.status === 200) {
      const count = (first.body as { meta?: { count?: number } }).meta?.count;
      if (typeof count === 'number') deep = Math.min(DEEP_PAGE, Math.max(0, Math.ceil(count / PAGE_SIZE) - 1));
    }
    const times: number[] = [];
    let storeMs = first.timing?.ms;
    for (let i = 0; first.status === 200 && i < repeats; i++) {
      const again = await get(base, url(number), 'application/vnd.api+json');
      if (again.status !== 200) break;
      times.push(again.ms);
      storeMs = again.timing?.ms ?? storeMs;
    }
    pages.push({
      page: number,
      first: { ms: first.ms, status: first.status },
      ...(times.length > 0 && { medianMs: percentile(times, 50) }),
      repeats: times.length,
      ...(storeMs !== undefined && { storeMs }),
    });
    if (first.status !== 200) break;
  }
  const cliff = cliffOf(pages, store);
  return { ...order, pages, ...(cliff && { cliff }) };
}

/** Why `pages` miss the store's target, or undefined when they meet it. */
export function cliffOf(pages: readonly CorpusPage[], store: 'embedded' | 'virtuoso'): string | undefined {
  const reasons = pages.flatMap((p) => {
    if (p.first.status !== 200) return [`page ${p.page}: ${p.first.status}`];
    if (store === 'embedded')
      return p.first.ms > EMBEDDED_FIRST_READ_LIMIT_MS ? [`page ${p.page}: first read ${seconds(p.first.ms)}`] : [];
    const perPage = p.medianMs ?? p.first.ms;
    return perPage > ENDPOINT_LIMIT_MS ? [`page ${p.page}: ${seconds(perPage)}`] : [];
  });
  return reasons.length > 0 ? reasons.join('; ') : undefined;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
