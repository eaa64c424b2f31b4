import type { SelectQuery } from 'sparqljs';
import type { Mapping } from '../../mapping/model.js';
import type { ListRequest } from '../../plan/plan.js';
import type { Cursor } from '../../request/cursor.js';
import { valueOrder } from '../../request/filter-values.js';
import { keyHistogramText } from '../../sparql/key-histogram.js';
import type { ListShape } from '../../sparql/list-query.js';
import { LIST_QUERIES, offsetListQuery } from '../../sparql/list-shapes.js';
import { buildKeyedWindowQuery } from '../../sparql/member-queries.js';
import { relatedListQuery, relatedPageQuery } from '../../sparql/parent-template.js';
import type { FilledQuery } from '../../sparql/to-text.js';
import { guessWindow, MAX_HISTOGRAM_VALUES, type ReadHistogram } from '../histogram-blocks.js';
import type { AccessPath, Fallback, ListRead, ListTraits, PathName, StorePath } from './access-path.js';
import { listShape } from './list-shape.js';

/** What the rules look at: the read, the traits, and the queries a path would send (each built before any rule asks). */
export interface Candidate {
  readonly mapping: Mapping;
  readonly read: ListRead;
  readonly traits: ListTraits;
  /** An offset page (no keyset). */
  readonly offsetPage: boolean;
  /** The count and histogram query's text, unless the list can't be read so or had too many values lately. */
  readonly histogram: string | undefined;
  readonly relatedPage: SelectQuery | FilledQuery | undefined;
  readonly keyed: SelectQuery | undefined;
  /** The shape of the list's query (`list-shape.ts`), the same for every path of the read. */
  readonly shape: ListShape;
}

/** The candidate of a read: every query a rule looks at, built now (a text the template memo keeps costs a lookup). */
function candidateOf(mapping: Mapping, read: ListRead, traits: ListTraits): Candidate {
  const { oneGraph, textOrder, memo } = traits;
  const { request, window } = read;
  const text = keyHistogramText(mapping, request, { limit: MAX_HISTOGRAM_VALUES + 1, oneGraph, textOrder, memo });
  return {
    mapping,
    read,
    traits,
    offsetPage: read.keyset === undefined,
    histogram: text !== undefined && !traits.hints?.manyValues(text) ? text : undefined,
    relatedPage: relatedPageQuery(mapping, request, { ...read, memo }),
    keyed: buildKeyedWindowQuery(mapping, request, { window, oneGraph }),
    shape: listShape(request),
  };
}

/**
 * When each declared fallback is taken: the conditional children of the plan, by the path they
 * hang off (explain shows them beside the node; the trace names the child when it is taken).
 */
export const FALLBACK_WHEN = {
  'window-cache':
    'the list is not kept (being read in the background, too big, cut short by the store, its read failed, or changing faster than it is read), or a cursor is not in it',
  histogram:
    'the histogram does not give the page: over 500 values, counts that do not add up, or a cursor value that may tie',
  'related-page': 'a member comes back with two ids (the window may have missed one)',
  'keyed-window': 'the page reaches past the members that have the key',
  keyset: 'members with two rows (least key values that tie while they differ as terms) leave the window short',
} as const satisfies Partial<Record<PathName, string>>;

