import type { Attribute, Mapping } from '../mapping/model.js';
import type { ListRequest, Window } from '../plan/plan.js';
import { XSD } from '../rdf/vocabulary.js';
import type { Cursor, KeyValue } from '../request/cursor.js';
import {
  buildCursorPositionQuery,
  buildKeyHistogramQuery,
  buildRangeWindowQuery,
  ROWS,
} from '../sparql/key-histogram.js';
import type { KeyRange } from '../sparql/keyset-clause.js';
import { SUBJECT } from '../sparql/list-query.js';
import { toText } from '../sparql/to-text.js';
import type { Row, Store } from '../store/store.js';
import { type HintMemo, type ListHints, NO_HINTS } from './list-hints.js';
import { MAX_HISTOGRAM_VALUES } from './paths/plan-list-read.js';
import { countAndHistogram, countValue, keyValueReader } from './rows.js';
import { listLane, runQuery } from './run-query.js';

/** A histogram that added up, and the window queries guessed from it (their text, per window and attributes). */
class ReadHistogram {
  /** Whether no two of its values can tie ({@link cannotTie}): its windows then need no range count. */
  readonly tieFree: boolean;
  readonly guesses: HintMemo<{ guess: Guess | null }>;

  constructor(
    readonly blocks: readonly Block[],
    readonly total: number,
    hints: ListHints,
  ) {
    this.tieFree = cannotTie(blocks.map((block) => block.value));
    this.guesses = hints.memo(16);
  }

  /** Whether `blocks` are the ones it read, value for value and count for count. */
  same(blocks: readonly Block[]): boolean {
    return (
      blocks.length === this.blocks.length &&
      blocks.every((block, i) => block.rows === this.blocks[i]!.rows && sameValue(block.value, this.blocks[i]!.value))
    );
  }
}

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

/** What reading a window through the histogram gave: its rows, or the count alone (the path's fallback reads it). */
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
  | { readonly kind: 'plain'; readonly total: number };

/** What {@link histogramWindow} reads: the window (after a cursor), the store, the histogram query's text, and the hints that steer it. */
export interface HistogramWindowRead {
  readonly window: Window;
  readonly store: Store;
  /** The count-and-histogram query's text (`paths/plan-list-read.ts`). */
  readonly text: string;
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
 * `plain`, with the count, when the list should be read another way: more than
 * {@link MAX_HISTOGRAM_VALUES} values, or counts that don't add up: the histogram's rows are not
 * the count (a member with two values of a single-valued key, a class triple in two graphs), or
 * the range holds other rows than its blocks' (two values that tie in ORDER BY but count apart,
 * such as 1 and 1.0). With `after`, the window of a cursor page starts past that cursor
 * (`window.offset` is then its skip): one query more counts the members of the cursor's value
 * up to its member, which the rows of the values before it turn into an offset; only for values
 * that can't tie (`plain` otherwise). However short the list: its count and histogram are read
 * anyway, and the window of a range, which needs no least-value guard, costs the store less than
 * the plain query (5 ms against 11 for a page of 3,000 filtered trade activities on Virtuoso).
 */
export async function histogramWindow(
  mapping: Mapping,
  request: ListRequest,
  { window, store, text, attributes = [], after, hints = NO_HINTS }: HistogramWindowRead,
): Promise<HistogramRead> {
  const lane = listLane(request);
  const history = hints.lastHistogram<ReadHistogram>(mapping, text);
  const guess =
    after || !history.last ? undefined : guessWindow(history.last, mapping, request, window, store, attributes);
  const answer = await store.select(guess?.text ?? text, { lane, label: guess ? 'histogram+range' : 'histogram' });
  const { counts, window: guessed } = guess ? splitAnswer(answer) : { counts: answer, window: [] };
  const { total, histogram: values } = countAndHistogram(counts, ROWS.value);
  if (values.length > MAX_HISTOGRAM_VALUES) {
    hints.foundManyValues(text);
    return { kind: 'plain', total };
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
    if (check || at < 0 || rowsIn(blocks) !== total) return { kind: 'plain', total };
    const [row] = await runQuery(store, buildCursorPositionQuery(mapping, request, after), lane, 'position');
    offset += rowsIn(blocks.slice(0, at)) + countValue(row, 'count');
  }
  const span = spanOf(blocks, { ...window, offset }, total);
  if (span === 'empty') return { kind: 'rows', rows: [], total, withValues: false };
  if (!span) return { kind: 'plain', total };
  const {
    query: rangeQuery,
    withValues,
    carried,
  } = buildRangeWindowQuery(mapping, request, { ...window, offset: span.offset }, span.range, check, attributes);
  const rows = await runQuery(store, rangeQuery, lane, 'range');
  if (!check) return { kind: 'rows', rows, total, withValues, ...(carried && { carried }) };
  const counted = rows.find((row) => row[ROWS.value] !== undefined);
  return countValue(counted, ROWS.value) === span.rows
    ? { kind: 'rows', rows: rows.filter((row) => row !== counted), total, withValues }
    : { kind: 'plain', total };
}

/** A window guessed from a list's last histogram: the histogram query's text with the window's range query in it. */
interface Guess {
  readonly text: string;
  readonly span: Span;
  readonly withValues: boolean;
  readonly carried?: Attribute;
}

