import type { Quad } from '@rdfjs/types';
import { iriToId } from '../src/mapping/ids.js';
import type { Mapping } from '../src/mapping/model.js';

export const MU_UUID = 'http://mu.semte.ch/vocabularies/core/uuid';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';

/**
 * The `mu:uuid` triples mu-cl-resources needs and the data lacks: one per resource of a mapped
 * type whose id this server derives from the IRI (concepts, concept schemes, countries in the
 * sample mapping) and that has no `mu:uuid` yet, with that id as its value, so that one URL names
 * the same resource on both servers. As N-Triples lines, in the data's order.
 *
 * @example muUuidTriples(generateDataset({ activities: 10 }), mapping)[0] // '<http://linkedeconomy.org/resource/scheme/c0de> <http://mu.semte.ch/vocabularies/core/uuid> "c0de" .'
 */
export function muUuidTriples(quads: Iterable<Quad>, mapping: Mapping): string[] {
  const byClass = new Map([...mapping.types.values()].map((type) => [type.classIri, type]));
  const withUuid = new Set<string>();
  const derived = new Map<string, string>();
  for (const q of quads) {
    if (q.subject.termType !== 'NamedNode') continue;
    const subject = q.subject.value;
    if (q.predicate.value === MU_UUID) withUuid.add(subject);
    if (q.predicate.value !== RDF_TYPE || derived.has(subject)) continue;
    const type = byClass.get(q.object.value);
    if (type === undefined || type.id.kind === 'predicate') continue;
    derived.set(subject, iriToId(type.id, subject));
  }
  return [...derived]
    .filter(([subject]) => !withUuid.has(subject))
    .map(([subject, id]) => `<${subject}> <${MU_UUID}> ${JSON.stringify(id)} .`);
}
