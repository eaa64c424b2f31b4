import { badParameter } from '../errors/json-api-error.js';
import type { Mapping, ResourceType, SortKey } from '../mapping/model.js';
import { resolveSortField, sortableFields } from '../mapping/resolve-path.js';

/**
 * Parses a `sort` value (`a,-b,rel.attr`) for a collection of `type`; throws 400 with
 * `source.parameter: "sort"` naming the bad field and what is sortable.
 *
 * @example parseSort('-financial-year,origin.country.name', mapping, tradeActivities)
 */
export function parseSort(value: string, mapping: Mapping, type: ResourceType, parameter = 'sort'): SortKey[] {
  return value.split(',').map((raw) => {
    if (raw === '' || raw === '-') {
      throw badParameter(
        parameter,
        `The sort field list has an empty field ('${value}'); expected comma-separated fields such as -financial-year,id.`,
      );
    }
    const key = resolveSortField(mapping, type, raw);
    if (typeof key === 'string') {
      throw badParameter(
        parameter,
        `Cannot sort ${type.name} by '${raw.replace(/^-/, '')}': ${key}. Sortable: ${sortableFields(type).join(', ')}.`,
      );
    }
    return key;
  });
}
