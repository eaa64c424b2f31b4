import rdf from '@rdfjs/data-model';
import { SparqlJsonParser } from 'sparqljson-parse';
import type { Row } from './store.js';

/** Rows are plain `{ name → term }` objects; keys carry no `?` (prefixVariableQuestionMark off). */
const resultsParser = new SparqlJsonParser({ dataFactory: rdf });

/**
 * Parses a SPARQL 1.1 Query Results JSON document (as text) into rows. Shared by both
 * adapters so they produce identical terms; sparqljson-parse also maps Virtuoso's legacy
 * `"type": "typed-literal"` to a literal with its datatype. Throws on malformed input.
 */
export function parseSelectResults(text: string): Row[] {
  const json: unknown = JSON.parse(text);
  if (typeof json !== 'object' || json === null || !('results' in json)) {
    throw new Error('not a SELECT result (no "results" member)');
  }
  return resultsParser.parseJsonResults(json);
}
