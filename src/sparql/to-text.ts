import type { Expression, SparqlQuery, Term } from 'sparqljs';
import sparqljs from 'sparqljs';
import type { TextOrder } from '../rdf/text-order.js';
import { explicitStrings } from './ast.js';
import { codePointKey, markedText } from './text-key.js';

interface Writer {
  toQuery(query: SparqlQuery): string;
  toEntity(value: Term): string;
  toExpression(expression: Expression): string;
}

// JavaScript counts U+2028 and U+2029 as line ends, so the generator's indenting would put spaces
// after them inside a string or IRI; written as SPARQL's \u escapes, the term stays what it was.
const LINE_SEPARATORS = /[\u2028\u2029]/g;
const escapeSeparators = (text: string) =>
  text.replace(LINE_SEPARATORS, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase()}`);

function createWriter(writeTextKey: (text: Expression) => Expression): Writer {
  const writer = (
    new sparqljs.Generator({ allPrefixes: false, indent: '  ', prefixes: {} }) as unknown as {
      createGenerator(): Writer;
    }
  ).createGenerator();
  // The generator abbreviates "x"^^xsd:string to "x" (one term in RDF 1.1); terms made by
  // xsdString() must keep their datatype for Virtuoso, which tells the two apart.
  const toEntity = writer.toEntity.bind(writer);
  writer.toEntity = (value) =>
    escapeSeparators(
      value.termType === 'Literal' && explicitStrings.has(value)
        ? `${toEntity(value)}^^<${value.datatype.value}>`
        : toEntity(value),
    );
  // A text key (sparql/text-key.ts) is written in the engine's text order; the generator writes
  // nested expressions through this method too. An operation's operands are written first, so
  // that the generator sees a constant where the key is one (it puts other operands of `<` in
  // parentheses): on an engine that orders by code point, the text is exactly as if unmarked.
  const toExpression = writer.toExpression.bind(writer);
  const written = (expression: Expression): Expression => {
    const text = markedText(expression);
    return text === undefined ? expression : written(writeTextKey(text));
  };
  writer.toExpression = (expression) => {
    const own = written(expression);
    if (!('type' in own) || own.type !== 'operation') return toExpression(own);
    const args = own.args.map((arg) => (Array.isArray(arg) ? arg : written(arg as Expression)));
    // A copy only where an operand was a key: most operations of most queries have none.
    return toExpression(args.every((arg, i) => arg === own.args[i]) ? own : { ...own, args });
  };
  return writer;
}

/** A query of a template (`query-template.ts`) with the values of its slots: its template writes it. */
export interface FilledQuery {
  readonly template: { write(values: readonly string[], textOrder: TextOrder): string };
  readonly values: readonly string[];
}

/** One writer per text order, for the process: they are stateless, and our queries declare no prefixes. */
const WRITERS: Record<TextOrder, Writer> = {
  'code point': createWriter((text) => text),
  'UTF-16 code units': createWriter(codePointKey),
};

/**
 * Generates the SPARQL text of a query AST, with its text keys written for an engine that orders
 * text by `textOrder` (default: by code point, where a text key is the text itself); or of a
 * template's query with its terms (`query-template.ts`).
 */
export function toText(query: SparqlQuery | FilledQuery, textOrder: TextOrder = 'code point'): string {
  if (!('type' in query)) return query.template.write(query.values, textOrder);
  return WRITERS[textOrder].toQuery(query);
}

/** One term as the generator writes it inside a query (`<iri>`, `"text"@en`, `"x"^^<…#string>`). */
export function termText(term: Term, textOrder: TextOrder = 'code point'): string {
  return WRITERS[textOrder].toEntity(term);
}
