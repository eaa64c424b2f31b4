import type { SelectQuery } from 'sparqljs';
import { LIST_QUERIES } from '../../sparql/list-shapes.js';
import { membersRead } from '../members-read.js';
import { listLane, runQuery } from '../run-query.js';
import type { Counted, PathContext, PathOutcome, StorePath } from './access-path.js';
import { withCount } from './list-rows.js';

/**
 * The `keyset` path of a cursor page: the list past the cursors (a keyset FILTER), its sort key
 * values projected for the cursors, one row more than the page; the count alongside. A member
 * with two rows (least key values that tie in ORDER BY while they differ as terms, such as "b"
 * and "b"@en) takes the place of another: then the path falls back to its declared retry,
 * `keyset-wider` ({@link readKeysetWider}), with the count it read.
 *
 * @example await readKeyset(path, context)
 */
export async function readKeyset(
  path: Extract<StorePath, { kind: 'keyset' }>,
  context: PathContext,
  counted?: Counted,
): Promise<PathOutcome> {
  const found = await keysetRead(path, context, counted);
  return found.short ? { kind: 'fall-back', because: 'the window is short', counted: found.total } : found.outcome;
}

/**
 * The `keyset-wider` path: the keyset read again with twice the rows (the planned query), and
 * again with twice as many, until the window's members are all there or the list ends (counted
 * once, by the step before).
 *
 * @example await readKeysetWider(path, context, total)
 */
export async function readKeysetWider(
  path: Extract<StorePath, { kind: 'keyset-wider' }>,
  context: PathContext,
  counted?: Counted,
): Promise<PathOutcome> {
  const { read, shape } = path;
  const { request, window, keyset } = read;
  let total = counted;
  let query = path.query;
  for (let limit = window.limit; ; limit *= 2) {
    const found = await keysetRead({ read: { ...read, window: { ...window, limit } }, query }, context, total, {
      members: window.limit / 2,
    });
    if (!found.short) return found.outcome;
    total = found.total;
    query = LIST_QUERIES[shape](context.mapping, request, { window: { ...window, limit: limit * 2 }, keyset });
  }
}

/** One keyset read of `path.read.window.limit` rows: its outcome, and whether it is short of `members` members (the page's rows). */
async function keysetRead(
  path: { read: Extract<StorePath, { kind: 'keyset' }>['read']; query: SelectQuery },
  context: PathContext,
  counted: Counted | undefined,
  { members: wanted = path.read.window.limit }: { members?: number } = {},
): Promise<{ outcome: PathOutcome; short: boolean; total?: number | undefined }> {
  const { read, query } = path;
  const { request, window } = read;
  const found = await withCount(context, read, runQuery(context.store, query, listLane(request), 'list'), counted);
  const members = membersRead(request, found.rows);
  const { total } = found;
  const short = found.rows.length >= window.limit && members.members.length < wanted;
  return { outcome: { kind: 'read', read: { ...members, ...(total !== undefined && { total }) } }, short, total };
}
