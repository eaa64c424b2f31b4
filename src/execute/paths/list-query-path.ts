import { buildListQuery } from '../../sparql/list-query.js';
import { listLane, runQuery } from '../run-query.js';
import type { PathContext, PathRead, StorePath } from './access-path.js';
import { readMembers, withCount } from './list-rows.js';

/**
 * The `list-query` path: the window of the list sorted whole (`buildListQuery`), and its count
 * alongside unless `counted` (the step before's) or uncounted.
 *
 * @example await readListQuery(path, context)
 */
export async function readListQuery(
  path: Extract<StorePath, { kind: 'list-query' }>,
  context: PathContext,
  counted?: number,
): Promise<PathRead> {
  const { read } = path;
  const { request, window } = read;
  const query = buildListQuery(context.mapping, request, window);
  const { rows, total } = await withCount(
    context,
    read,
    runQuery(context.store, query, listLane(request), 'list'),
    counted,
  );
  return { ...readMembers(read, rows), ...(total !== undefined && { total }) };
}
