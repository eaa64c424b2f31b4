import { resourceKey } from '../cache/resource-key.js';
import { fieldPredicates } from '../mapping/compile-attribute.js';
import type { Mapping } from '../mapping/model.js';
import { RDF_TYPE } from '../rdf/vocabulary.js';
import type { DeltaTriple } from './delta-triple.js';

/** The rule a changed triple fell under (a row of {@link CHANGE_RULES}). */
export type ChangeRule =
  | 'mapped-class'
  | 'unmapped-class'
  | 'mapped-predicate'
  | 'unmapped-predicate'
  | 'blank-node'
  | 'other-graph'
  | 'invalid-body';

/**
 * What a change can make stale, one row per rule: the table docs/live-data.md repeats (a unit test
 * checks that they agree). Cache entries are keyed by the IRIs their answers read
 * (`plan-reads.ts`), and an answer about one resource by the {@link resourceKey}s of the predicates
 * it reads of it, so a row names the keys a triple marks as changed; an entry that read none of
 * them is kept. Where a rule cannot be sure, it marks more, never less.
 */
export const CHANGE_RULES: Readonly<Record<ChangeRule, { readonly change: string; readonly drops: string }>> = {
  'mapped-class': {
    change: '`rdf:type` whose object is the class of a mapped type',
    drops:
      'entries that read that class: the type’s lists (order, count, histogram), its documents, documents that link to it, lists sorted or filtered through it',
  },
  'unmapped-class': { change: '`rdf:type` whose object is no mapped type’s class', drops: 'nothing' },
  'mapped-predicate': {
    change:
      'a predicate an attribute (a structured attribute’s fields too), a relationship (either direction) or an id strategy uses',
    drops:
      'entries that read that predicate: lists sorted or filtered through it, lists of the types on either end, includes, documents of an id it is the predicate of, documents that link to such an id; and entries that read it of the resource on either end only: that resource’s document, the related lists and linkage of that parent',
  },
  'unmapped-predicate': { change: 'a predicate no mapping reads', drops: 'nothing' },
  'blank-node': {
    change: 'a blank node as subject or object',
    drops:
      'as its predicate says, and entries that read that predicate of any resource: a blank node’s label is not trusted to name one resource',
  },
  'other-graph': {
    change: 'a `graph` other than the one the dataset reads',
    drops: 'as if it were in the dataset’s graph: the notifier’s graph is not trusted to be the one queries read',
  },
  'invalid-body': { change: 'a body that is not a valid delta', drops: 'every entry of every dataset (whole drop)' },
};

/** What one changed triple marks as changed in one dataset: IRIs and resource keys, under a rule. */
export interface ChangeEffect {
  readonly rule: ChangeRule;
  /** IRIs and {@link resourceKey}s whose readers are stale; empty when the rule drops nothing. */
  readonly iris: readonly string[];
}

/**
 * The IRIs of one dataset's mapping that a change can reach, compiled once per mapping: classes,
 * and the predicates of attributes, relationships and id strategies.
 *
 * @example const rules = changeRules(mapping, 'http://example.org/graph'); rules.effect(triple).rule // 'mapped-predicate'
 */
export function changeRules(mapping: Mapping, graph?: string) {
  const classes = new Set<string>();
  const predicates = new Set<string>();
  for (const type of mapping.types.values()) {
    classes.add(type.classIri);
    if (type.id.kind === 'predicate') predicates.add(type.id.predicate);
    for (const attribute of type.attributes.values())
      for (const predicate of [attribute.predicate, ...fieldPredicates(attribute)]) predicates.add(predicate);
    for (const relationship of type.relationships.values()) predicates.add(relationship.predicate);
  }
  return {
    /** The rule `triple` falls under, and the IRIs it marks. */
    effect(triple: DeltaTriple): ChangeEffect {
      const marks = mapped(triple);
      const rule: ChangeRule =
        triple.graph !== undefined && graph !== undefined && triple.graph.value !== graph && marks.iris.length > 0
          ? 'other-graph'
          : (triple.subject.type === 'bnode' || triple.object.type === 'bnode') && marks.iris.length > 0
            ? 'blank-node'
            : marks.rule;
      return { rule, iris: marks.iris };
    },
  };

  function mapped(triple: DeltaTriple): ChangeEffect {
    const { predicate, object } = triple;
    // The bare predicate for whoever reads it of many resources, the key of each end for the answers about one.
    const read = predicates.has(predicate.value) ? [predicate.value, ...endKeys(triple)] : [];
    if (predicate.value === RDF_TYPE) {
      // A predicate of the mapping could be rdf:type itself (an attribute showing a resource's
      // classes): then every rdf:type change is one of that predicate too.
      const iris = [...(classes.has(object.value) ? [object.value] : []), ...read];
      return { rule: iris.length ? 'mapped-class' : 'unmapped-class', iris };
    }
    return read.length ? { rule: 'mapped-predicate', iris: read } : { rule: 'unmapped-predicate', iris: [] };
  }
}

/** The {@link resourceKey}s of a triple's ends: an IRI's own, the wildcard for a blank node, none for a literal. */
function endKeys({ subject, predicate, object }: DeltaTriple): string[] {
  const keys = new Set<string>();
  for (const end of [subject, object]) {
    if (end.type === 'uri') keys.add(resourceKey(predicate.value, end.value));
    else if (end.type === 'bnode') keys.add(resourceKey(predicate.value));
  }
  return [...keys];
}

/** A dataset's compiled rules. */
export type ChangeRules = ReturnType<typeof changeRules>;
