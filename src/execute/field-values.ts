import rdf from '@rdfjs/data-model';
import type { Term } from '@rdfjs/types';
import type { VariableTerm } from 'sparqljs';
import { MAX_DEPTH } from '../mapping/compile-attribute.js';
import type { NodeValue } from '../shape/resource-objects.js';
import { exactVariable } from '../sparql/fetch-query.js';
import { nestedVariables } from '../sparql/structured.js';
import type { Row } from '../store/store.js';
import { exactNumber } from './exact-number.js';

/** A resource's values, by field (attribute) name; each value once. */
export type FieldValues = Map<string, Term[]>;

/**
 * Adds `value` to `field`'s values unless it is there already.
 * @returns the value as `fields` holds it (the one there already, when equal)
 */
export function addValue(fields: FieldValues, field: string, value: Term): Term {
  const values = fields.get(field);
  if (!values) {
    fields.set(field, [value]);
    return value;
  }
  const held = values.find((v) => v.equals(value));
  if (held) return held;
  values.push(value);
  return value;
}

/** The names of a fetch's value variables, worked out once: `?<value>`, its exact text, and each nesting level's field and value. */
export interface ValueVariables {
  readonly field: string;
  readonly value: string;
  readonly exact: string;
  readonly levels: readonly { readonly field: string; readonly value: string; readonly exact: string }[];
}

/**
 * The {@link ValueVariables} of a query whose field names are `?<field>` and values `?<value>`
 * (`sparql/fetch-query.ts`, `sparql/structured.ts`), for every level a mapping may nest.
 */
export function valueVariables(field: VariableTerm, value: VariableTerm): ValueVariables {
  const levels = Array.from({ length: MAX_DEPTH }, (_, i) => {
    const nested = nestedVariables(value, i + 1);
    return { field: nested.field.value, value: nested.value.value, exact: exactVariable(nested.value).value };
  });
  return { field: field.value, value: value.value, exact: exactVariable(value).value, levels };
}

/**
 * Adds a row's field value (with its exact number text) to `fields` and, where the value is a
 * structured attribute's node, the fields of that node the row carries to the node's own values,
 * level by level. `name` reads the field name a row wrote as a literal.
 */
export function addRowValue(
  fields: FieldValues,
  row: Row,
  variables: ValueVariables,
  name: (term: Term) => string,
): void {
  const [f, o] = [row[variables.field], row[variables.value]];
  if (!f || !o) return;
  let [parent, node] = [fields, name(f)];
  let held = addValue(parent, node, exactNumber(o, row[variables.exact]));
  for (const level of variables.levels) {
    const [g, n] = [row[level.field], row[level.value]];
    if (!g || !n || held.termType === 'Literal') return;
    const own = nodeFields(parent, node, held);
    const path = name(g); // `ports.scale-points.label`: member names hold no dot
    [parent, node] = [own, path.slice(path.lastIndexOf('.') + 1)];
    held = addValue(own, node, exactNumber(n, row[level.exact]));
  }
}

/** The values of a node's fields, held on the node as `fields` holds it (made a {@link NodeValue} the first time). */
function nodeFields(fields: FieldValues, field: string, held: Term): FieldValues {
  if ('fields' in held) return (held as NodeValue).fields;
  const values = fields.get(field)!;
  const copy = held.termType === 'BlankNode' ? rdf.blankNode(held.value) : rdf.namedNode(held.value);
  const node: NodeValue = Object.assign(copy, { fields: new Map<string, Term[]>() });
  values[values.indexOf(held)] = node;
  return node.fields;
}
