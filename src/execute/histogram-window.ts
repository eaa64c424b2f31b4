import { LRUCache } from 'lru-cache';
import type { Mapping } from '../mapping/model.js';
import type { ListRequest, Window } from '../plan/plan.js';
import type { KeyValue } from '../request/cursor.js';
import { buildKeyHistogramQuery, buildRangeCountQuery, ROWS } from '../sparql/key-histogram.js';
import type { KeyRange } from '../sparql/keyset-clause.js';
import { buildListQuery } from '../sparql/list-query.js';
import { toText } from '../sparql/to-text.js';
import type { Row, Store } from '../store/store.js';
import { countValue, keyValueReader } from './rows.js';
import { listLane, runQuery } from './run-query.js';

/** More distinct values than this and a histogram costs more than it saves: the list is sorted whole. */
const MAX_VALUES = 500;

/**
 * Fewer members than this and sorting them all costs the store less than the histogram's three
 * queries (Virtuoso sorts 5,000 members in about 6 ms).
 */
export const HISTOGRAM_MIN_MEMBERS = 5_000;

/**
 * Histogram queries that found more than {@link MAX_VALUES} values, not to be sent again for a
 * while. Only a hint: a replica without it sends one histogram query more, and answers the same.
 */
const manyValues = new LRUCache<string, true>({ max: 1000, ttl: 10 * 60_000 });

/** The rows of a list whose first key has one value (or, `value` null, none), in a row of the histogram. */
interface Block {
  readonly value: KeyValue;
  readonly rows: number;
}

/** The part of the list a window's rows come from: whole blocks, and where the window starts in them. */
interface Span {
  readonly range: KeyRange;
  readonly rows: number;
  readonly offset: number;
}

/**
 * Whether a list's windows can be read through its first key's histogram ({@link histogramRows}).
 */
export const hasHistogram = (mapping: Mapping, request: ListRequest): boolean =>
  buildKeyHistogramQuery(mapping, request, 1) !== undefined;

/**
 * The rows of an offset window of a list, read through its first key's histogram
 * (`sparql/key-histogram.ts`): the histogram and the list's `total` (its count) say which key
 * values the window's rows have, and only the members with those values are sorted. `undefined`
 * when the list can't be read this way, or when the counts don't add up: the histogram's rows are not
 * `total` (a member with two values of a single-valued key, a class triple in two graphs), or the
 * key range holds other rows than its blocks' (two values that tie in ORDER BY but count apart,
 * such as 1 and 1.0). The caller then reads the window the plain way, which is always right.
 */
export async function histogramRows(
  mapping: Mapping,
  request: ListRequest,
  window: Window,
  store: Store,
  total: number,
): Promise<Row[] | undefined> {
  const query = buildKeyHistogramQuery(mapping, request, MAX_VALUES + 1);
  if (!query) return undefined;
  const text = toText(query);
  if (manyValues.has(text)) return undefined;
  const lane = listLane(request);
  const histogram = await store.select(text, { lane });
  if (histogram.length > MAX_VALUES) {
    manyValues.set(text, true);
    return undefined;
  }
  const span = spanOf(blocksOf(request, histogram), window, total);
  if (span === 'empty') return [];
  if (!span) return undefined;
  const [rows, [counted]] = await Promise.all([
    runQuery(store, buildListQuery(mapping, request, { ...window, offset: span.offset }, undefined, span.range), lane),
    runQuery(store, buildRangeCountQuery(mapping, request, span.range), lane),
  ]);
  return countValue(counted, ROWS.value) === span.rows ? rows : undefined;
}

/**
 * The histogram's rows as blocks, in list order: the values in the store's order, then one block
 * of the rows without a usable value (unbound, or a number key's text that is no number), which
 * the list puts last wherever the store's ORDER BY put them.
 */
function blocksOf(request: ListRequest, histogram: readonly Row[]): Block[] {
  const read = keyValueReader(request);
  const blocks: Block[] = [];
  let missing = 0;
  for (const row of histogram) {
    const value = read(row)[0] ?? null;
    const rows = countValue(row, ROWS.value);
    if (value === null) missing += rows;
    else blocks.push({ value, rows });
  }
  if (missing > 0) blocks.push({ value: null, rows: missing });
  return blocks;
}

/**
 * The blocks a window's rows lie in and its offset in their rows; `'empty'` when it starts past
 * the end; `undefined` when the blocks don't add up to `total`.
 */
function spanOf(blocks: readonly Block[], window: Window, total: number): Span | 'empty' | undefined {
  if (blocks.reduce((sum, block) => sum + block.rows, 0) !== total) return undefined;
  if (window.offset >= total) return 'empty';
  const last = Math.min(window.offset + window.limit, total) - 1;
  let start = 0;
  let first: { index: number; start: number } | undefined;
  for (const [index, block] of blocks.entries()) {
    const end = start + block.rows;
    if (!first && window.offset < end) first = { index, start };
    if (first && last < end) {
      const rows = end - first.start;
      return {
        range: { from: blocks[first.index]!.value, to: block.value },
        rows,
        offset: window.offset - first.start,
      };
    }
    start = end;
  }
  return undefined;
}
