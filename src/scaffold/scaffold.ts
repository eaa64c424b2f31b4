import type { Store } from '../store/store.js';
import { declaredPrefixes } from './file-prefixes.js';
import { inferMapping } from './infer-mapping.js';
import { type IntrospectOptions, introspect } from './introspect.js';
import type { ScaffoldMapping } from './model.js';
import { type WrittenMapping, writeMapping } from './write-mapping.js';

/** A dataset a scaffold can't map: no class has a member with an IRI. */
export class ScaffoldError extends Error {
  override name = 'ScaffoldError';
}

export interface ScaffoldOptions extends IntrospectOptions {
  /** The data files, whose declared prefixes the mapping reuses (none for an endpoint). */
  readonly files?: readonly string[];
  /** Where the data came from, for the mapping's header. */
  readonly description: string;
}

export interface Scaffold extends WrittenMapping {
  /** The proposal, with what each part rests on. */
  readonly scaffold: ScaffoldMapping;
}

/**
 * A starter mapping for the data a store holds: introspects it (`introspect.ts`), proposes a
 * mapping (`infer-mapping.ts`), and writes it as commented YAML (`write-mapping.ts`). Throws a
 * {@link ScaffoldError} when the data has no class with members.
 *
 * @example const { yaml } = await scaffoldMapping(store, { files: ['mine.ttl'], description: 'mine.ttl' })
 */
export async function scaffoldMapping(store: Store, options: ScaffoldOptions): Promise<Scaffold> {
  const [facts, declared] = await Promise.all([introspect(store, options), declaredPrefixes(options.files ?? [])]);
  const scaffold = inferMapping(facts, declared);
  if (scaffold.types.length === 0)
    throw new ScaffoldError(
      `${options.description}: no class has a member with an IRI (no "?s a ?class" triple), so there is nothing to map`,
    );
  return { scaffold, ...writeMapping(scaffold, { description: options.description }) };
}
