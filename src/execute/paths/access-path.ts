import type { SelectQuery } from 'sparqljs';
import type { Attribute, Mapping } from '../../mapping/model.js';
import type { Keyset, ListRequest, Window } from '../../plan/plan.js';
import type { TextOrder } from '../../rdf/text-order.js';
import type { KeyValue } from '../../request/cursor.js';
import type { Member } from '../../shape/resource-objects.js';
import type { TemplateMemo } from '../../sparql/template-memo.js';
import type { FilledQuery } from '../../sparql/to-text.js';
import type { Store } from '../../store/store.js';
import type { ListHints } from '../list-hints.js';
import type { FieldValues } from '../rows.js';
import type { Trace } from '../trace.js';

/*
 * Access paths: the ways of reading a window of a list, as data. `plan-list-read.ts` chooses one
 * (pure, one table of rules); `read-list.ts` runs it, each kind by its own module. A path that
 * may find, from what its first query read, that it should not go on names its fallback here:
 * another path, which its module runs (a node of the plan, not a caller trying again).
 */

/**
 * Where a list's total comes from: not needed (`none`), the count query sent alongside the
 * window's (`query`), or the step before, which read it already (`given`: the histogram's).
 */
export type CountSource = 'none' | 'query' | 'given';

/** What one read of a list asks: which window, after which cursors, with its count or not. */
export interface ListRead {
  readonly request: ListRequest;
  /** An offset page's window; a cursor page's `{ limit: size + 1, offset: skip }`. */
  readonly window: Window;
  /** Set for a cursor page: what lies after and/or before the cursors. */
  readonly keyset?: Keyset;
  readonly count: CountSource;
  /** The attributes the page shows: a path that can bring their values with the page does. */
  readonly attributes: readonly Attribute[];
}

/** What planning reads besides the request: the store's traits, and what the app remembers. */
export interface ListTraits {
  /** The store reads one graph (`Store.oneGraph`). */
  readonly oneGraph: boolean;
  /** How the store's engine orders text (`Store.textOrder`): how the queries are written. */
  readonly textOrder?: TextOrder | undefined;
  /** The dataset keeps whole lists (the window cache). */
  readonly windowCache: boolean;
  /** The app's hints: whether a histogram query found too many values lately (`list-hints.ts`). */
  readonly hints?: ListHints | undefined;
  /** Keeps the texts and templates of the queries the planner writes (`sparql/template-memo.ts`). */
  readonly memo?: TemplateMemo | undefined;
}

/** The paths that read from the store, each holding what its module needs. */
export type StorePath =
  | {
      readonly kind: 'histogram';
      readonly read: ListRead;
      /** The count-and-histogram query's text (also the key of the hint of lists with too many values). */
      readonly text: string;
      readonly why: string;
      /** The same read, the count given by the histogram: when the counts don't add up, or too many values. */
      readonly fallback: StorePath;
    }
  | {
      readonly kind: 'related-page';
      readonly read: ListRead;
      /** Written from a template of the page's shape (`sparql/parent-template.ts`) when the list has no filter. */
      readonly query: SelectQuery | FilledQuery;
      readonly why: string;
      /** When a member came back with two ids: the window may have missed one. */
      readonly fallback: StorePath;
    }
  | { readonly kind: 'related-list'; readonly read: ListRead; readonly why: string }
  | { readonly kind: 'keyed-window'; readonly read: ListRead; readonly query: SelectQuery; readonly why: string }
  | { readonly kind: 'list-query'; readonly read: ListRead; readonly why: string }
  | { readonly kind: 'keyset'; readonly read: ListRead; readonly why: string };

/** The chosen way to read a list window: from the window cache, or from the store. */
export type AccessPath =
  | StorePath
  | {
      readonly kind: 'window-cache';
      readonly read: ListRead;
      /** The whole list's query: the cache's key, and what a miss sends. */
      readonly query: SelectQuery;
      readonly why: string;
      /** When the list can't be kept (too big, cut short by the store), or a cursor is not in it. */
      readonly fallback: StorePath;
    };

/** The name of an access path, as `Server-Timing` and explain show it. */
export type PathName = AccessPath['kind'];

/** What a path read: the window's members (with their sort key values for a cursor page), the total, their values. */
export interface PathRead {
  readonly members: Member[];
  /** A cursor page's members' sort key values (`keys[i]` for `members[i]`). */
  readonly keys?: (readonly KeyValue[])[];
  readonly total?: number;
  /** The members' values of the attributes shown, when the path brought them (no fetch then). */
  readonly values?: Map<string, FieldValues>;
}

/** What running a path needs: the mapping, the request's store and trace, and what the app remembers. */
export interface PathContext extends Remembered {
  readonly mapping: Mapping;
  readonly store: Store;
  readonly trace: Trace;
}

/**
 * What the app remembers, as the executor reads it: the dataset's kept lists (when it keeps them),
 * the hints and the query memo. Each is declared by the layer that reads it and given by the app
 * (`cache/` implements them); the executor runs the same plan without any of them.
 */
export interface Remembered {
  readonly kept?: KeptLists | undefined;
  readonly hints?: ListHints | undefined;
  readonly memo?: TemplateMemo | undefined;
}

/**
 * The whole lists a dataset keeps, as the `window-cache` path reads them: declared here, implemented
 * by `cache/kept-lists.ts`, and given by the app (never imported), so the executor knows no cache.
 */
export interface KeptLists {
  /** The page `read` asks for, cut from the kept list whose whole query is `query`; or why it can't be. */
  cut(read: ListRead, query: SelectQuery, context: PathContext): Promise<KeptCut>;
}

/** A page cut from a kept list, or why not: the list is not kept, or a cursor's member is not in it. */
export type KeptCut =
  | { readonly kind: 'cut'; readonly read: PathRead }
  | { readonly kind: 'not-kept' }
  | { readonly kind: 'not-in-list' };

/** Runs a store path (its fallback, for the module that holds one); `counted`: the total a step before read. */
export type RunPath = (path: StorePath, context: PathContext, counted?: number) => Promise<PathRead>;
