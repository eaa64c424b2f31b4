import rdf from '@rdfjs/data-model';
import type {
  AggregateExpression,
  BgpPattern,
  Expression,
  FilterPattern,
  IriTerm,
  LiteralTerm,
  OperationExpression,
  OptionalPattern,
  Pattern,
  Triple,
  ValuePatternRow,
  ValuesPattern,
  VariableTerm,
  Wildcard,
} from 'sparqljs';
import { RDF_TYPE as RDF_TYPE_IRI, XSD } from '../rdf/vocabulary.js';

/**
 * Tiny constructors for sparqljs AST nodes, so that the query builders read like the SPARQL they
 * make. Every term goes through the RDF/JS data factory: sparqljs's generator escapes literals and
 * writes IRIs in `<…>` (whose contents the mapping and id checks have already made safe).
 */
export const RDF_TYPE = rdf.namedNode(RDF_TYPE_IRI);

export const variable = (name: string): VariableTerm => rdf.variable(name);
export const iri = (value: string): IriTerm => rdf.namedNode(value);
export const literal = (value: string, datatypeOrLanguage?: string): LiteralTerm =>
  datatypeOrLanguage?.includes(':')
    ? rdf.literal(value, rdf.namedNode(datatypeOrLanguage))
    : rdf.literal(value, datatypeOrLanguage);
export const integer = (value: number): LiteralTerm => literal(String(value), `${XSD}integer`);

/**
 * Literals to be written as `"x"^^xsd:string` rather than `"x"`. RDF 1.1 makes the two one term,
 * so generators abbreviate the first to the second; Virtuoso keeps them apart, and id lookups
 * must ask for both. {@link toText} honours this mark.
 */
export const explicitStrings = new WeakSet<LiteralTerm>();
export function xsdString(value: string): LiteralTerm {
  const term = literal(value, `${XSD}string`);
  explicitStrings.add(term);
  return term;
}

export const triple = (
  subject: Triple['subject'],
  predicate: IriTerm | VariableTerm,
  object: Triple['object'],
): Triple => ({ subject, predicate, object });
export const bgp = (...triples: Triple[]): BgpPattern => ({ type: 'bgp', triples });
export const optional = (...patterns: Pattern[]): OptionalPattern => ({ type: 'optional', patterns });
export const filter = (expression: Expression): FilterPattern => ({ type: 'filter', expression });
export const bind = (expression: Expression, to: VariableTerm): Pattern => ({ type: 'bind', expression, variable: to });
export const op = (operator: string, ...args: Expression[]): OperationExpression => ({
  type: 'operation',
  operator,
  args,
});
/** `EXISTS { patterns }`, for a FILTER. */
export const exists = (...patterns: Pattern[]): OperationExpression => ({
  type: 'operation',
  operator: 'exists',
  args: [{ type: 'group', patterns }],
});
export const str = (expression: Expression): OperationExpression => op('str', expression);
/** `MIN(expression)`, `MAX(…)`, `COUNT(…)`; with `{ distinct: true }`, over the distinct values. */
export const aggregate = (
  aggregation: 'min' | 'max' | 'count',
  expression: Expression | Wildcard,
  modifiers: { readonly distinct: boolean } = { distinct: false },
): AggregateExpression => ({
  type: 'aggregate',
  aggregation,
  expression,
  distinct: modifiers.distinct,
});

/** `VALUES (?a ?b) { (x y) … }` from rows keyed by variable name (without `?`). */
export function values(rows: Record<string, IriTerm | LiteralTerm>[]): ValuesPattern {
  return {
    type: 'values',
    values: rows.map(
      (row) => Object.fromEntries(Object.entries(row).map(([name, term]) => [`?${name}`, term])) as ValuePatternRow,
    ),
  };
}
