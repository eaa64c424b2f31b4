import { listLane, runQuery } from '../run-query.js';
import type { Counted, PathContext, PathOutcome, StorePath } from './access-path.js';
import { readMembers, withCount } from './list-rows.js';

/**
 * The `list-query` path: the window of the list sorted whole (the planned query, in the list's
 * shape), and its count alongside unless `counted` (the step before's) or uncounted.
 *
 * @example await readListQuery(path, context)
 */
export async function readListQuery(
  path: Extract<StorePath, { kind: 'list-query' }>,
  context: PathContext,
  counted?: Counted,
): Promise<PathOutcome> {
  const { read } = path;
  const rows = runQuery(context.store, path.query, listLane(read.request), 'list');
  const { rows: found, total } = await withCount(context, read, rows, counted);
  return { kind: 'read', read: { ...readMembers(read, found), ...(total !== undefined && { total }) } };
}
