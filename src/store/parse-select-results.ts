import rdf from '@rdfjs/data-model';
import { SparqlJsonParser } from 'sparqljson-parse';
import { type Row, StoreError } from './store.js';

/** Rows are plain `{ name → term }` objects; keys carry no `?` (prefixVariableQuestionMark off). */
const resultsParser = new SparqlJsonParser({ dataFactory: rdf });

/** Term types of SPARQL 1.1 JSON results, Virtuoso's legacy `typed-literal`, and SPARQL 1.2's quoted `triple`. */
const TERM_TYPES: ReadonlySet<string> = new Set(['uri', 'literal', 'typed-literal', 'bnode', 'triple']);

/**
 * Parses a SPARQL 1.1 Query Results JSON document (as text) into rows. Shared by both
 * adapters so they produce identical terms; sparqljson-parse also maps Virtuoso's legacy
 * `"type": "typed-literal"` to a literal with its datatype.
 *
 * Anything else is a {@link StoreError} of kind `unexpected` whose message says what is wrong:
 * text that is not JSON, no `head` or `results.bindings` (an ASK answer, an error object), a
 * binding that is not an object or that binds a variable `head.vars` does not list, a term of an
 * unknown type or without a string value. Whether the variables are the ones the query asked for
 * is for the reader of the rows to say (src/execute/rows.ts).
 *
 * @example parseSelectResults('{"head":{"vars":["s"]},"results":{"bindings":[{"s":{"type":"uri","value":"http://example.org/a"}}]}}')
 */
export function parseSelectResults(text: string): Row[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new StoreError('unexpected', `not JSON: ${(error as Error).message}`, { cause: error });
  }
  const problem = shapeProblem(json);
  if (problem !== undefined) throw new StoreError('unexpected', `not SPARQL JSON results: ${problem}`);
  try {
    return resultsParser.parseJsonResults(json);
  } catch (error) {
    throw new StoreError('unexpected', `not SPARQL JSON results: ${(error as Error).message}`, { cause: error });
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** What keeps `json` from being SELECT results, or undefined when it is. */
function shapeProblem(json: unknown): string | undefined {
  if (!isObject(json)) return 'the answer is not an object';
  if (!isObject(json.head)) return 'no "head" object';
  if (json.head.vars !== undefined && !Array.isArray(json.head.vars)) return '"head.vars" is not an array';
  if (!isObject(json.results)) return 'boolean' in json ? 'an ASK answer, not a SELECT one' : 'no "results" object';
  const bindings = json.results.bindings;
  if (!Array.isArray(bindings)) return 'no "results.bindings" array';
  const vars = Array.isArray(json.head.vars) ? new Set(json.head.vars) : undefined;
  for (const [index, binding] of bindings.entries()) {
    if (!isObject(binding)) return `binding ${index} is not an object`;
    for (const [name, term] of Object.entries(binding)) {
      if (vars !== undefined && !vars.has(name))
        return `binding ${index} has a variable "${name}" that "head.vars" does not list`;
      const problem = termProblem(term);
      if (problem !== undefined) return `binding ${index}, variable "${name}": ${problem}`;
    }
  }
  return undefined;
}

function termProblem(term: unknown): string | undefined {
  if (!isObject(term)) return 'the term is not an object';
  if (typeof term.type !== 'string' || !TERM_TYPES.has(term.type))
    return `unknown term type ${JSON.stringify(term.type)}`;
  if (term.type === 'triple') {
    if (!isObject(term.value)) return 'a quoted triple without a subject, predicate and object';
    for (const part of ['subject', 'predicate', 'object']) {
      const problem = termProblem(term.value[part]);
      if (problem !== undefined) return `in the quoted triple's ${part}: ${problem}`;
    }
    return undefined;
  }
  if (typeof term.value !== 'string') return `a ${term.type} whose value is not a string`;
  if (term.datatype !== undefined && typeof term.datatype !== 'string') return 'a datatype that is not a string';
  if (term['xml:lang'] !== undefined && typeof term['xml:lang'] !== 'string')
    return 'a language tag that is not a string';
  return undefined;
}
