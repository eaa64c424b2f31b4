import { badParameter } from '../errors/json-api-error.js';
import type { Mapping, ResourceType } from '../mapping/model.js';
import { resolvePath, sortableFields, type ResolvedPath } from '../mapping/resolve-path.js';

/** One sort criterion, resolved against the mapping. */
export interface SortKey {
  /** The field as the client wrote it, without the `-` (`concerns.label`). */
  readonly field: string;
  readonly descending: boolean;
  readonly path: ResolvedPath;
}

/**
 * Parses a `sort` value (`a,-b,rel.attr`) for a collection of `type`; throws 400 with
 * `source.parameter: "sort"` naming the bad field and what is sortable.
 *
 * @example parseSort('-financial-year,origin.country.name', mapping, tradeActivities)
 */
export function parseSort(value: string, mapping: Mapping, type: ResourceType, parameter = 'sort'): SortKey[] {
  return value.split(',').map((raw) => {
    const descending = raw.startsWith('-');
    const field = descending ? raw.slice(1) : raw;
    if (field === '') {
      throw badParameter(parameter, `The sort field list has an empty field ('${value}'); expected comma-separated fields such as -financial-year,id.`);
    }
    const path = resolvePath(mapping, type, field);
    if (typeof path === 'string') {
      throw badParameter(parameter, `Cannot sort ${type.name} by '${field}': ${path}. Sortable: ${sortableFields(type).join(', ')}.`);
    }
    return { field, descending, path };
  });
}
