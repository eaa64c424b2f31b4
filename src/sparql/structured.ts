import type { Pattern, VariableExpression, VariableTerm } from 'sparqljs';
import type { Attribute } from '../mapping/model.js';
import { bgp, iri, literal, optional, triple, values, variable } from './ast.js';

/*
 * Structured attributes (`mapping/compile-attribute.ts`) read with the attribute values, in the
 * same query: a row whose value `?o` is a structured attribute's node carries, level by level, a
 * field of that node and its value (`?o_g1 ?o_n1`, then `?o_g2 ?o_n2` for a field of a field).
 * A field is named by its path from the type's attribute (`ports.unit.label`: member names hold no
 * dot), so one VALUES per level says which predicates each parent's nodes are asked for. The node
 * itself is the row's value: a blank node's label names one node within one result, which is all
 * the rows of a resource need (`execute/rows.ts` groups them).
 */

/** The variables of nesting level `level` (1, 2, …) under the value variable `value`: a field's path and its value. */
export const nestedVariables = (value: VariableTerm, level: number) => ({
  field: variable(`${value.value}_g${level}`),
  value: variable(`${value.value}_n${level}`),
  predicate: variable(`${value.value}_q${level}`),
});

/** A structured attribute's fields, each with its path from the type's attribute. */
interface Placed {
  readonly path: string;
  readonly attribute: Attribute;
}

/**
 * `OPTIONAL { VALUES (?f ?o_q1 ?o_g1) { ("ports" <lv2:index> "ports.index") … } ?o ?o_q1 ?o_n1 OPTIONAL { …level 2… } }`:
 * the fields of the structured attributes among `attributes`, under the rows that bind `field`
 * to one of their names and `value` to a node; nothing when none is structured.
 *
 * @example structuredOptional([ports, name], variable('f'), variable('o'))
 */
export function structuredOptional(
  attributes: readonly Attribute[],
  field: VariableTerm,
  value: VariableTerm,
): Pattern[] {
  return level(
    attributes.map((attribute) => ({ path: attribute.name, attribute })),
    field,
    value,
    1,
  );
}

function level(parents: readonly Placed[], parentField: VariableTerm, base: VariableTerm, depth: number): Pattern[] {
  const structured = parents.filter(({ attribute }) => attribute.fields);
  if (structured.length === 0) return [];
  const here = nestedVariables(base, depth);
  const parentValue = depth === 1 ? base : nestedVariables(base, depth - 1).value;
  const children = structured.flatMap(({ path, attribute }) =>
    [...attribute.fields!.values()].map((child) => ({ parent: path, path: `${path}.${child.name}`, attribute: child })),
  );
  const rows = children.map(({ parent, path, attribute }) => ({
    [parentField.value]: literal(parent),
    [here.predicate.value]: iri(attribute.predicate),
    [here.field.value]: literal(path),
  }));
  return [
    optional(
      values(rows),
      bgp(triple(parentValue, here.predicate, here.value)),
      ...level(children, here.field, base, depth + 1),
    ),
  ];
}

/** How many levels of fields the structured attributes among `attributes` nest (0: none is structured). */
export function structuredDepth(attributes: readonly Attribute[]): number {
  return Math.max(0, ...attributes.map((a) => (a.fields ? 1 + structuredDepth([...a.fields.values()]) : 0)));
}

/**
 * What a query reading structured attributes projects beyond `?f ?o`: per level a field's path, its
 * value and the value's exact number text (`exact`, from `fetch-query.ts`).
 */
export function structuredProjection(
  attributes: readonly Attribute[],
  value: VariableTerm,
  exact: (value: VariableTerm) => VariableExpression,
): (VariableTerm | VariableExpression)[] {
  return Array.from({ length: structuredDepth(attributes) }, (_, i) => {
    const nested = nestedVariables(value, i + 1);
    return [nested.field, nested.value, exact(nested.value)];
  }).flat();
}
