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
// JavaScript counts U+2028 and U+2029 as line ends, so the generator's indenting would put spaces
// after them inside a string or IRI; written as SPARQL's \u escapes, the term stays what it was.
const LINE_SEPARATORS = /[\u2028\u2029]/g;
const escapeSeparators = (text: string) =>
  text.replace(LINE_SEPARATORS, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase()}`);
writer.toEntity = (value) =>
  escapeSeparators(
    value.termType === 'Literal' && explicitStrings.has(value)
      ? `${toEntity(value)}^^<${value.datatype.value}>`
      : toEntity(value),
  );

/** Generates the SPARQL text of a query AST. */
export function toText(query: SparqlQuery): string {
  return writer.toQuery(query);
}
