import { notFound } from '../../errors/json-api-error.js';
import type { ListRequest, Window } from '../../plan/plan.js';
import { buildCountQuery } from '../../sparql/list-query.js';
import type { Row } from '../../store/store.js';
import { membersRead } from '../members-read.js';
import { countValue, membersOf, relatedMembersOf } from '../rows.js';
import { listLane, runQuery } from '../run-query.js';
import type { Counted, ListRead, PathContext, PathRead } from './access-path.js';

/*
 * What the paths that read list-query rows share: the count beside the window, the proof that a
 * related list's parent exists, and the members of the rows.
 */

/**
 * A window's rows (`rows`, already sent) and, when the read counts, the list's total: `counted`
 * when the step before read it, else the count query, sent alongside. 404 when the list hangs
 * off a parent that does not exist: a parent that exists yields at least one row (with `?s`
 * unbound when it points at nothing), so no row at all proves it missing, unless the window
 * starts past that row or a keyset may have cut it: then the count tells.
 */
export async function withCount(
  context: PathContext,
  read: ListRead,
  rows: Promise<Row[]>,
  counted?: Counted,
): Promise<{ rows: Row[]; total?: number }> {
  const { mapping, store } = context;
  const { request, window, keyset } = read;
  const count = read.count !== 'none';
  const [found, total] = await Promise.all([rows, countFor(context, read, counted)]);
  if (request.parent && found.length === 0) {
    const proven = window.offset === 0 && keyset === undefined;
    const parentExists = count
      ? total !== undefined
      : !proven && (await countOf({ mapping, store }, request)) !== undefined;
    if (!parentExists) throw noParent(request);
  }
  return total === undefined ? { rows: found } : { rows: found, total };
}

/**
 * The read's total as it will come: `counted` when the step before read it (or is reading it),
 * else the count query, sent now; `undefined` when the read is uncounted. A pending count has a
 * handler at once: a path that falls back before it awaits it leaves it to the next path.
 */
export function countFor(
  context: Pick<PathContext, 'mapping' | 'store'>,
  read: ListRead,
  counted?: Counted,
): Counted | undefined {
  if (read.count === 'none') return undefined;
  const total = counted ?? countOf(context, read.request);
  if (typeof total !== 'number') total.catch(() => undefined);
  return total;
}

/**
 * A related list's total from a window of it (`pageRows` rows, of `members` members): a window
 * that is not full ends the list; else the count query tells, and 404 when the parent does not
 * exist. No row at all proves nothing: no parent, or a query form that drops the row of a parent
 * pointing at nothing.
 */
export async function relatedTotal(
  context: Pick<PathContext, 'mapping' | 'store'>,
  request: ListRequest,
  window: Window,
  { pageRows, members }: { readonly pageRows: number; readonly members: number },
): Promise<number> {
  if (pageRows > 0 && pageRows < window.limit && (window.offset === 0 || members > 0)) return window.offset + members;
  const total = await countOf(context, request);
  if (total === undefined) throw noParent(request);
  return total;
}

/** The list's total, or `undefined` when it hangs off a parent that does not exist. */
async function countOf(
  { mapping, store }: Pick<PathContext, 'mapping' | 'store'>,
  request: ListRequest,
): Promise<number | undefined> {
  const [row] = await runQuery(
    store,
    buildCountQuery(mapping, request, { oneGraph: store.oneGraph }),
    listLane(request),
    'count',
  );
  if (request.parent && countValue(row, 'parents') === 0) return undefined;
  return countValue(row, 'count');
}

/** The 404 of a list that hangs off a parent that does not exist. */
export const noParent = (request: ListRequest) => notFound(`There is no ${request.parent!.type.name} with this id.`);

/** The members of list-query rows, and for a cursor page their sort key values too. */
export function readMembers(read: ListRead, rows: readonly Row[]): Pick<PathRead, 'members' | 'keys'> {
  const { request } = read;
  return read.keyset
    ? membersRead(request, rows)
    : { members: (request.parent ? relatedMembersOf : membersOf)(request.type, rows) };
}
