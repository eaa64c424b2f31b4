import type { Attribute, Mapping } from '../mapping/model.js';
import type { ListRequest, Window } from '../plan/plan.js';
import type { Cursor } from '../request/cursor.js';
import { buildCursorPositionQuery, buildRangeWindowQuery, ROWS } from '../sparql/key-histogram.js';
import { SUBJECT } from '../sparql/list-query.js';
import type { Row, Store } from '../store/store.js';
import {
  blocksOf,
  cannotTie,
  type Guess,
  MAX_HISTOGRAM_VALUES,
  ReadHistogram,
  rowsIn,
  sameSpan,
  spanOf,
} from './histogram-blocks.js';
import { type ListHints, NO_HINTS } from './list-hints.js';
import { countAndHistogram, countValue } from './rows.js';
import { listLane, runQuery } from './run-query.js';

/** What reading a window through the histogram gave: its rows, or that the page is not read so (`fall-back`: the path's declared fallback reads it, with the count). */
export type HistogramRead =
  | {
      readonly kind: 'rows';
      readonly rows: Row[];
      readonly total: number;
      /** The rows carry the members' attribute values too (`?f ?o`), so no fetch is needed. */
      readonly withValues: boolean;
      /** The attribute whose value is each row's key (`?key0`), not in `?f ?o`. */
      readonly carried?: Attribute;
    }
  | { readonly kind: 'fall-back'; readonly total: number; readonly because: string };

/** What {@link histogramWindow} reads: the window (after a cursor), the store, the histogram query's text, and the hints that steer it. */
export interface HistogramWindowRead {
  readonly window: Window;
  readonly store: Store;
  /** The count-and-histogram query's text (`paths/plan-list-read.ts`). */
  readonly text: string;
  /** The page guessed from the list's last histogram, planned with the path: its text is sent instead of `text`. */
  readonly guess?: Guess | undefined;
  readonly attributes?: readonly Attribute[];
  readonly after?: Cursor | undefined;
  /** The app's hints (`list-hints.ts`); none: read as a server that just started. */
  readonly hints?: ListHints | undefined;
}

/**
 * An offset window of a list read through its first key's histogram (`sparql/key-histogram.ts`):
 * one query (`histogramText`, planned by `paths/plan-list-read.ts`) gives the list's count and the
 * histogram, which say which key values the window's rows have; a second reads the window from
 * the members with those values only (with their values of `attributes` when that query has no
 * range count: `withValues`), and counts the rows in their range unless its values can't tie.
 * `fall-back`, with the count, when the list should be read another way: more than
 * {@link MAX_HISTOGRAM_VALUES} values, or counts that don't add up: the histogram's rows are not
 * the count (a member with two values of a single-valued key, a class triple in two graphs), or
 * the range holds other rows than its blocks' (two values that tie in ORDER BY but count apart,
 * such as 1 and 1.0). With `after`, the window of a cursor page starts past that cursor
 * (`window.offset` is then its skip): one query more counts the members of the cursor's value
 * up to its member, which the rows of the values before it turn into an offset; only for values
 * that can't tie (`fall-back` otherwise). However short the list: its count and histogram are read
 * anyway, and the window of a range, which needs no least-value guard, costs the store less than
 * the plain query (5 ms against 11 for a page of 3,000 filtered trade activities on Virtuoso).
 */
export async function histogramWindow(
  mapping: Mapping,
  request: ListRequest,
  { window, store, text, guess, attributes = [], after, hints = NO_HINTS }: HistogramWindowRead,
): Promise<HistogramRead> {
  const lane = listLane(request);
  const history = hints.lastHistogram<ReadHistogram>(mapping, text);
  const answer = await runQuery(store, { text: guess?.text ?? text }, lane, guess ? 'histogram+range' : 'histogram');
  const { counts, window: guessed } = guess ? splitAnswer(answer) : { counts: answer, window: [] };
  const { total, histogram: values } = countAndHistogram(counts, ROWS.value);
  if (values.length > MAX_HISTOGRAM_VALUES) {
    hints.foundManyValues(text);
    return { kind: 'fall-back', total, because: `the histogram found over ${MAX_HISTOGRAM_VALUES} values` };
  }
  const blocks = blocksOf(request, values);
  if (rowsIn(blocks) !== total) history.last = undefined;
  else if (history.last?.total !== total || !history.last.same(blocks))
    history.last = new ReadHistogram(blocks, total, hints);
  const check = !(history.last?.tieFree ?? cannotTie(blocks.map((block) => block.value)));
  if (guess && !check && sameSpan(spanOf(blocks, window, total), guess.span)) {
    return {
      kind: 'rows',
      rows: guessed,
      total,
      withValues: guess.withValues,
      ...(guess.carried && { carried: guess.carried }),
    };
  }
  let { offset } = window;
  if (after) {
    // The cursor becomes an offset: the rows of the values before its own, and of its own value
    // up to its member (one more query, which looks that value up by VALUES: values that can't tie only).
    const at = blocks.findIndex((block) => block.value?.equals(after.values[0] ?? null) === true);
    if (check || at < 0 || rowsIn(blocks) !== total) return { kind: 'fall-back', total, because: NO_POSITION };
    const [row] = await runQuery(store, buildCursorPositionQuery(mapping, request, after), lane, 'position');
    offset += rowsIn(blocks.slice(0, at)) + countValue(row, 'count');
  }
  const span = spanOf(blocks, { ...window, offset }, total);
  if (span === 'empty') return { kind: 'rows', rows: [], total, withValues: false };
  if (!span) return { kind: 'fall-back', total, because: NOT_ADDING_UP };
  const {
    query: rangeQuery,
    withValues,
    carried,
  } = buildRangeWindowQuery(mapping, request, {
    window: { ...window, offset: span.offset },
    range: span.range,
    counted: check,
    attributes,
  });
  const rows = await runQuery(store, rangeQuery, lane, 'range');
  if (!check) return { kind: 'rows', rows, total, withValues, ...(carried && { carried }) };
  const counted = rows.find((row) => row[ROWS.value] !== undefined);
  return countValue(counted, ROWS.value) === span.rows
    ? { kind: 'rows', rows: rows.filter((row) => row !== counted), total, withValues }
    : { kind: 'fall-back', total, because: NOT_ADDING_UP };
}

const NOT_ADDING_UP = 'the histogram’s counts do not add up';
const NO_POSITION = 'the cursor’s value may tie with another, or is not in the histogram';

/** A histogram query's answer with a window in it: the count's and histogram's rows, and the window's (those with `?s`). */
function splitAnswer(answer: readonly Row[]): { counts: Row[]; window: Row[] } {
  const counts: Row[] = [];
  const window: Row[] = [];
  for (const row of answer) (row[SUBJECT.value] === undefined ? counts : window).push(row);
  return { counts, window };
}
