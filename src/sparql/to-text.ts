import type { SparqlQuery, Term } from 'sparqljs';
import sparqljs from 'sparqljs';
import { explicitStrings } from './ast.js';

interface Writer {
  toQuery(query: SparqlQuery): string;
  toEntity(value: Term): string;
}

/** One writer for the process: it is stateless, and our queries declare no prefixes. */
const writer = (
  new sparqljs.Generator({ allPrefixes: false, indent: '  ', prefixes: {} }) as unknown as { createGenerator(): Writer }
).createGenerator();

// The generator abbreviates "x"^^xsd:string to "x" (one term in RDF 1.1); terms made by
// xsdString() must keep their datatype for Virtuoso, which tells the two apart.
const toEntity = writer.toEntity.bind(writer);
writer.toEntity = (value) =>
  value.termType === 'Literal' && explicitStrings.has(value)
    ? `${toEntity(value)}^^<${value.datatype.value}>`
    : toEntity(value);

/** Generates the SPARQL text of a query AST. */
export function toText(query: SparqlQuery): string {
  return writer.toQuery(query);
}
