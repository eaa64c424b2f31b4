import { ID_PATTERNS } from '../mapping/ids.js';
import { isSafeAbsoluteIri } from '../mapping/iri.js';
import { RDF_TYPE, RDFS_CLASS, SH } from '../rdf/vocabulary.js';

/**
 * The SPARQL a scaffold asks, as fixed text. The only values that enter it are IRIs read from the
 * store, each checked by `isSafeAbsoluteIri` (no `<`, `>`, `"`, `\`, space or control can be in
 * one), so none can close the `<…>` or `"…"` it is written in. Every query is bounded: a LIMIT on
 * its rows, and per-class queries look at a sample of the members only (a VALUES block of the
 * IRIs {@link membersQuery} chose), so that a scaffold takes seconds on a store of millions of
 * triples, and every store answers the same.
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

/**
 * The sample as a VALUES block of its IRIs (each checked by {@link iriRef}): the per-class queries
 * start from it on every engine, whatever its planner would do with a sub-select (Jena evaluated
 * a sample sub-select and the triples it joins on their own, then joined them: 9 s on 2,600
 * triples; Virtuoso answered an OPTIONAL after one with fewer rows than the other stores).
 */
function sampleValues(sample: readonly string[], variable = 's'): string {
  return `VALUES ?${variable} { ${sample.map(iriRef).join(' ')} }`;
}

/**
 * Whose statistics a per-class query gathers: the sample's members themselves, or (with `path`)
 * the blank nodes reached from them through those predicates, one per step (`path: [lv2:port]`:
 * each member's ports), with the nodes' own `rdf:type` (`types`), which is what they are rather
 * than a class they are members of. A node reached from two members counts twice.
 */
export interface Subjects {
  readonly sample: readonly string[];
  readonly path?: readonly string[];
}

/**
 * `VALUES ?s0 { … } ?s0 <p1> ?s1 . ?s1 <p2> ?s .` and the FILTER condition that the nodes on the
 * way are blank: one basic graph pattern, so that every engine starts from the VALUES (a FILTER
 * between its triples made Jena split and join the parts, see {@link linksOf}).
 */
function subjectsPattern({ sample, path = [] }: Subjects): { readonly pattern: string; readonly blank: string[] } {
  if (path.length === 0) return { pattern: sampleValues(sample), blank: [] };
  const node = (i: number) => (i === path.length ? '?s' : `?s${i}`);
  const steps = path.map((predicate, i) => `${node(i)} ${iriRef(predicate)} ${node(i + 1)} .`);
  return {
    pattern: `${sampleValues(sample, 's0')} ${steps.join(' ')}`,
    blank: path.map((_, i) => `isBlank(${node(i + 1)})`),
  };
}

/** `FILTER(a && b …)` of the conditions, or nothing when there are none. */
const filterOf = (conditions: readonly string[]) =>
  conditions.length === 0 ? '' : `FILTER(${conditions.join(' && ')})`;

/**
 * A sub-select of the sample's links to IRIs (rdf:type aside), `?p ?o`, one row per member and
 * value: what the class queries join `?o a ?class` with. A sub-select, so that the FILTER stays
 * with the triple it tests: Jena split `VALUES ?s … ?s ?p ?o FILTER(…) ?o a ?class` at the
 * filter and joined the parts, each evaluated alone (9.8 s on 2,600 triples; 0.25 s this way).
 */
