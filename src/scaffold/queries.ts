import { ID_PATTERNS } from '../mapping/ids.js';
import { isSafeAbsoluteIri } from '../mapping/iri.js';
import { RDF_TYPE, RDFS_CLASS, SH } from '../rdf/vocabulary.js';

/**
 * The SPARQL a scaffold asks, as fixed text. The only values that enter it are IRIs read from the
 * store, each checked by `isSafeAbsoluteIri` (no `<`, `>`, `"`, `\`, space or control can be in
 * one), so none can close the `<…>` or `"…"` it is written in. Every query is bounded: a LIMIT on
 * its rows, and per-class queries look at a sample of the members only, so that a scaffold takes
 * seconds on a store of millions of triples.
 */

/**
 * `<iri>`, for an IRI the server accepts; throws otherwise (the caller skips what it can't name).
 *
 * @example iriRef('http://x.org/C') // '<http://x.org/C>'
 */
export function iriRef(iri: string): string {
  if (!isSafeAbsoluteIri(iri)) throw new Error(`not an IRI a query may hold: ${JSON.stringify(iri)}`);
  return `<${iri}>`;
}

/** A SPARQL string literal of an IRI's text (for STRSTARTS): safe IRIs only, like {@link iriRef}. */
function iriText(iri: string): string {
  iriRef(iri);
  return `"${iri}"`;
}

/** A SPARQL string literal (STRING_LITERAL2) of any text, `\` `"` and line breaks escaped. */
function stringLiteral(text: string): string {
  const escapes: Record<string, string> = { '\\': '\\\\', '"': '\\"', '\n': '\\n', '\r': '\\r' };
  return `"${text.replace(/["\\\n\r]/g, (c) => escapes[c]!)}"`;
}

/** `mapping/ids.ts`'s template ids as a SPARQL regex (its syntax is the XPath subset both share). */
const TEMPLATE_ID_REGEX = stringLiteral(ID_PATTERNS.template.source);

/** A sub-select of up to `size` members of the class: the sample the per-class queries describe. */
function sample(classIri: string, size: number, variable = 's'): string {
  return `{ SELECT ?${variable} WHERE { ?${variable} a ${iriRef(classIri)} FILTER(isIRI(?${variable})) } LIMIT ${size} }`;
}

/**
 * The classes with members that are IRIs, most members first: `?class ?members`.
 *
 * @example classesQuery(200)
 */
export function classesQuery(limit: number): string {
  return `SELECT ?class (COUNT(?s) AS ?members) WHERE { ?s a ?class FILTER(isIRI(?s) && isIRI(?class)) }
GROUP BY ?class ORDER BY DESC(?members) ?class LIMIT ${limit}`;
}

/**
 * Up to `size` member IRIs of a class: `?s`.
 *
 * @example membersQuery('http://www.w3.org/2004/02/skos/core#Concept', 1000)
 */
export function membersQuery(classIri: string, size: number): string {
  return `SELECT ?s WHERE ${sample(classIri, size)} LIMIT ${size}`;
}

/**
 * Per predicate of the sampled members (rdf:type aside): how many carry it, the most values one
 * has, and how many values are literals, IRIs and blank nodes:
 * `?p ?members ?max ?literals ?iris ?blanks`.
 *
 * @example predicatesQuery('http://www.w3.org/2004/02/skos/core#Concept', 1000, 5000)
 */
export function predicatesQuery(classIri: string, size: number, limit: number): string {
  return `SELECT ?p (COUNT(?s) AS ?members) (MAX(?n) AS ?max) (SUM(?l) AS ?literals) (SUM(?i) AS ?iris) (SUM(?b) AS ?blanks)
WHERE {
  { SELECT ?s ?p (COUNT(?o) AS ?n) (SUM(IF(isLiteral(?o), 1, 0)) AS ?l) (SUM(IF(isIRI(?o), 1, 0)) AS ?i) (SUM(IF(isBlank(?o), 1, 0)) AS ?b)
    WHERE { ${sample(classIri, size)} ?s ?p ?o FILTER(?p != <${RDF_TYPE}>) } GROUP BY ?s ?p }
} GROUP BY ?p ORDER BY DESC(?members) ?p LIMIT ${limit}`;
}

/**
 * Per predicate, datatype and language of the sampled members' literals: how many members have
 * such values and the most one has: `?p ?datatype ?language ?members ?max`. (A language-tagged
 * literal's datatype is rdf:langString on some stores and unbound on others: its `?language` says.)
 *
 * @example literalsQuery('http://www.w3.org/2004/02/skos/core#Concept', 1000, 5000)
 */
export function literalsQuery(classIri: string, size: number, limit: number): string {
  return `SELECT ?p ?datatype ?language (COUNT(?s) AS ?members) (MAX(?n) AS ?max)
WHERE {
  { SELECT ?s ?p ?datatype ?language (COUNT(?o) AS ?n)
    WHERE { ${sample(classIri, size)} ?s ?p ?o FILTER(isLiteral(?o)) BIND(DATATYPE(?o) AS ?datatype) BIND(LANG(?o) AS ?language) }
    GROUP BY ?s ?p ?datatype ?language }
} GROUP BY ?p ?datatype ?language ORDER BY ?p ?datatype ?language LIMIT ${limit}`;
}

