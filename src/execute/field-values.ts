import rdf from '@rdfjs/data-model';
import type { Term } from '@rdfjs/types';
import type { NodeValue } from '../shape/resource-objects.js';
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

/**
 * Adds a row's `?<field> ?<value>` (with `?<value>_exact`, `sparql/fetch-query.ts`) to `fields` and,
 * where the value is a structured attribute's node, the fields of that node the row carries
 * (`?<value>_g1 ?<value>_n1`, …, `sparql/structured.ts`) to the node's own values, level by level.
 * `name` reads the field name a row wrote as a literal.
 */
export function addRowValue(
  fields: FieldValues,
  row: Row,
  variables: { readonly field: string; readonly value: string },
  name: (term: Term) => string,
): void {
  const { field, value } = variables;
  const [f, o] = [row[field], row[value]];
  if (!f || !o) return;
  let [parent, node] = [fields, name(f)];
  let held = addValue(parent, node, exactNumber(o, row[`${value}_exact`]));
  for (let depth = 1; held.termType !== 'Literal'; depth++) {
    const [g, n] = [row[`${value}_g${depth}`], row[`${value}_n${depth}`]];
    if (!g || !n) return;
    const own = nodeFields(parent, node, held);
    const path = name(g); // `ports.scale-points.label`: member names hold no dot
    [parent, node] = [own, path.slice(path.lastIndexOf('.') + 1)];
    held = addValue(own, node, exactNumber(n, row[`${value}_n${depth}_exact`]));
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
