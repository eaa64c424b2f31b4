import { listLane, runQuery } from '../run-query.js';
import type { Counted, PathContext, PathOutcome, StorePath } from './access-path.js';
import { countFor, readMembers, withCount } from './list-rows.js';

/**
 * The `keyed-window` path, for a list sorted by a key of several values per member: the window
 * among the members that have a key (`buildKeyedWindowQuery`, which comes first in both
 * directions), the count alongside. When it does not fill the window, the page reaches the
 * members without a key, which only the list query lists: the path falls back to its declared
 * list query, with the count already sent.
 *
 * @example await readKeyedWindow(path, context)
 */
export async function readKeyedWindow(
  path: Extract<StorePath, { kind: 'keyed-window' }>,
  context: PathContext,
  counted?: Counted,
): Promise<PathOutcome> {
  const { read } = path;
  // The window first, the count alongside: the order the store receives them in.
  const keyed = runQuery(context.store, path.query, listLane(read.request), 'keyed');
  const total = countFor(context, read, counted);
  const rows = await keyed;
  if (rows.length !== read.window.limit)
    return { kind: 'fall-back', because: 'the page reaches past the members that have the key', counted: total };
  const found = await withCount(context, read, Promise.resolve(rows), total);
  return {
    kind: 'read',
    read: { ...readMembers(read, found.rows), ...(found.total !== undefined && { total: found.total }) },
  };
}
