/**
 * What a scaffold passes between its steps: the facts read from the store (`introspect.ts`), and
 * the mapping proposed from them (`infer-mapping.ts`, `shacl.ts`) before it is written as YAML
 * (`write-mapping.ts`). Every IRI is absolute; prefixes are applied only when writing.
 */
import type { IdProposal } from './id-strategy.js';

/** How many members carry values of one kind, and the most values of that kind one member has. */
export interface Spread {
  readonly members: number;
  readonly max: number;
}

/** What a class's sampled members do with one predicate. */
export interface PredicateStats {
  readonly iri: string;
  /** Sampled members that carry it. */
  readonly members: number;
  /** The most values one member has. */
  readonly max: number;
  /** Values of each kind, over the sample. */
  readonly literals: number;
  readonly iris: number;
  readonly blanks: number;
  /** Literals without a language, by datatype IRI. */
  readonly datatypes: Readonly<Record<string, Spread>>;
  /** Literals with a language, by lowercase language tag. */
  readonly languages: Readonly<Record<string, Spread>>;
  /** IRI values by the class they are members of (`''`: of none); a value with two classes counts twice. */
  readonly objectClasses: Readonly<Record<string, number>>;
  /** For a predicate whose values are mostly blank nodes: the statistics of those nodes' own predicates, `rdf:type` among them. */
  readonly nodes?: readonly PredicateStats[];
}

/** A predicate pointing at sampled members of a class from members of `fromClass`. */
export interface IncomingStats {
  readonly predicate: string;
  readonly fromClass: string;
  /** Sampled members pointed at, and the most subjects pointing at one. */
  readonly members: number;
  readonly max: number;
}

export interface ClassStats {
  readonly iri: string;
  /** Members that are IRIs (blank nodes can't have ids). */
  readonly members: number;
  /** Members the per-class statistics describe (at most the sample size). */
  readonly sampled: number;
  /** The id strategy, checked against every member. */
  readonly id: IdProposal;
  readonly predicates: readonly PredicateStats[];
  readonly incoming: readonly IncomingStats[];
}

/** One `sh:property` of a node shape. */
export interface ShapeProperty {
  /** `sh:path`, or the predicate of an `sh:inversePath`. */
  readonly path: string;
  readonly inverse: boolean;
  readonly datatype?: string;
  /** `sh:class`. */
  readonly target?: string;
  readonly maxCount?: number;
  /** `sh:name`, the English or untagged one when there are several. */
  readonly name?: string;
  /** `sh:nodeKind` (`sh:IRI`, `sh:Literal`, …). */
  readonly nodeKind?: string;
  readonly order?: number;
}

/** The properties the SHACL node shapes of one target class describe (all its shapes merged). */
export interface NodeShape {
  readonly classIri: string;
  readonly properties: readonly ShapeProperty[];
}

/** What a scaffold knows about a dataset: its classes, and the SHACL shapes it carries. */
export interface Introspection {
  readonly classes: readonly ClassStats[];
  readonly shapes: readonly NodeShape[];
  /** Things left out, in words, for the mapping's header. */
  readonly notes: readonly string[];
}

export interface ScaffoldAttribute {
  readonly name: string;
  readonly predicate: string;
  readonly datatype?: string;
  readonly language?: string;
  readonly many: boolean;
  /** A structured attribute's fields (`mapping/compile-attribute.ts`), from the blank nodes it reaches. */
  readonly fields?: readonly ScaffoldAttribute[];
  /** What the data (or the shape) showed, for the field's comment. */
  readonly note: string;
}

export interface ScaffoldRelationship {
  readonly name: string;
  readonly predicate: string;
  /** A type name of the same scaffold. */
  readonly target: string;
  readonly cardinality: 'one' | 'many';
  readonly inverse: boolean;
  readonly note: string;
}

export interface ScaffoldType {
  readonly name: string;
  readonly classIri: string;
  readonly members: number;
  readonly id: IdProposal;
  readonly defaultSort?: readonly string[];
  readonly attributes: readonly ScaffoldAttribute[];
  readonly relationships: readonly ScaffoldRelationship[];
  /** Where its fields come from (data or SHACL), and what was left out. */
  readonly note: string;
}

/** A proposed mapping, with what each part rests on. */
export interface ScaffoldMapping {
  /** Prefix name → namespace, for the IRIs the mapping writes. */
  readonly prefixes: Readonly<Record<string, string>>;
  readonly types: readonly ScaffoldType[];
  readonly notes: readonly string[];
}
