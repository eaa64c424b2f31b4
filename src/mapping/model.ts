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
  | { readonly kind: 'hex'; readonly base: string };

export interface Attribute {
  readonly name: string;
  readonly predicate: string;
  /** Expected XSD datatype IRI, used to convert values to JSON (and to type filter values). */
  readonly datatype?: string;
  /** Preferred language tag: values in that tag win, then untagged ones, then any. */
  readonly language?: string;
  /** `true`: the attribute is an array of every value. */
  readonly many: boolean;
}

export interface Relationship {
  readonly name: string;
  readonly predicate: string;
  /** Name of the target resource type (a key of {@link Mapping.types}). */
  readonly target: string;
  readonly cardinality: 'one' | 'many';
  /** `true`: follow the predicate from object to subject. */
  readonly inverse: boolean;
}

export interface ResourceType {
  readonly name: string;
  readonly classIri: string;
  readonly id: IdStrategy;
  readonly attributes: ReadonlyMap<string, Attribute>;
  readonly relationships: ReadonlyMap<string, Relationship>;
  /** Sort fields used when a request has no `sort`, as written (`-financial-year`); validated at load. */
  readonly defaultSort: readonly string[];
}

export interface Mapping {
  /** Where the mapping came from, for messages. */
  readonly source: string;
  readonly types: ReadonlyMap<string, ResourceType>;
}
