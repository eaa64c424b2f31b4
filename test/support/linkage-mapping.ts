import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import { compileMapping } from '../../src/mapping/load-mapping.js';
import type { Mapping } from '../../src/mapping/model.js';
import { SAMPLE_MAPPING } from './each-store.js';

/** The sample mapping with `linkage: true` on activities' concerns and concepts' (inverse) narrower-concepts. */
export async function sampleWithToMany(): Promise<Mapping> {
  const raw = parseYaml(await readFile(SAMPLE_MAPPING, 'utf8'));
  raw.types['trade-activities'].relationships.concerns.linkage = true;
  raw.types.concepts.relationships['narrower-concepts'].linkage = true;
  return compileMapping(raw, SAMPLE_MAPPING);
}
