import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import { compileMapping } from '../../src/mapping/load-mapping.js';
import type { Mapping } from '../../src/mapping/model.js';
import { SAMPLE_MAPPING } from './each-store.js';
import type { Oracle, Resource } from './oracle.js';

/** The sample mapping with `linkage: true` on activities' concerns and concepts' (inverse) narrower-concepts. */
export async function sampleWithToMany(): Promise<Mapping> {
  const raw = parseYaml(await readFile(SAMPLE_MAPPING, 'utf8'));
  raw.types['trade-activities'].relationships.concerns.linkage = true;
  raw.types.concepts.relationships['narrower-concepts'].linkage = true;
  return compileMapping(raw, SAMPLE_MAPPING);
}

/** The sample mapping with `linkage: true` on every to-many relationship: what WarpDrive needs to warn about none. */
export async function sampleWithEveryToMany(): Promise<Mapping> {
  const raw = parseYaml(await readFile(SAMPLE_MAPPING, 'utf8'));
  for (const type of Object.values<{ relationships?: Record<string, { cardinality: string; linkage?: boolean }> }>(
    raw.types,
  ))
    for (const relationship of Object.values(type.relationships ?? {}))
      if (relationship.cardinality === 'many') relationship.linkage = true;
  return compileMapping(raw, SAMPLE_MAPPING);
}

/** The linkage the related URL gives, by the oracle: the first target by id for a to-one (or null), every one for a to-many. */
export function expectedLinkage(oracle: Oracle, typeName: string, resource: Resource, name: string) {
  const relationship = oracle.type(typeName).relationships.get(name)!;
  const targets = oracle
    .related(typeName, resource.iri, name)
    .map((target) => ({ type: relationship.target, id: target.id }));
  return relationship.cardinality === 'one' ? (targets[0] ?? null) : targets;
}
