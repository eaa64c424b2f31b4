import { groupValues, membersOf } from '../rows.js';
import { listLane, runQuery } from '../run-query.js';
import type { PathContext, PathOutcome, StorePath } from './access-path.js';
import { relatedTotal } from './list-rows.js';

/**
 * The `related-page` path: the first page of a related list sorted by id with its members' values
 * of the attributes shown, in one query (`buildRelatedPageQuery`): a window it does not fill ends
 * the list, so it gives the count too. An empty window is counted (404 when the parent does not
 * exist). When a member came back with two ids the window may have missed one: the path falls
 * back to its declared fallback, which reads the page the plain way.
 *
 * @example await readRelatedPage(path, context)
 */
export async function readRelatedPage(
  path: Extract<StorePath, { kind: 'related-page' }>,
  context: PathContext,
): Promise<PathOutcome> {
  const { request, window, count } = path.read;
  const rows = await runQuery(context.store, path.query, listLane(request), 'page');
  const members = membersOf(request.type, rows);
  // A member with two ids (two `?s_id`) has two page rows: the window may then miss one.
  if (new Set(rows.map((row) => JSON.stringify([row.s, row.s_id]))).size !== members.length)
    return { kind: 'fall-back', because: 'a member has two ids' };
  const values = groupValues(rows);
  // Uncounted, a page with members needs no count; an empty one still needs it, for the 404.
  if (count === 'none' && members.length > 0) return { kind: 'read', read: { members, values } };
  const total = await relatedTotal(context, request, window, { pageRows: members.length, members: members.length });
  return { kind: 'read', read: { members, values, ...(count !== 'none' && { total }) } };
}
