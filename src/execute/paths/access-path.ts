import type { SelectQuery } from 'sparqljs';
import type { Attribute, Mapping } from '../../mapping/model.js';
import type { Keyset, ListRequest, Window } from '../../plan/plan.js';
import type { TextOrder } from '../../rdf/text-order.js';
import type { KeyValue } from '../../request/cursor.js';
import type { Member } from '../../shape/resource-objects.js';
import type { ListShape } from '../../sparql/list-query.js';
import type { TemplateMemo } from '../../sparql/template-memo.js';
import type { FilledQuery } from '../../sparql/to-text.js';
import type { Store } from '../../store/store.js';
import type { Guess } from '../histogram-blocks.js';
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

/**
 * A conditional child of a plan node: the node the executor takes instead of going on when its
 * parent finds, from what it read, that `when` holds (a declared fallback or retry, never a
 * caller trying again). It is planned with its parent, before anything runs.
 */
export interface Fallback {
  /** When the executor takes it: what explain shows beside the node. */
  readonly when: string;
  readonly path: StorePath;
}

/** The paths that read from the store, each holding what its module needs, its queries built by the planner. */
export type StorePath =
  | {
      readonly kind: 'histogram';
      readonly read: ListRead;
      /** The count-and-histogram query's text (also the key of the hint of lists with too many values). */
      readonly text: string;
      /** The page guessed from the list's last histogram, riding along with it (`histogram-guess.ts`): its text is sent instead. */
      readonly guess?: Guess | undefined;
      readonly why: string;
      /** The same read, the count given by the histogram: when the counts don't add up, or too many values. */
      readonly fallback: Fallback;
    }
  | {
      readonly kind: 'related-page';
      readonly read: ListRead;
      /** Written from a template of the page's shape (`sparql/parent-template.ts`) when the list has no filter. */
      readonly query: SelectQuery | FilledQuery;
      readonly why: string;
      /** When a member came back with two ids: the window may have missed one. */
      readonly fallback: Fallback;
    }
  | {
      readonly kind: 'related-list';
      readonly read: ListRead;
      readonly shape: ListShape;
      readonly query: SelectQuery | FilledQuery;
      readonly why: string;
    }
  | {
      readonly kind: 'keyed-window';
      readonly read: ListRead;
      readonly query: SelectQuery;
      readonly why: string;
      /** The list query: when the page reaches past the members that have the key. */
      readonly fallback: Fallback;
    }
  | {
      readonly kind: 'list-query';
      readonly read: ListRead;
      readonly shape: ListShape;
      readonly query: SelectQuery;
      readonly why: string;
    }
  | {
      readonly kind: 'keyset';
      readonly read: ListRead;
      readonly shape: ListShape;
      readonly query: SelectQuery;
      readonly why: string;
      /** `keyset-wider`: when members with two rows left the window short. */
      readonly fallback: Fallback;
    }
  | {
      /** The keyset read again with twice the rows (`read.window.limit`: twice the keyset's), and again, until the window's members are all there. */
      readonly kind: 'keyset-wider';
      readonly read: ListRead;
      readonly shape: ListShape;
      /** The first wider read's query: the later ones double its rows again. */
      readonly query: SelectQuery;
      readonly why: string;
    };

/** The chosen way to read a list window: from the window cache, or from the store. */
export type AccessPath =
  | StorePath
  | {
      readonly kind: 'window-cache';
      readonly read: ListRead;
      /** The whole list's query: the cache's key, and what is read in the background while it is not kept. */
      readonly query: SelectQuery;
      readonly why: string;
      /** When the list is not kept (being read, too big, cut short, its read failed), or a cursor is not in it. */
      readonly fallback: Fallback;
    };

/** The name of an access path, as `Server-Timing` and explain show it. */
export type PathName = AccessPath['kind'];

/**
 * What a path's module gives back: what it read, or that it should not go on (`fall-back`, with
 * why and the total it read): the executor then takes the path's declared {@link Fallback}.
 */
export type PathOutcome =
  | { readonly kind: 'read'; readonly read: PathRead }
  | { readonly kind: 'fall-back'; readonly because: string; readonly counted?: Counted | undefined };

/** A total the step before read, or is reading (its count query already sent). */
export type Counted = number | Promise<number | undefined>;

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
  | { readonly kind: 'not-kept'; readonly why: string }
  | { readonly kind: 'not-in-list' };
