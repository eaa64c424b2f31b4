import { badParameter } from '../errors/json-api-error.js';
import type { Mapping, ResourceType, SortKey } from '../mapping/model.js';
import { resolveSortField, sortableFields } from '../mapping/resolve-path.js';

/**
 * Parses a `sort` value (`a,-b,rel.attr`) for a collection of `type`; throws 400 with
 * `source.parameter: "sort"` naming the bad field and what is sortable. A value naming more than
 * `maxFields` fields, or one field twice (`id,-id`: the second key could never decide an order),
 * is a 400 too; the count is checked before any field is resolved. `planRequest` passes the
 * dataset's limit (`RequestLimits.sortFields`); without one the count is not bounded. Fields after
 * `id` are checked, then dropped: ids are unique, so they could never decide an order, and no
 * query carries them (Virtuoso 7.2 answered `sort=id,country.name` with a member twice and
 * another never, by offset and by cursor alike).
 *
 * @example parseSort('-financial-year,origin.country.name', mapping, tradeActivities, { maxFields: 10 })
 */
export function parseSort(
  value: string,
  mapping: Mapping,
  type: ResourceType,
  { maxFields = Number.POSITIVE_INFINITY, parameter = 'sort' }: { maxFields?: number; parameter?: string } = {},
): SortKey[] {
  const fields = value.split(',');
  if (fields.length > maxFields)
    throw badParameter(parameter, `${parameter} names ${fields.length} fields; at most ${maxFields} are allowed.`);
  const seen = new Map<string, string>();
  const keys = fields.map((raw) => {
    if (raw === '' || raw === '-') {
      throw badParameter(
        parameter,
        `The sort field list has an empty field ('${value}'); expected comma-separated fields such as ${sortExample(type)}.`,
      );
    }
    const key = resolveSortField(mapping, type, raw);
    if (typeof key === 'string') {
      throw badParameter(
        parameter,
        `Cannot sort ${type.name} by '${raw.replace(/^-/, '')}': ${key}. Sortable: ${sortableFields(type).join(', ')}.`,
      );
    }
    const earlier = seen.get(key.field);
    if (earlier !== undefined) {
      throw badParameter(
        parameter,
        `${parameter} names the field '${key.field}' twice ('${earlier}' and '${raw}'); name each field at most once.`,
      );
    }
    seen.set(key.field, raw);
    return key;
  });
  const id = keys.findIndex((key) => key.path.end === 'id');
  return id === -1 ? keys : keys.slice(0, id + 1);
}

/** A sort value of the type's own fields, for messages: `-year,id` (its default sort's field or its first attribute), or `id`. */
function sortExample(type: ResourceType): string {
  const field = type.defaultSort[0]?.field ?? [...type.attributes.keys()][0];
  return field === undefined || field === 'id' ? 'id' : `-${field},id`;
}

/**
 * A sort as `[field, descending]` pairs: what a memo's key or a cursor's digest holds of it (two
 * sorts with the same signature order a type's members alike).
 *
 * @example sortSignature(parseSort('-financial-year,id', mapping, tradeActivities)) // [['financial-year', true], ['id', false]]
 */
export const sortSignature = (sort: readonly SortKey[]): [string, boolean][] =>
  sort.map((key) => [key.field, key.descending]);