/**
 * Per predicate, the classes of the sampled members' IRI objects (unbound: none): `?p ?class ?values`.
 *
 * @example objectClassesQuery('http://www.w3.org/2004/02/skos/core#Concept', 1000, 5000)
 */
export function objectClassesQuery(classIri: string, size: number, limit: number): string {
  return `SELECT ?p ?class (COUNT(?o) AS ?values)
WHERE { ${sample(classIri, size)} ?s ?p ?o FILTER(isIRI(?o) && ?p != <${RDF_TYPE}>) OPTIONAL { ?o a ?class FILTER(isIRI(?class)) } }
GROUP BY ?p ?class ORDER BY ?p ?class LIMIT ${limit}`;
}

/**
 * Per predicate and class of the subjects pointing at sampled members: how many members are
 * pointed at, and the most subjects pointing at one: `?p ?class ?members ?max`.
 *
 * @example incomingQuery('http://www.w3.org/2004/02/skos/core#Concept', 1000, 5000)
 */
export function incomingQuery(classIri: string, size: number, limit: number): string {
  return `SELECT ?p ?class (COUNT(?o) AS ?members) (MAX(?n) AS ?max)
WHERE {
  { SELECT ?o ?p ?class (COUNT(?x) AS ?n)
    WHERE { ${sample(classIri, size, 'o')} ?x ?p ?o . ?x a ?class FILTER(isIRI(?x) && isIRI(?class) && ?p != <${RDF_TYPE}>) }
    GROUP BY ?o ?p ?class }
} GROUP BY ?p ?class ORDER BY ?p ?class LIMIT ${limit}`;
}

/**
 * The values of one predicate on the sampled members: `?v`.
 *
 * @example valuesQuery('http://x.org/C', 'http://mu.semte.ch/vocabularies/core/uuid', 1000)
 */
export function valuesQuery(classIri: string, predicate: string, size: number): string {
  return `SELECT ?v WHERE { ${sample(classIri, size)} ?s ${iriRef(predicate)} ?v } LIMIT ${size}`;
}

/**
 * One member of the class whose IRI does not start with `base` or, with `hex`, whose rest is not
 * lowercase hex (at most one row, `?s`): the check that a strategy proposed from a sample fits
 * every member.
 *
 * @example outlierQuery('http://x.org/C', 'http://x.org/c/', true) // … !STRSTARTS(STR(?s), "http://x.org/c/") || !REGEX(…) … LIMIT 1
 */
export function outlierQuery(classIri: string, base: string, hex: boolean): string {
  const rest = hex ? ` || !REGEX(SUBSTR(STR(?s), ${[...base].length + 1}), ${TEMPLATE_ID_REGEX})` : '';
  return `SELECT ?s WHERE { ?s a ${iriRef(classIri)} FILTER(isIRI(?s) && (!STRSTARTS(STR(?s), ${iriText(base)})${rest})) } LIMIT 1`;
}

/**
 * One member of the class without a value of `predicate` (at most one row, `?s`): the check that
 * a `predicate` id fits every member.
 *
 * @example missingQuery('http://x.org/C', 'http://mu.semte.ch/vocabularies/core/uuid')
 */
export function missingQuery(classIri: string, predicate: string): string {
  return `SELECT ?s WHERE { ?s a ${iriRef(classIri)} FILTER(isIRI(?s) && NOT EXISTS { ?s ${iriRef(predicate)} ?v }) } LIMIT 1`;
}

/**
 * The SHACL node shapes with a target class (`sh:targetClass`, or a shape that is itself an
 * rdfs:Class) and their property shapes with an IRI path or an inverse IRI path:
 * `?class ?property ?path ?inversePath ?datatype ?target ?maxCount ?name ?nodeKind ?order`.
 *
 * @example shapesQuery(5000)
 */
export function shapesQuery(limit: number): string {
  return `PREFIX sh: <${SH}>
SELECT ?class ?property ?path ?inversePath ?datatype ?target ?maxCount ?name ?nodeKind ?order
WHERE {
  { ?shape sh:targetClass ?class } UNION { ?shape a sh:NodeShape, <${RDFS_CLASS}> BIND(?shape AS ?class) }
  FILTER(isIRI(?class))
  ?shape sh:property ?property .
  { ?property sh:path ?path FILTER(isIRI(?path)) } UNION { ?property sh:path ?p0 . ?p0 sh:inversePath ?inversePath FILTER(isIRI(?inversePath)) }
  OPTIONAL { ?property sh:datatype ?datatype }
  OPTIONAL { ?property sh:class ?target }
  OPTIONAL { ?property sh:maxCount ?maxCount }
  OPTIONAL { ?property sh:name ?name }
  OPTIONAL { ?property sh:nodeKind ?nodeKind }
  OPTIONAL { ?property sh:order ?order }
} LIMIT ${limit}`;
}