/** One row of the planner's table: a path, when it applies (in words and as a test), and what it costs. */
export interface PathRule {
  /** A path a rule chooses: every one but `keyset-wider`, which only a keyset's retry takes. */
  readonly path: Exclude<PathName, 'keyset-wider'>;
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
      "0; when the list is not cached yet, the next path's (the page is not held up) and the whole list read once in the background; the next path also when it cannot be kept or a cursor is not in it",
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
      c.histogram !== undefined,
  },
  {
    path: 'related-page',
    when: 'the first page of a related list sorted by id that shows attributes',
    queries: '1: the page with its members’ values; +1 (the count) when it is empty or full',
    applies: (c) => c.offsetPage && c.read.window.offset === 0 && c.relatedPage !== undefined,
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
    applies: (c) => c.offsetPage && c.keyed !== undefined,
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
 * Plans a read of a list: the access path it takes, from the first rule of {@link PATH_RULES}
 * that applies, with every conditional child (fallback, retry) planned too, each with its queries
 * where they do not depend on an earlier answer. Pure: it builds the queries and sends nothing;
 * the plan is complete data before anything runs (explain's dry plan shows it whole).
 *
 * @example planListRead(mapping, { request, window: { limit: 21, offset: 0 }, count: 'query', attributes }, traits).kind // 'histogram'
 */
export function planListRead(mapping: Mapping, read: ListRead, traits: ListTraits): AccessPath {
  return planFrom(0, candidateOf(mapping, read, traits));
}

function planFrom(first: number, c: Candidate): AccessPath {
  const index = PATH_RULES.findIndex((rule, i) => i >= first && rule.applies(c));
  const { path, when: why } = PATH_RULES[index]!;
  const { mapping, read } = c;
  const { request, window, keyset } = read;
  const next = (from: Candidate = c): StorePath => storePath(planFrom(index + 1, from));
  const { shape } = c;
  const offsetList = () => offsetListQuery(mapping, request, { shape, window, memo: c.traits.memo });
  switch (path) {
    case 'window-cache': {
      const query = LIST_QUERIES[shape](mapping, request, { keyset: { fromEnd: false } });
      return { kind: path, read, why, query, fallback: fallback(path, next()) };
    }
    case 'histogram': {
      // The fallback reads with the count this path read: the same candidate queries (none depends on the count).
      const given: Candidate = { ...c, read: { ...read, count: 'given' } };
      return { kind: path, read, why, text: c.histogram!, guess: guessOf(c), fallback: fallback(path, next(given)) };
    }
    case 'related-page':
      return { kind: path, read, why, query: c.relatedPage!, fallback: fallback(path, next()) };
    case 'related-list':
      return {
        kind: path,
        read,
        why,
        shape,
        query: relatedListQuery(mapping, request, { shape, window, memo: c.traits.memo }),
      };
    case 'keyed-window': {
      const list = PATH_RULES.find((rule) => rule.path === 'list-query')!;
      const plain: StorePath = { kind: 'list-query', read, why: list.when, shape, query: offsetList() };
      return { kind: path, read, why, query: c.keyed!, fallback: fallback(path, plain) };
    }
    case 'list-query':
      return { kind: path, read, why, shape, query: offsetList() };
    case 'keyset': {
      const wider = { ...read, window: { ...window, limit: window.limit * 2 } };
      const retry: StorePath = {
        kind: 'keyset-wider',
        read: wider,
        why: 'the keyset read again with twice the rows, and again, until the window’s members are all there or the list ends',
        shape,
        query: LIST_QUERIES[shape](mapping, request, { window: wider.window, keyset }),
      };
      const query = LIST_QUERIES[shape](mapping, request, { window, keyset });
      return { kind: path, read, why, shape, query, fallback: fallback(path, retry) };
    }
  }
}

/** A path's declared fallback, with when it is taken. */
const fallback = (from: keyof typeof FALLBACK_WHEN, path: StorePath): Fallback => ({ when: FALLBACK_WHEN[from], path });

/** A fallback is a store path: the window cache's rule comes first, and a fallback is planned from the rules after its path's. */
function storePath(path: AccessPath): StorePath {
  if (path.kind === 'window-cache') throw new Error('The window cache is never a fallback');
  return path;
}

/**
 * The page guessed from the list's last histogram (`histogram-blocks.ts`), when the hints keep
 * one: an offset page only (a cursor's page starts where a query more says).
 */
function guessOf(c: Candidate) {
  const { mapping, read, traits } = c;
  if (read.keyset || !traits.hints || !c.histogram) return undefined;
  const last = traits.hints.lastHistogram<ReadHistogram>(mapping, c.histogram).last;
  if (!last) return undefined;
  const { oneGraph, textOrder } = traits;
  return guessWindow(last, {
    mapping,
    request: read.request,
    window: read.window,
    oneGraph,
    textOrder,
    attributes: read.attributes,
  });
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
