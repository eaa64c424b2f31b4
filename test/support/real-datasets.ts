/**
 * Real datasets nobody here wrote, of different shapes, for the suites that check the scaffold and
 * the OpenAPI document on linked data as it is:
 * - `lv2` (test/fixtures/real/lv2.nt, ISC, see its LICENSE file): the LV2 specification and its
 *   example plugins, 2,623 triples: ports on blank nodes, resources typed by several classes;
 * - `schema.org` (@zazuko/rdf-vocabularies, CC BY-SA 3.0), 16,204 triples: 72 classes with
 *   members, a class hierarchy many levels deep (Thing > CreativeWork > Article > NewsArticle);
 * - `dbpedia-ontology` (the same package, CC BY-SA 3.0), 40,763 triples: 4,008 resources, 2,728
 *   of them typed by several classes (rdf:Property and owl:ObjectProperty), labels in many languages.
 * The package is a devDependency, so `npm ci` installs them in CI.
 */
const VOCABULARIES = 'node_modules/@zazuko/rdf-vocabularies/ontologies';

/** Each dataset's files, by name. */
export const REAL_DATASETS: Readonly<Record<string, readonly string[]>> = {
  lv2: ['test/fixtures/real/lv2.nt'],
  'schema.org': [`${VOCABULARIES}/schema.nq`],
  'dbpedia-ontology': [`${VOCABULARIES}/dbo.nq`],
};
