import type { Attribute, Mapping } from '../mapping/model.js';
import type { ListRequest, Window } from '../plan/plan.js';
import type { TextOrder } from '../rdf/text-order.js';
import { XSD } from '../rdf/vocabulary.js';
import type { KeyValue } from '../request/cursor.js';
import { buildKeyHistogramQuery, buildRangeWindowQuery, ROWS } from '../sparql/key-histogram.js';
import type { KeyRange } from '../sparql/keyset-clause.js';
import { toText } from '../sparql/to-text.js';
import type { Row } from '../store/store.js';
import type { HintMemo, ListHints } from './list-hints.js';
import { countValue, keyValueReader } from './rows.js';

/*
 * A key histogram read as blocks of rows (one per value), the span a window lies in, and the
 * window guessed from a list's last histogram, which the planner puts in the histogram path
 * (`paths/plan-list-read.ts`) and `histogram-window.ts` checks.
 */

/** More distinct values than this and a histogram costs more than it saves: the list is sorted whole. */
export const MAX_HISTOGRAM_VALUES = 500;

/** A histogram that added up, and the window queries guessed from it (their text, per window and attributes). */
export class ReadHistogram {
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
export interface Block {
  readonly value: KeyValue;
  readonly rows: number;
}

/** The part of the list a window's rows come from: whole blocks, and where the window starts in them. */
export interface Span {
  readonly range: KeyRange;
  readonly rows: number;
  readonly offset: number;
}

/** A window guessed from a list's last histogram: the histogram query's text with the window's range query in it. */
export interface Guess {
  readonly text: string;
  readonly span: Span;
  readonly withValues: boolean;
  readonly carried?: Attribute;
}

/** What a guess is written of: the list, its window, the store's graph and text order, the attributes shown. */
export interface GuessAsked {
  readonly mapping: Mapping;
  readonly request: ListRequest;
  readonly window: Window;
  readonly oneGraph: boolean;
  readonly textOrder?: TextOrder | undefined;
  readonly attributes: readonly Attribute[];
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
export function guessWindow(last: ReadHistogram, asked: GuessAsked): Guess | undefined {
  const { mapping, request, window, oneGraph, textOrder, attributes } = asked;
  if (!last.tieFree) return undefined;
  // What the window's text depends on beyond the histogram's (lists sorted by more keys share it).
  const key = JSON.stringify([
    request.type.name,
    request.sort.map((sortKey) => [sortKey.field, sortKey.descending]),
    window,
    oneGraph,
    textOrder ?? null,
    attributes.map((attribute) => attribute.name),
  ]);
  const kept = last.guesses.kept(key, () => {
    const span = spanOf(last.blocks, window, last.total);
    let guess: Guess | null = null;
    if (typeof span === 'object') {
      const page = buildRangeWindowQuery(mapping, request, {
        window: { ...window, offset: span.offset },
        range: span.range,
        counted: false,
        attributes,
      });
      const query =
        page.reorderable &&
        buildKeyHistogramQuery(mapping, request, { limit: MAX_HISTOGRAM_VALUES + 1, oneGraph, page: page.query });
      if (query) {
        const text = toText(query, textOrder);
        guess = { text, span, withValues: page.withValues, ...(page.carried && { carried: page.carried }) };
      }
    }
    return { guess };
  });
  return kept.guess ?? undefined;
}

/** Whether the span read now is the one guessed: the same blocks, and the same offset in them. */
export function sameSpan(read: Span | 'empty' | undefined, guessed: Span): boolean {
  return (
    typeof read === 'object' &&
    read.offset === guessed.offset &&
    sameValue(read.range.from, guessed.range.from) &&
    sameValue(read.range.to, guessed.range.to)
  );
}

export const sameValue = (a: KeyValue, b: KeyValue): boolean => (a === null ? b === null : b !== null && a.equals(b));

/**
 * The histogram's rows as blocks, in list order: the values in the store's order, then one block
 * of the rows without a usable value (unbound, or a number key's text that is no number), which
 * the list puts last wherever the store's ORDER BY put them.
 */
export function blocksOf(request: ListRequest, histogram: readonly Row[]): Block[] {
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
export const rowsIn = (blocks: readonly Block[]): number => blocks.reduce((sum, block) => sum + block.rows, 0);

/**
 * The blocks a window's rows lie in and its offset in their rows; `'empty'` when it starts past
 * the end; `undefined` when the blocks don't add up to `total`.
 */
export function spanOf(blocks: readonly Block[], window: Window, total: number): Span | 'empty' | undefined {
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
