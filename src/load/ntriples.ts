import type { Quad, Term } from '@rdfjs/types';

import { FORBIDDEN_IRI_CHARS, RDF_LANG_STRING, XSD_STRING } from '../rdf/vocabulary.js';

// N-Triples escapes for string literals; everything else is written as raw UTF-8,
// which N-Triples, Turtle and SPARQL all accept.
const LITERAL_ESCAPES: Record<string, string> = { '\\': '\\\\', '"': '\\"', '\n': '\\n', '\r': '\\r' };
// Characters an IRIREF may not contain; n3 rejects most of them, but an IRI built
// from `\u` escapes in the source can still hold them.
const IRI_FORBIDDEN = new RegExp(FORBIDDEN_IRI_CHARS.source, 'gu');

function escapeIri(iri: string): string {
  return iri.replace(IRI_FORBIDDEN, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}`);
}

function escapeLiteral(value: string): string {
  return value.replace(/[\\"\n\r]/g, (c) => LITERAL_ESCAPES[c]!);
}

/**
 * Renames blank nodes to labels that are valid in N-Triples and SPARQL and unique
 * across the files of one load: the source label may contain characters such as `-`
 * or a trailing `.`, and two files may both use `_:b0` for different nodes.
 */
export class BlankNodeLabels {
  private readonly labels = new Map<string, string>();
  constructor(private readonly prefix: string) {}

  label(sourceLabel: string): string {
    let label = this.labels.get(sourceLabel);
    if (label === undefined) {
      label = `${this.prefix}b${this.labels.size}`;
      this.labels.set(sourceLabel, label);
    }
    return label;
  }
}

/** Serialises one subject/predicate/object/graph term in N-Triples syntax (also valid SPARQL). */
export function termToNTriples(term: Term, blanks: BlankNodeLabels): string {
  switch (term.termType) {
    case 'NamedNode':
      return `<${escapeIri(term.value)}>`;
    case 'BlankNode':
      return `_:${blanks.label(term.value)}`;
    case 'Literal': {
      const text = `"${escapeLiteral(term.value)}"`;
      if (term.language) return `${text}@${term.language}`;
      // xsd:string is written as a plain literal: the parser cannot tell the two forms apart
      // (RDF 1.1), and Virtuoso, which stores them as different values, treats "abc" as the usual one.
      const datatype = term.datatype.value;
      if (datatype === XSD_STRING || datatype === RDF_LANG_STRING) return text;
      return `${text}^^<${escapeIri(datatype)}>`;
    }
    default:
      throw new Error(`Unexpected ${term.termType} term in data`);
  }
}

/** One triple as an N-Triples line without the graph (the graph goes in the request). */
export function tripleLine(quad: Quad, blanks: BlankNodeLabels): string {
  return `${termToNTriples(quad.subject, blanks)} ${termToNTriples(quad.predicate, blanks)} ${termToNTriples(quad.object, blanks)} .\n`;
}

/** True when the triple mentions a blank node as subject or object. */
export function hasBlankNode(quad: Quad): boolean {
  return quad.subject.termType === 'BlankNode' || quad.object.termType === 'BlankNode';
}
