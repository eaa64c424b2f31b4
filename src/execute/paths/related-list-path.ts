import { relatedMembersOf } from '../rows.js';
import { listLane, runQuery } from '../run-query.js';
import type { PathContext, PathOutcome, StorePath } from './access-path.js';
import { relatedTotal } from './list-rows.js';

/**
 * The `related-list` path: a counted page of a related list (mostly a few members) reads its
 * window first: one that is not full ends the list, so the window gives the count and no count
 * query is sent (`relatedTotal`).
 *
 * @example await readRelatedList(path, context)
 */
export async function readRelatedList(
  path: Extract<StorePath, { kind: 'related-list' }>,
  context: PathContext,
): Promise<PathOutcome> {
  const { request, window } = path.read;
  const rows = await runQuery(context.store, path.query, listLane(request), 'list');
  const members = new Set(rows.flatMap((row) => (row.s ? [row.s.value] : []))).size;
  const total = await relatedTotal(context, request, window, { pageRows: rows.length, members });
  return { kind: 'read', read: { members: relatedMembersOf(request.type, rows), total } };
}
