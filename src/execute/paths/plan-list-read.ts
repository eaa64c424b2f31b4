import type { Mapping } from '../../mapping/model.js';
import type { ListRequest } from '../../plan/plan.js';
import type { Cursor } from '../../request/cursor.js';
import { valueOrder } from '../../request/filter-values.js';
import { keyHistogramText } from '../../sparql/key-histogram.js';
import { buildKeyedWindowQuery, buildListQuery } from '../../sparql/list-query.js';
import { relatedPageQuery } from '../../sparql/parent-template.js';
import type { AccessPath, ListRead, ListTraits, PathName, StorePath } from './access-path.js';

/** More distinct values than this and a histogram costs more than it saves: the list is sorted whole. */
export const MAX_HISTOGRAM_VALUES = 500;

/** What the rules look at: the read, the traits, and the queries a path would send (each built once, when a rule asks). */
class Candidate {
  /** The count and histogram query's text, unless the list can't be read so or had too many values lately. */
  readonly histogram = once(() => {
    const { mapping, read, traits } = this;
    const { oneGraph, textOrder, memo } = traits;
    const text = keyHistogramText(mapping, read.request, {
      limit: MAX_HISTOGRAM_VALUES + 1,
      oneGraph,
      textOrder,
      memo,
    });
    return text !== undefined && !traits.hints?.manyValues(text) ? text : undefined;
  });
  readonly relatedPage = once(() =>
    relatedPageQuery(this.mapping, this.read.request, { ...this.read, memo: this.traits.memo }),
  );
  readonly keyed = once(() =>
    buildKeyedWindowQuery(this.mapping, this.read.request, this.read.window, this.traits.oneGraph),
  );

  constructor(
    readonly mapping: Mapping,
    readonly read: ListRead,
    readonly traits: ListTraits,
  ) {}

  get offsetPage(): boolean {
    return this.read.keyset === undefined;
  }
}

/** One row of the planner's table: a path, when it applies (in words and as a test), and what it costs. */
export interface PathRule {
  readonly path: PathName;
  /** When the path is taken (the first rule that applies wins): what explain says, and the cost table's column. */
  readonly when: string;
  /** The queries the path sends for the list itself (the fetch and include levels come after): the cost table's column. */
  readonly queries: string;
  readonly applies: (candidate: Candidate) => boolean;
}

/**
 * The planner's table, in order: the first rule that applies is the path; a path's fallback is
 * the next rule that applies (the histogram's, with the count it read). `docs/performance.md`'s
 * access-path table is this table (`test/unit/execute/plan-list-read.test.ts` compares them).
 */
export const PATH_RULES: readonly PathRule[] = [
  {
    path: 'window-cache',
    when: 'the dataset keeps whole lists (window cache): the page is cut from the cached list',
    queries:
      '0; 1 when the list is not cached yet (the whole list, once); the next path when it cannot be kept or a cursor is not in it',
    applies: (c) => c.traits.windowCache,
  },
  {
    path: 'histogram',
    when: 'a counted list without parent whose first sort key is flat (not the id, not to-many), unless its histogram found over 500 values lately; a cursor page after one cursor alone, sorted by that one key (not a number)',
    queries:
      '1 when the list’s last histogram placed the page and the histogram read now agrees (values that cannot tie, one sort key): the count with the key’s histogram and the page in it; else 2: the count with the histogram, then the page among the values it lies in (with its members’ values when those values cannot tie); 3 after a cursor (its position); the next path, with that count, when over 500 values or the counts do not add up',
    applies: (c) =>
      c.read.count === 'query' &&
      (c.offsetPage || afterOnly(c.read.request, c.read.keyset?.after, c.read.keyset?.before)) &&
      c.histogram() !== undefined,
  },
  {
    path: 'related-page',
    when: 'the first page of a related list sorted by id that shows attributes',
    queries: '1: the page with its members’ values; +1 (the count) when it is empty or full',
    applies: (c) => c.offsetPage && c.read.window.offset === 0 && c.relatedPage() !== undefined,
  },
  {
    path: 'related-list',
    when: 'a counted page of a related list',
    queries: '1: the page; +1 (the count) when it is empty or full',
    applies: (c) => c.offsetPage && c.read.count === 'query' && c.read.request.parent !== undefined,
  },
  {
    path: 'keyed-window',
    when: 'a list sorted by a key of several values per member (a to-many path)',
    queries:
      '1: the page among the members that have the key, the count alongside (+1); +1 when the page reaches past them (the list query)',
    applies: (c) => c.offsetPage && c.keyed() !== undefined,
  },
  {
    path: 'list-query',
    when: 'any other offset page: the list sorted whole',
    queries: '1: the page, the count alongside (+1)',
    applies: (c) => c.offsetPage,
  },
  {
    path: 'keyset',
    when: 'any other cursor page: the list past the cursors (a keyset FILTER)',
    queries:
      '1: the page, the count alongside (+1); again with twice the rows while members with two rows leave it short',
    applies: () => true,
  },
];

/**
 * Plans a read of a list: the access path it takes, with its fallback, from the first rule of
 * {@link PATH_RULES} that applies. Pure: it builds the queries a rule needs to decide, and
 * sends nothing.
 *
 * @example planListRead(mapping, { request, window: { limit: 21, offset: 0 }, count: 'query', attributes }, traits).kind // 'histogram'
 */
export function planListRead(mapping: Mapping, read: ListRead, traits: ListTraits): AccessPath {
  return planFrom(0, new Candidate(mapping, read, traits));
}

function planFrom(first: number, c: Candidate): AccessPath {
  const index = PATH_RULES.findIndex((rule, i) => i >= first && rule.applies(c));
  const { path, when: why } = PATH_RULES[index]!;
  const { mapping, read } = c;
  // A fallback is planned when first asked for: a page cut from the window cache never needs one.
  const next = (from: Candidate = c) => once(() => planFrom(index + 1, from) as StorePath);
  switch (path) {
    case 'window-cache': {
      const fallback = next();
      const query = buildListQuery(mapping, read.request, undefined, { fromEnd: false });
      return {
        kind: path,
        read,
        why,
        query,
        get fallback() {
          return fallback();
        },
      };
    }
    case 'histogram': {
      const fallback = next(new Candidate(mapping, { ...read, count: 'given' }, c.traits));
      return {
        kind: path,
        read,
        why,
        text: c.histogram()!,
        get fallback() {
          return fallback();
        },
      };
    }
    case 'related-page': {
      const fallback = next();
      return {
        kind: path,
        read,
        why,
        query: c.relatedPage()!,
        get fallback() {
          return fallback();
        },
      };
    }
    case 'keyed-window':
      return { kind: path, read, why, query: c.keyed()! };
    default:
      return { kind: path, read, why };
  }
}

/** `make`'s value, made on the first call. */
function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

/**
 * Whether a cursor page can be read through the histogram: after one cursor alone, a list of one
 * sort key (the id breaks ties), not a number (whose cursor value is a double read from its
 * exact text), and a cursor with a value of it.
 */
function afterOnly(request: ListRequest, after: Cursor | undefined, before: Cursor | undefined): boolean {
  const [key, ...others] = request.sort;
  return (
    after !== undefined &&
    before === undefined &&
    key !== undefined &&
    others.length === 0 &&
    key.path.end !== 'id' &&
    valueOrder(key.path.end) !== 'number' &&
    after.values[0] !== null &&
    after.values[0] !== undefined
  );
}
