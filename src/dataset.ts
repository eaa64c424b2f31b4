import type { Mapping } from './mapping/model.js';
import { DEFAULT_REQUEST_LIMITS, type PlanOptions } from './plan/plan.js';
import { DEFAULT_INCLUDE_DEPTH } from './request/parse-include.js';
import { DEFAULT_PAGE_LIMITS } from './request/parse-page.js';
import type { FilterSyntax } from './request/parse-query.js';
import type { Store } from './store/store.js';

/*
 * The dataset model: what the CLI opens from a configuration and the HTTP layer serves. It sits
 * above the pipeline stages (it holds a store) and below http/ and cli/.
 */

/** What a dataset's configuration may tune about its responses: the plan's options, and HTTP caching. */
export interface DatasetOptions extends PlanOptions {
  /**
   * `Cache-Control` of every 200 and 304. The default, `no-cache`, lets any cache keep a response
   * but makes it revalidate with the ETag first: the data can change behind the server, and a
   * revalidation that matches costs a 304 with no body.
   */
  readonly cacheControl: string;
  /** How long the in-process response cache keeps this dataset's 200s; 0 (the default) keeps none. */
  readonly cacheTtlSeconds: number;
  /**
   * How long the window cache keeps this dataset's whole ordered lists, from which every page is
   * cut (`cache/window-cache.ts`); `Infinity` until evicted, 0 (the default here) keeps none.
   * The CLI keeps them without expiry for the embedded store, whose data never changes while the
   * server runs, and keeps none for an endpoint unless a TTL is given.
   */
  readonly windowCacheTtlSeconds: number;
  /** Each request's deadline: past it the store's work stops and the answer is a 504. */
  readonly timeoutMs: number;
  /**
   * `mu-cl-resources`: filters also read mu-cl-resources' syntax (`filter[:exact:name]`,
   * `filter[rel][attr]`; `request/mu-filter.ts`), so that front-ends written against it keep
   * working; `json-api` (the default): the syntax of docs/api.md only.
   */
  readonly filterSyntax: FilterSyntax;
  /**
   * Answers `explain-plan` (docs/api.md "Explain"): the document's `meta.explain` shows the steps
   * the request took, why, and each SPARQL query with its text, lane, time and rows. Off by
   * default: the queries show how the data is stored.
   */
  readonly explain: boolean;
}

/**
 * A whole list is read in the background (`cache/kept-lists.ts`), beside the requests, and may take
 * this many times a request's deadline: a page never waits on it, and is read from the store as
 * without the cache until the list is kept.
 */
export const WHOLE_LIST_DEADLINE_FACTOR = 6;

export const DEFAULT_DATASET_OPTIONS: DatasetOptions = Object.freeze({
  page: DEFAULT_PAGE_LIMITS,
  count: true,
  includeDepth: DEFAULT_INCLUDE_DEPTH,
  limits: DEFAULT_REQUEST_LIMITS,
  cacheControl: 'no-cache',
  cacheTtlSeconds: 0,
  windowCacheTtlSeconds: 0,
  timeoutMs: 10_000,
  filterSyntax: 'json-api',
  explain: false,
});

/** One published dataset: its mapping, its store, and where its links point. */
export interface Dataset {
  readonly name: string;
  readonly mapping: Mapping;
  readonly store: Store;
  /**
   * Prefix of every link the dataset's documents carry: `''` gives the spec's type-rooted paths
   * (`/trade-activities/5a3f`), an absolute base (`https://data.example.org/api/sample`) or a path
   * prefix is allowed too.
   */
  readonly linkBase: string;
  /**
   * The URL at which clients reach the server's `/` (`https://data.example.org`), when links are
   * absolute: `linkBase` starts with it, and the root document's `self` is it.
   */
  readonly publicBase?: string;
  /** Links start with the base a request's `Forwarded` / `X-Forwarded-*` give (http/public-base.ts). */
  readonly trustProxy?: boolean;
  /**
   * The graph the store's queries read, when it reads one: delta messages name a triple's graph,
   * and one outside it is reported as such (`live/change-rules.ts`).
   */
  readonly graph?: string;
  /** Defaults: {@link DEFAULT_DATASET_OPTIONS}. */
  readonly options?: Partial<DatasetOptions>;
}

export const optionsOf = (dataset: Dataset): DatasetOptions => ({ ...DEFAULT_DATASET_OPTIONS, ...dataset.options });
