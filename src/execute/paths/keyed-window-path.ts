import { buildListQuery } from '../../sparql/list-query.js';
import type { Row } from '../../store/store.js';
import { listLane, runQuery } from '../run-query.js';
import type { PathContext, PathRead, StorePath } from './access-path.js';
import { readMembers, withCount } from './list-rows.js';

/**
 * The `keyed-window` path, for a list sorted by a key of several values per member: the window
 * among the members that have a key (`buildKeyedWindowQuery`, which comes first in both
 * directions); when it does not fill the window, the page reaches the members without a key,
 * which only the list query lists: that query follows (this path's fallback, in its module). The
 * count goes alongside.
 *
 * @example await readKeyedWindow(path, context)
 */
export async function readKeyedWindow(
  path: Extract<StorePath, { kind: 'keyed-window' }>,
  context: PathContext,
  counted?: number,
): Promise<PathRead> {
  const { read } = path;
  const { rows, total } = await withCount(context, read, keyedRows(path, context), counted);
  return { ...readMembers(read, rows), ...(total !== undefined && { total }) };
}

async function keyedRows(path: Extract<StorePath, { kind: 'keyed-window' }>, context: PathContext): Promise<Row[]> {
  const { store, mapping, trace } = context;
  const { request, window } = path.read;
  const lane = listLane(request);
  const rows = await runQuery(store, path.query, lane, 'keyed');
  if (rows.length === window.limit) return rows;
  trace.step('list-query', 'the page reaches past the members that have the key: the list sorted whole', true);
  return runQuery(store, buildListQuery(mapping, request, window), lane, 'list');
}
