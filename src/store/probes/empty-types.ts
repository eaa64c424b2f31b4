import type { Logger } from 'pino';
import type { GroupPattern, SelectQuery, UnionPattern } from 'sparqljs';
import type { Mapping, ResourceType } from '../../mapping/model.js';
import { variable } from '../../sparql/ast.js';
import { memberPatterns } from '../../sparql/members.js';
import { toText } from '../../sparql/to-text.js';
import type { Store } from '../store.js';

/**
 * One query that finds, for every type of `types`, one member at most: a union of one sub-select
 * per type, `{ SELECT ?m<n> WHERE { <members of type n> } LIMIT 1 }`, so that the store stops at
 * the first member of each type. A type whose `?m<n>` is bound in no row has no member.
 *
 * @example toText(emptyTypesQuery([...mapping.types.values()]))
 */
export function emptyTypesQuery(types: readonly ResourceType[]): SelectQuery {
  const branches: GroupPattern[] = types.map((type, n) => {
    const member = variable(`m${n}`);
    const sub: SelectQuery = {
      type: 'query',
      queryType: 'SELECT',
      prefixes: {},
      variables: [member],
      where: memberPatterns(type, member),
      limit: 1,
    };
    return { type: 'group', patterns: [sub] };
  });
  const where = branches.length === 1 ? branches : [{ type: 'union', patterns: branches } satisfies UnionPattern];
  return {
    type: 'query',
    queryType: 'SELECT',
    prefixes: {},
    variables: types.map((_, n) => variable(`m${n}`)),
    where,
  };
}

/** The types of `mapping` that have no member in `store`: no resource of the class with an id of the type's strategy. */
export async function findEmptyTypes(mapping: Mapping, store: Store): Promise<ResourceType[]> {
  const types = [...mapping.types.values()];
  if (types.length === 0) return [];
  const rows = await store.select(toText(emptyTypesQuery(types), store.textOrder), {
    lane: 'heavy',
    label: 'empty-types',
  });
  return types.filter((_, n) => !rows.some((row) => row[`m${n}`] !== undefined));
}

/** What the warning says of a type's id strategy: which resources of its class are its members. */
function strategyOf(type: ResourceType): string {
  const id = type.id;
  if (id.kind === 'predicate') return `a <${id.predicate}> value`;
  if (id.kind === 'template') return `an IRI ${id.prefix}{hex}${id.suffix}`;
  return id.base === '' ? 'an IRI' : `an IRI under ${id.base}`;
}

/** The dataset whose types {@link warnEmptyTypes} checks. */
export interface CheckedDataset {
  readonly name: string;
  readonly mapping: Mapping;
  readonly store: Store;
}

/** Where {@link warnEmptyTypes} warns, and what its warnings say. */
export interface EmptyTypesWarnings {
  readonly logger: Pick<Logger, 'warn'>;
  /** Once aborted (the server is stopping), nothing is logged: the store closing under the query is no news. */
  readonly quiet?: AbortSignal;
  /** The graph the store reads, as the warnings name it (a graph, or the union of the files'); `its store` by default. */
  readonly where?: string;
}

/**
 * Start-up check of a dataset: warns once for every type of its mapping that has no member at all
 * (a wrong class, id strategy or graph is the usual cause), e.g. `type "units" has no member (no
 * resource of class <http://…> with an id of its strategy: a <…uuid> value) in dataset default,
 * graph <http://…>`. When no type has a member, one warning says so, naming the graph: a wrong `--graph` is then the
 * likely cause, not each type. One query for all types, on the heavy lane. It never rejects: when
 * the store cannot answer, it warns that the check could not run.
 *
 * @example void warnEmptyTypes(dataset, { logger, quiet: stopping.signal, where: 'graph <http://example.org/g>' })
 */
export async function warnEmptyTypes(checked: CheckedDataset, warnings: EmptyTypesWarnings): Promise<void> {
  const { name: dataset, mapping, store } = checked;
  const { logger, quiet, where = 'its store' } = warnings;
  let empty: ResourceType[];
  try {
    empty = await findEmptyTypes(mapping, store);
  } catch (error) {
    if (quiet?.aborted) return;
    logger.warn(
      { err: error },
      `could not check that every type has members in dataset ${dataset}: ${(error as Error).message ?? error}`,
    );
    return;
  }
  if (quiet?.aborted) return;
  if (empty.length > 1 && empty.length === mapping.types.size) {
    logger.warn(
      { types: empty.map((type) => type.name) },
      `no type of dataset ${dataset} has a member in ${where}: is that the graph the data is in? (types: ${empty.map((type) => type.name).join(', ')})`,
    );
    return;
  }
  for (const type of empty) {
    logger.warn(
      { type: type.name, class: type.classIri },
      `type "${type.name}" has no member (no resource of class <${type.classIri}> with an id of its strategy: ${strategyOf(type)}) in dataset ${dataset}, ${where}`,
    );
  }
}
