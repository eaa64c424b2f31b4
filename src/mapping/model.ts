/**
 * The compiled mapping: what the loader (`load-mapping.ts`) turns a mapping file into.
 * Every IRI is absolute (prefixes expanded); every object is frozen; requests never see YAML.
 */

/** How a resource's JSON:API id relates to its IRI. */
export type IdStrategy =
  /** The id is the lexical value of the resource's `predicate` literal (mu-cl-resources' `mu:uuid`). */
  | { readonly kind: 'predicate'; readonly predicate: string }
  /** IRI = prefix + id + suffix; the id is lowercase hex. */
  | { readonly kind: 'template'; readonly prefix: string; readonly suffix: string }
  /** id = lowercase hex of the UTF-8 bytes of the IRI after `base` (`''` for the whole IRI). */
  | { readonly kind: 'hex'; readonly base: string }
  /** id = the IRI after `base` (never `''`), percent-encoded to one path segment (`local-id.ts`). */
  | { readonly kind: 'local'; readonly base: string };

export interface Attribute {
  readonly name: string;
  readonly predicate: string;
  /** Expected XSD datatype IRI, used to convert values to JSON (and to type filter values). */
  readonly datatype?: string;
  /**
   * Preferred language tag, lowercase (`en`, `pt-br`): the attribute shows its values of the best
   * tier of `languageTiers` (`language.ts`): that tag, its truncations, its language, untagged,
   * any. `'*'`: every value, as an object keyed by language tag (see `language.ts`).
   */
  readonly language?: string;
  /** `true` (only with a language tag): no fallback to untagged values or other languages. */
  readonly strictLanguage?: boolean;
  /** `true`: the attribute is an array of every value. */
  readonly many: boolean;
  /**
   * Set on a {@link LinkField} only: the relationship whose targets this field reads, with the
   * attribute values, to show its resource linkage (`mapping/linkage.ts`).
   */
  readonly link?: { readonly relationship: Relationship; readonly target: ResourceType };
  /**
   * Set for a structured attribute (`structured.ts`): its values are nodes (blank nodes, or any
   * resource), each shown as a JSON object of these fields' values of that node.
   */
  readonly fields?: ReadonlyMap<string, Attribute>;
}

/** A relationship read as a field of the attribute fetch, for its resource linkage. */
export type LinkField = Attribute & { readonly link: NonNullable<Attribute['link']> };

export interface Relationship {
  readonly name: string;
  readonly predicate: string;
  /** Name of the target resource type (a key of {@link Mapping.types}). */
  readonly target: string;
  readonly cardinality: 'one' | 'many';
  /** `true`: follow the predicate from object to subject. */
  readonly inverse: boolean;
  /** The mapping's `linkage`: shows resource linkage (or not) whatever the dataset's setting; absent: the setting decides. */
  readonly linkage?: boolean;
}

export interface ResourceType {
  readonly name: string;
  readonly classIri: string;
  readonly id: IdStrategy;
  readonly attributes: ReadonlyMap<string, Attribute>;
  readonly relationships: ReadonlyMap<string, Relationship>;
  /** The order of a list when a request has no `sort`: the mapping's `defaultSort`, resolved at load. */
  readonly defaultSort: readonly SortKey[];
  /** The relationships whose objects carry resource linkage, by name (`mapping/linkage.ts`); absent: none. */
  readonly linkFields?: ReadonlyMap<string, LinkField>;
}

/** A dot path (`concerns.broader-concepts.label`) resolved against the mapping. */
export interface ResolvedPath {
  /** Relationships followed from the starting type, in order (empty for a plain attribute). */
  readonly hops: readonly Relationship[];
  /** The attribute the path ends on, or `'id'` for the resource's own id (only without hops). */
  readonly end: Attribute | 'id';
  /** True when the path can yield several values per resource (a `many` attribute or a to-many hop). */
  readonly multiValued: boolean;
}

/** One sort criterion, resolved against the mapping: a request's `sort`, or a type's `defaultSort`. */
export interface SortKey {
  /** The field as written, without the `-` (`concerns.label`). */
  readonly field: string;
  readonly descending: boolean;
  readonly path: ResolvedPath;
}

export interface Mapping {
  /** Where the mapping came from, for messages. */
  readonly source: string;
  readonly types: ReadonlyMap<string, ResourceType>;
  /** What loads but is likely a mistake (`file: key.path: why`): the server logs each at start-up. */
  readonly warnings?: readonly string[];
}