function linksOf(sample: readonly string[]): string {
  return `{ SELECT ?p ?o WHERE { ${sampleValues(sample)} ?s ?p ?o FILTER(isIRI(?o) && ?p != <${RDF_TYPE}>) } }`;
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
 * The first `size` member IRIs of a class in the order of their text: `?s`, the sample the
 * per-class queries describe. Ordered so that every store takes the same members (without ORDER
 * BY, each returns the first it finds in its own index order); the cost is that the store reads
 * and sorts every member of the class instead of stopping at `size`. `STR`, because Virtuoso
 * orders IRIs themselves by its internal ids.
 *
 * @example membersQuery('http://www.w3.org/2004/02/skos/core#Concept', 1000)
 */
export function membersQuery(classIri: string, size: number): string {
  return `SELECT ?s WHERE { ?s a ${iriRef(classIri)} FILTER(isIRI(?s)) } ORDER BY STR(?s) LIMIT ${size}`;
}

/**
 * Per predicate of the sample's members (rdf:type aside): how many carry it, the most values one
 * has, and how many values are literals, IRIs and blank nodes:
 * `?p ?members ?max ?literals ?iris ?blanks`.
 *
 * @example predicatesQuery(sampleIris, 5000)
 */
export function predicatesQuery(sample: readonly string[] | Subjects, limit: number): string {
  const subjects = 'sample' in sample ? sample : { sample };
  const { pattern, blank } = subjectsPattern(subjects);
  const types = subjects.path?.length ? [] : [`?p != <${RDF_TYPE}>`];
  return `SELECT ?p (COUNT(?s) AS ?members) (MAX(?n) AS ?max) (SUM(?l) AS ?literals) (SUM(?i) AS ?iris) (SUM(?b) AS ?blanks)
WHERE {
  { SELECT ?s ?p (COUNT(?o) AS ?n) (SUM(IF(isLiteral(?o), 1, 0)) AS ?l) (SUM(IF(isIRI(?o), 1, 0)) AS ?i) (SUM(IF(isBlank(?o), 1, 0)) AS ?b)
    WHERE { ${pattern} ?s ?p ?o ${filterOf([...blank, ...types])} } GROUP BY ?s ?p }
} GROUP BY ?p ORDER BY DESC(?members) ?p LIMIT ${limit}`;
}

/**
 * Per predicate, datatype and language of the sample's members' literals: how many members have
 * such values and the most one has: `?p ?datatype ?language ?members ?max`. (A language-tagged
 * literal's datatype is rdf:langString on some stores and unbound on others: its `?language` says.)
 *
 * @example literalsQuery(sampleIris, 5000)
 */
export function literalsQuery(sample: readonly string[] | Subjects, limit: number): string {
  const { pattern, blank } = subjectsPattern('sample' in sample ? sample : { sample });
  return `SELECT ?p ?datatype ?language (COUNT(?s) AS ?members) (MAX(?n) AS ?max)
WHERE {
  { SELECT ?s ?p ?datatype ?language (COUNT(?o) AS ?n)
    WHERE { ${pattern} ?s ?p ?o ${filterOf([...blank, 'isLiteral(?o)'])} BIND(DATATYPE(?o) AS ?datatype) BIND(LANG(?o) AS ?language) }
    GROUP BY ?s ?p ?datatype ?language }
} GROUP BY ?p ?datatype ?language ORDER BY ?p ?datatype ?language LIMIT ${limit}`;
}

/**
 * Per predicate, the classes of the sample's members' IRI objects: `?p ?class ?values`, a value
 * with two classes counted twice. An inner join, not `OPTIONAL { ?o a ?class }`, whose answer
 * after a sample sub-select differed on Virtuoso (2 rows for 7): the values of no class come from
 * {@link untypedObjectsQuery}.
 *
 * @example objectClassesQuery(sampleIris, 5000)
 */
export function objectClassesQuery(sample: readonly string[], limit: number): string {
  return `SELECT ?p ?class (COUNT(?o) AS ?values)
WHERE { ${linksOf(sample)} ?o a ?class FILTER(isIRI(?class)) }
GROUP BY ?p ?class ORDER BY ?p ?class LIMIT ${limit}`;
}

/**
 * Per predicate, how many of the sample's members' IRI objects are members of no class: `?p ?values`.
 *
 * @example untypedObjectsQuery(sampleIris, 5000)
 */
export function untypedObjectsQuery(sample: readonly string[], limit: number): string {
  return `SELECT ?p (COUNT(?o) AS ?values)
WHERE { ${linksOf(sample)} FILTER NOT EXISTS { ?o a ?class FILTER(isIRI(?class)) } }
GROUP BY ?p ORDER BY ?p LIMIT ${limit}`;
}

/**
 * Per predicate and class of the subjects pointing at sample's members: how many members are
 * pointed at, and the most subjects pointing at one: `?p ?class ?members ?max`.
 *
 * @example incomingQuery(sampleIris, 5000)
 */
export function incomingQuery(sample: readonly string[], limit: number): string {
  return `SELECT ?p ?class (COUNT(?o) AS ?members) (MAX(?n) AS ?max)
WHERE {
  { SELECT ?o ?p ?class (COUNT(?x) AS ?n)
    WHERE {
      { SELECT ?o ?p ?x WHERE { ${sampleValues(sample, 'o')} ?x ?p ?o FILTER(isIRI(?x) && ?p != <${RDF_TYPE}>) } }
      ?x a ?class FILTER(isIRI(?class))
    }
    GROUP BY ?o ?p ?class }
} GROUP BY ?p ?class ORDER BY ?p ?class LIMIT ${limit}`;
}

/**
 * The values of one predicate on the sample's members: `?v`.
 *
 * @example valuesQuery(sampleIris, 'http://mu.semte.ch/vocabularies/core/uuid')
 */
export function valuesQuery(sample: readonly string[], predicate: string): string {
  return `SELECT ?v WHERE { ${sampleValues(sample)} ?s ${iriRef(predicate)} ?v } ORDER BY STR(?v) LIMIT ${sample.length}`;
}

/**
 * One member of the class whose IRI does not start with `base` or, with `hex`, whose rest is not
 * lowercase hex (at most one row, `?s`): the check that a strategy proposed from a sample fits
 * every member.
 *
 * @example outlierQuery('http://x.org/C', 'http://x.org/c/', { hex: true }) // … !STRSTARTS(STR(?s), "http://x.org/c/") || !REGEX(…) … LIMIT 1
 */
export function outlierQuery(classIri: string, base: string, rest: { readonly hex: boolean }): string {
  const hexRest = rest.hex ? ` || !REGEX(SUBSTR(STR(?s), ${[...base].length + 1}), ${TEMPLATE_ID_REGEX})` : '';
  return `SELECT ?s WHERE { ?s a ${iriRef(classIri)} FILTER(isIRI(?s) && (!STRSTARTS(STR(?s), ${iriText(base)})${hexRest})) } LIMIT 1`;
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
