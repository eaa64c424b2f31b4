import { badParameter } from '../errors/json-api-error.js';
import type { Mapping, ResourceType } from '../mapping/model.js';
import type { FamilyParameter } from './parse-query.js';

/** One parsed filter; every filter of a request must hold (AND). TODO(filters): the grammar. */
export type Filter = never;

/**
 * Parses the `filter` family against `type`. TODO(filters): not implemented yet.
 */
export function parseFilter(parameters: readonly FamilyParameter[], _mapping: Mapping, _type: ResourceType): Filter[] {
  const [first] = parameters;
  if (first) throw badParameter(first.name, `The 'filter' parameter family is not supported by this server yet.`);
  return [];
}
