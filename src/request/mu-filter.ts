import { badParameter } from '../errors/json-api-error.js';
import type { Mapping, ResourceType } from '../mapping/model.js';
import { comparisonOf } from './filter-values.js';
import type { FamilyParameter } from './parse-query.js';

/*
 * mu-cl-resources' filter syntax (its README, "Querying the API"), read as this server's own
 * filters so that front-ends written against mu-cl-resources keep working: each mu parameter
 * becomes the native `filter[path][operator]=value` it means, and goes through the same parser,
 * plan and SPARQL as any other filter. Only datasets with `filterSyntax: mu-cl-resources` read it.
 */

/** mu's modifiers that have a native equivalent: `[:exact:name]` is `[name][eq]`, and so on. */
const COMPARISONS: Readonly<Record<string, string>> = {
  exact: 'eq',
  not: 'ne',
  gt: 'gt',
  gte: 'gte',
  lt: 'lt',
  lte: 'lte',
};
const MODIFIERS = ['id', 'exact', 'not', 'gt', 'gte', 'lt', 'lte', 'has', 'has-no'];

/**
 * The native filter parameter a mu-cl-resources filter parameter means, with the same `name` (so
 * that errors point at the parameter as sent). `operators` are the native operators
 * (`FILTER_OPERATORS`), which decide when a parameter is already native.
 *
 * Precedence: a parameter that is a native form mu cannot have written stays as it is: a dot path
 * (`filter[origin.country]`), or `filter[field][operator]` with one of `operators`, unless `field`
 * is a relationship whose target has a field of that name (then it is mu's path). Everything else
 * is read as mu's: `filter[name]=x` is a case-insensitive "contains" on a text attribute (an
 * equality on a typed one), `filter[rel]…[attr]` follows relationships, `[:exact:attr]`,
 * `[:not:attr]`, `[:gt:attr]`…, `[:has:field]`, `[:has-no:field]`, `[:id:]`; `filter=text`
 * searches the text attributes. A mu form with no native equivalent (`:or:`, `:uri:`, a search
 * through a relationship's resources, an unknown modifier) is a 400 that names it.
 *
 * @example muFilterParameter({ name: 'filter[:exact:title]', members: [':exact:title'], value: 'A, B' }, mapping, aidActivities, FILTER_OPERATORS) // { name: 'filter[:exact:title]', members: ['title', 'eq'], value: 'A\\, B' }
 */
export function muFilterParameter(
  parameter: FamilyParameter,
  mapping: Mapping,
  type: ResourceType,
  operators: readonly string[],
): FamilyParameter {
  const { name, members, value } = parameter;
  if (members.length === 0 || isNative(members, mapping, type, operators)) return parameter;
  const fail = (detail: string) => badParameter(name, `${detail} (mu-cl-resources filter '${name}').`);
  const hops = members.slice(0, -1);
  const last = members.at(-1)!;
  if (hops[0] === ':or:')
    throw fail(`mu's :or: groups are not supported: every filter must hold; send one request per alternative`);
  const prefix = hops.join('.');
  const path: MuPath = {
    name,
    value,
    fail,
    target: pathTarget(hops, mapping, type, fail),
    at: (field) => (prefix === '' ? field : `${prefix}.${field}`),
    ids: prefix === '' ? 'id' : prefix,
  };
  const modifier = /^:([a-z-]+):(.*)$/.exec(last);
  if (!modifier) return plainField(path, last);
  const [, kind, field] = modifier as unknown as [string, string, string];
  return modifiedField(path, kind, field);
}

/** A mu parameter whose relationship path has been followed: what its last member is read against. */
interface MuPath {
  readonly name: string;
  readonly value: string;
  readonly fail: (detail: string) => Error;
  /** The type the relationship path ends at. */
  readonly target: ResourceType;
  /** The native dot path of a field of `target`. */
  readonly at: (field: string) => string;
  /** The native path of `target`'s ids. */
  readonly ids: string;
}

const native = ({ name }: MuPath, path: string, operator: string, value: string): FamilyParameter => ({
  name,
  members: [path, operator],
  value,
});

