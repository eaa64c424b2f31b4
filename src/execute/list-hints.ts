import type { Mapping } from '../mapping/model.js';

/**
 * What steers how a list is read from one request to the next (the histogram path's hints),
 * declared here and implemented by `cache/histogram-hints.ts`, one per app: the app gives it
 * through the executor's context, never as a module's global. A hint picks which query is sent,
 * never what is served: without hints ({@link NO_HINTS}) each page is read as a server that just
 * started reads it, the same answer with a query more at most.
 */
export interface ListHints {
  /** Whether this histogram query (its text) found too many values lately: the list is sorted whole. */
  manyValues(histogramText: string): boolean;
  /** Remembers that this histogram query found too many values. */
  foundManyValues(histogramText: string): void;
  /** Where what a list's histogram read last is kept (per mapping, by the histogram query's text). */
  lastHistogram<T extends object>(mapping: Mapping, histogramText: string): { last?: T };
  /** A memo of at most `max` values, for the windows guessed from one histogram. */
  memo<V extends object>(max: number): HintMemo<V>;
}

/** Values kept by key: the kept one, or the one `make` gives (then kept). */
export interface HintMemo<V> {
  kept(key: string, make: () => V): V;
}

/** No hints: nothing is remembered from one request to the next. */
export const NO_HINTS: ListHints = Object.freeze({
  manyValues: () => false,
  foundManyValues: () => {},
  lastHistogram: () => ({}),
  memo: () => ({ kept: (_key: string, make: () => never) => make() }),
});
