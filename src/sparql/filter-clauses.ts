import type { Pattern, VariableTerm } from 'sparqljs';
import type { Mapping, ResourceType } from '../mapping/model.js';
import type { Filter } from '../request/parse-filter.js';

/**
 * Patterns that keep only the members of `type` bound to `subject` that pass every filter.
 * TODO(filters): not implemented yet.
 */
export function filterPatterns(_mapping: Mapping, _type: ResourceType, _filters: readonly Filter[], _subject: VariableTerm): Pattern[] {
  return [];
}