/**
 * The histogram query with `window` riding along (`buildKeyHistogramQuery`'s `page`), when `last`
 * has values that cannot tie (the window then needs no range count) and puts the window inside
 * the list, and the list has one sort key besides the id (its window is ordered by what it
 * projects, so the order survives around it); `undefined` otherwise. The window is the range
 * query the histogram leads to if it reads as `last` did: `histogramWindow` keeps its rows only
 * when it does. The hint decides which query is sent, never what is served. Written once per
 * window and attributes while the list's histogram stays the same.
 */
function guessWindow(
  last: ReadHistogram,
  mapping: Mapping,
  request: ListRequest,
  window: Window,
  store: Store,
  attributes: readonly Attribute[],
): Guess | undefined {
  if (!last.tieFree) return undefined;
  // What the window's text depends on beyond the histogram's (lists sorted by more keys share it).
  const key = JSON.stringify([
    request.type.name,
    request.sort.map((sortKey) => [sortKey.field, sortKey.descending]),
    window,
    store.oneGraph,
    store.textOrder ?? null,
    attributes.map((attribute) => attribute.name),
  ]);
  const kept = last.guesses.kept(key, () => {
    const span = spanOf(last.blocks, window, last.total);
    let guess: Guess | null = null;
    if (typeof span === 'object') {
      const page = buildRangeWindowQuery(
        mapping,
        request,
        { ...window, offset: span.offset },
        span.range,
        false,
        attributes,
      );
      const query =
        page.reorderable &&
        buildKeyHistogramQuery(mapping, request, MAX_HISTOGRAM_VALUES + 1, store.oneGraph, page.query);
      if (query) {
        const text = toText(query, store.textOrder);
        guess = { text, span, withValues: page.withValues, ...(page.carried && { carried: page.carried }) };
      }
    }
    return { guess };
  });
  return kept.guess ?? undefined;
}

/** A histogram query's answer with a window in it: the count's and histogram's rows, and the window's (those with `?s`). */
function splitAnswer(answer: readonly Row[]): { counts: Row[]; window: Row[] } {
  const counts: Row[] = [];
  const window: Row[] = [];
  for (const row of answer) (row[SUBJECT.value] === undefined ? counts : window).push(row);
  return { counts, window };
}

/** Whether the span read now is the one guessed: the same blocks, and the same offset in them. */
function sameSpan(read: Span | 'empty' | undefined, guessed: Span): boolean {
  return (
    typeof read === 'object' &&
    read.offset === guessed.offset &&
    sameValue(read.range.from, guessed.range.from) &&
    sameValue(read.range.to, guessed.range.to)
  );
}

const sameValue = (a: KeyValue, b: KeyValue): boolean => (a === null ? b === null : b !== null && a.equals(b));

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

/** How many rows `blocks` hold together. */
const rowsIn = (blocks: readonly Block[]): number => blocks.reduce((sum, block) => sum + block.rows, 0);

/**
 * The blocks a window's rows lie in and its offset in their rows; `'empty'` when it starts past
 * the end; `undefined` when the blocks don't add up to `total`.
 */
function spanOf(blocks: readonly Block[], window: Window, total: number): Span | 'empty' | undefined {
  if (rowsIn(blocks) !== total) return undefined;
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

/**
 * Canonical forms of datatypes whose values compare equal only when their terms are the same, so
 * that no two values of a histogram can tie in ORDER BY while they count apart. A date or year
 * with a time zone does not tie with another with the same zone; one without a zone can tie
 * with one that has (the implicit zone), so all must agree. Strings are left out: a store may
 * order them by a collation that ties other strings.
 */
const CANONICAL: ReadonlyMap<string, RegExp> = new Map([
  [`${XSD}integer`, /^(0|-?[1-9][0-9]*)$/],
  [`${XSD}boolean`, /^(true|false)$/],
  [`${XSD}date`, /^-?[1-9]?[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])(Z)?$/],
  [`${XSD}gYear`, /^-?[1-9]?[0-9]{4}(Z)?$/],
]);

/**
 * Whether no two of `values` (the present values of a histogram) can tie in ORDER BY: all are
 * literals of one datatype of {@link CANONICAL} in its canonical form, with or all without a
 * time zone. Then a range holds exactly its blocks' rows, and needs no count to prove it.
 *
 * @example cannotTie([literal('2016-01-01Z', xsdDate), literal('2017-01-01Z', xsdDate)]) // true
 * @example cannotTie([literal('1', xsdInteger), literal('1.0', xsdDecimal)]) // false
 */
export function cannotTie(values: readonly KeyValue[]): boolean {
  const present = values.filter((value) => value !== null);
  const first = present[0];
  if (first === undefined || first.termType !== 'Literal') return present.length === 0;
  const datatype = first.datatype.value;
  const canonical = CANONICAL.get(datatype);
  if (!canonical) return false;
  const zoned = first.value.endsWith('Z');
  return present.every(
    (value) =>
      value.termType === 'Literal' &&
      value.datatype.value === datatype &&
      canonical.test(value.value) &&
      value.value.endsWith('Z') === zoned &&
      (datatype !== `${XSD}date` || isCalendarDate(value.value)),
  );
}

/** A date's year, month and day. */
const DATE_PARTS = /^(-?\d+)-(\d{2})-(\d{2})/;

/** Whether a date's year, month and day name a day of the calendar (not February 30th). */
function isCalendarDate(text: string): boolean {
  const [, year, month, day] = DATE_PARTS.exec(text)!.map(Number);
  const date = new Date(0);
  date.setUTCFullYear(year!, month! - 1, day!);
  return date.getUTCMonth() === month! - 1 && date.getUTCDate() === day;
}