/** The type `hops` (relationship names from `type`) lead to; a name that is no relationship is a 400. */
function pathTarget(hops: readonly string[], mapping: Mapping, type: ResourceType, fail: MuPath['fail']): ResourceType {
  let current = type;
  for (const hop of hops) {
    const relationship = current.relationships.get(hop);
    const target = relationship && mapping.types.get(relationship.target);
    if (!target)
      throw fail(
        `'${hop}' is not a relationship of ${current.name}, so it cannot start a path; relationships: ${list(current.relationships.keys())}`,
      );
    current = target;
  }
  return current;
}

/** `[name]` without a modifier: mu's search on an attribute, or its deprecated `[id]`. */
function plainField(path: MuPath, last: string): FamilyParameter {
  const { target: current, fail, value } = path;
  // mu still reads the deprecated [id] as [:id:].
  if (last === 'id') return native(path, path.ids, 'eq', value);
  const attribute = current.attributes.get(last);
  if (attribute) {
    // mu compares every value as lowercased text; a typed value (number, date) is compared as
    // such here, for equality, since "contains" on its text has no typed meaning.
    const text = comparisonOf(attribute).kind === 'text';
    return native(path, path.at(last), text ? 'contains' : 'eq', single(value));
  }
  if (current.relationships.has(last))
    throw fail(
      `mu searches every property of the resources '${last}' points at; that is not translated here: filter by one of their attributes (filter[…][${last}][attribute]=…) or by id (filter[…][${last}][:id:]=…)`,
    );
  throw fail(`${current.name} has no attribute or relationship '${last}'; fields: ${fieldsOf(current)}`);
}

/** `[:kind:field]`: `:id:`, `:has:`/`:has-no:`, a comparison, or a 400 for the rest. */
function modifiedField(path: MuPath, kind: string, field: string): FamilyParameter {
  const { target: current, fail, value } = path;
  if (kind === 'id') {
    if (field !== '') throw fail(`':id:' takes no field name; write [:id:] after the relationship path`);
    return native(path, path.ids, 'eq', value);
  }
  if (kind === 'has' || kind === 'has-no') {
    if (!current.attributes.has(field) && !current.relationships.has(field))
      throw fail(`${current.name} has no attribute or relationship '${field}'; fields: ${fieldsOf(current)}`);
    // mu ignores the value ("t", "true", "yes" alike).
    return native(path, path.at(field), 'exists', kind === 'has' ? 'true' : 'false');
  }
  const operator = COMPARISONS[kind];
  if (operator !== undefined) {
    if (!current.attributes.has(field))
      throw fail(
        `':${kind}:' compares an attribute; ${current.name} has no attribute '${field}'; attributes: ${list(current.attributes.keys())}`,
      );
    return native(path, path.at(field), operator, single(value));
  }
  if (kind === 'uri')
    throw fail(`mu's :uri: filters by IRI, which ids here do not reveal; filter by id with [:id:] instead`);
  throw fail(
    `Unknown mu-cl-resources filter modifier ':${kind}:'; translated: ${MODIFIERS.map((m) => `:${m}:`).join(', ')}`,
  );
}

/** A native form that mu-cl-resources' syntax cannot also mean; see {@link muFilterParameter}. */
function isNative(members: readonly string[], mapping: Mapping, type: ResourceType, operators: readonly string[]) {
  const [field, second] = members;
  if (members.length > 2 || field!.startsWith(':')) return false;
  if (field!.includes('.')) return true;
  if (second === undefined || !operators.includes(second)) return false;
  const relationship = type.relationships.get(field!);
  const target = relationship && mapping.types.get(relationship.target);
  return !(target?.attributes.has(second) || target?.relationships.has(second));
}

/**
 * mu compares a value as a whole (only `:id:` lists several); native values are comma-separated,
 * so commas and backslashes are escaped to keep the value one.
 */
const single = (value: string) => value.replace(/\\/g, '\\\\').replace(/,/g, '\\,');

const list = (names: Iterable<string>) => [...names].join(', ') || 'none';
const fieldsOf = (type: ResourceType) => list([...type.attributes.keys(), ...type.relationships.keys()]);
