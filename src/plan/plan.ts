import type { IdLookup } from '../mapping/ids.js';
import type { Relationship, ResourceType, SortKey } from '../mapping/model.js';
import type { Cursor } from '../request/cursor.js';
import type { Fieldsets } from '../request/parse-fields.js';
import type { Filter } from '../request/parse-filter.js';
import type { IncludeNode } from '../request/parse-include.js';
import type { PageLimits, PageRequest } from '../request/parse-page.js';
import type { FilterSyntax } from '../request/parse-query.js';

/*
 * The plan: what a request asks of the store, resolved against the mapping (`plan-request.ts`
 * makes it). The query builders (`sparql/`) and the executor (`execute/`) read only these types.
 */

/** What a dataset's configuration tunes about planning: page sizes, counting, include depth and request limits. */
export interface PlanOptions {
  readonly page: PageLimits;
  /** `false` for very large collections: no total count, so no `last` link and no `meta.count`. */
  readonly count: boolean;
  /** How many relationships an `include` path may follow. */
  readonly includeDepth: number;
  readonly limits: RequestLimits;
  /** Also read mu-cl-resources' filter syntax (`request/mu-filter.ts`); `json-api` when absent. */
  readonly filterSyntax?: FilterSyntax;
}

/** Bounds on what one request may ask, so that no request's cost is unbounded; past one, a 400. */
export interface RequestLimits {
  /** Fields in `sort` (a field named twice is a 400 too). */
  readonly sortFields: number;
  /** `filter` parameters. */
  readonly filters: number;
  /** Paths in `include` (after merging prefixes). */
  readonly includePaths: number;
  /** Resources in a document's `included`. */
  readonly included: number;
}

export const DEFAULT_REQUEST_LIMITS: RequestLimits = Object.freeze({
  sortFields: 10,
  filters: 20,
  includePaths: 20,
  included: 1000,
});

/** What the document shows beyond primary data: included resources, and which fields per type. */
export interface View {
  /** The include tree; undefined when the request has no `include` (then the document has no `included`). */
  readonly include?: readonly IncludeNode[];
  readonly fields: Fieldsets;
  /** At most this many included resources (`RequestLimits.included`; its default when absent). */
  readonly maxIncluded?: number;
}

/** One page of an ordered list, and whether to count the whole list; a cursor page's cursors, decoded. */
export interface Paging {
  readonly page: PageRequest;
  readonly count: boolean;
  readonly after?: Cursor;
  readonly before?: Cursor;
}

/**
 * What a request asks of the store, resolved against the mapping; no I/O.
 * - `collection`: a page of an ordered list of resources (a type's collection, or a to-many related URL)
 * - `resource`: one resource by id
 * - `related-one`: the resource a to-one relationship points at, or null
 * - `linkage`: the resource identifiers a relationship points at (paged when to-many)
 */
export type Plan =
  | { readonly kind: 'collection'; readonly list: ListRequest; readonly paging: Paging; readonly view: View }
  | {
      readonly kind: 'resource';
      readonly type: ResourceType;
      readonly id: string;
      readonly lookup: IdLookup;
      readonly view: View;
    }
  | { readonly kind: 'related-one'; readonly list: ListRequest; readonly view: View }
  | { readonly kind: 'linkage'; readonly list: ListRequest; readonly toMany: boolean; readonly paging?: Paging };

/** The resources a related or relationship URL starts from. */
export interface ParentRef {
  readonly type: ResourceType;
  readonly lookup: IdLookup;
  readonly relationship: Relationship;
}

/** An ordered, filtered list of resources: a type's collection, or what a parent's relationship points at. */
export interface ListRequest {
  /** The type of the listed resources. */
  readonly type: ResourceType;
  /** Set for related and relationship URLs: list what the parent's relationship points at. */
  readonly parent?: ParentRef;
  readonly sort: readonly SortKey[];
  /** Every filter must hold. */
  readonly filters: readonly Filter[];
}

/** Which slice of the ordered list to select. */
export interface Window {
  readonly limit: number;
  readonly offset: number;
}

/**
 * Cursor pagination's part of a list query: keep only what lies after and/or before cursors, and
 * project the sort key values (`?key<i>`) so that the server can write a cursor for every row.
 */
export interface Keyset {
  readonly after?: Cursor;
  readonly before?: Cursor;
  /** Select from the end of the list (ORDER BY reversed): the page that ends at `before`. */
  readonly fromEnd: boolean;
}
