import { buildListQuery } from '../../sparql/list-query.js';
import { membersRead } from '../members-read.js';
import { listLane, runQuery } from '../run-query.js';
import type { PathContext, PathRead, StorePath } from './access-path.js';
import { withCount } from './list-rows.js';

/**
 * The `keyset` path of a cursor page: the list past the cursors (a keyset FILTER), its sort key
 * values projected for the cursors, one row more than the page; the count alongside. A member
 * with two rows (least key values that tie in ORDER BY while they differ as terms, such as "b"
 * and "b"@en) takes the place of another: it reads again with twice the rows until the window's
 * members are all there, or the list ends (counted once).
 *
 * @example await readKeyset(path, context)
 */
export async function readKeyset(
  path: Extract<StorePath, { kind: 'keyset' }>,
  context: PathContext,
  counted?: number,
): Promise<PathRead> {
  const { read } = path;
  const { request, window, keyset } = read;
  let total = counted;
  for (let limit = window.limit; ; limit *= 2) {
    const query = buildListQuery(context.mapping, request, { ...window, limit }, keyset);
    const found = await withCount(
      context,
      { ...read, window: { ...window, limit } },
      runQuery(context.store, query, listLane(request), 'list'),
      total,
    );
    const members = membersRead(request, found.rows);
    total = found.total;
    if (found.rows.length < limit || members.members.length >= window.limit)
      return { ...members, ...(total !== undefined && { total }) };
  }
}
