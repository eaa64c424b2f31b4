import { type MembersRead, membersRead } from '../execute/members-read.js';
import type { ListRequest, Paging, Window } from '../plan/plan.js';
import type { KeyValue } from '../request/cursor.js';
import type { Member } from '../shape/resource-objects.js';
import { keyVariable } from '../sparql/sort-clauses.js';
import type { Row } from '../store/store.js';

/*
 * A list's whole order, read once (the list query with no window), and pages cut from it exactly
 * as the store cuts them: an offset page is a slice; a cursor page starts (or ends) at the
 * cursor's member, found by its id. This is what the window cache keeps (`window-cache.ts`).
 */

/**
 * The members of a list in order, each once, with what cursors need: each member's sort key
 * values (`keys[i]` belongs to `members[i]`) and each member's place by id.
 */
export interface OrderedList {
  readonly members: readonly Member[];
  readonly keys: readonly (readonly KeyValue[])[];
  /** Member id → its index in `members`. */
  readonly places: ReadonlyMap<string, number>;
  /** The list hangs off a parent that does not exist: a 404, and no member. */
  readonly missingParent?: true;
  /** A member's key is a blank node, which `keys` holds as none: the server cannot place members among them (`patch-list.ts`). */
  readonly blankKeys?: true;
}

const MISSING_PARENT: OrderedList = Object.freeze({ members: [], keys: [], places: new Map(), missingParent: true });

/**
 * The members of list-query rows, in row order, with their sort key values: the rows of a keyset
 * query (or of the whole list, which projects the keys too). No row at all from a list that hangs
 * off a parent means the parent does not exist (see `buildListQuery`).
 *
 * @example orderedList(request, await runQuery(store, buildListQuery(mapping, request, undefined, { fromEnd: false }), 'heavy'))
 */
export function orderedList(request: ListRequest, rows: readonly Row[]): OrderedList {
  if (request.parent && rows.length === 0) return MISSING_PARENT;
  const { members, keys } = membersRead(request, rows);
  return {
    members,
    keys,
    places: new Map(members.map((member, i) => [member.id, i])),
    ...(hasBlankKey(request, rows) && { blankKeys: true as const }),
  };
}

/**
 * Whether a row binds a sort key to a blank node: ORDER BY sees a value there, where
 * `keyValueReader` reads none (`null`), so the server cannot place such a member itself.
 */
export function hasBlankKey(request: Pick<ListRequest, 'sort'>, rows: readonly Row[]): boolean {
  const names = request.sort.flatMap(({ path }, i) => (path.end === 'id' ? [] : [keyVariable(i).value]));
  return rows.some((row) => names.some((name) => row[name]?.termType === 'BlankNode'));
}

/**
 * An offset window of the list: what `LIMIT`/`OFFSET` would select.
 *
 * @example offsetSlice(list, { limit: 21, offset: 40 }) // members 40 to 60
 */
export function offsetSlice(list: OrderedList, window: Window): Member[] {
  return list.members.slice(window.offset, window.offset + window.limit);
}

/**
 * What the keyset list query of a cursor page reads, cut from the list: up to `page.size + 1`
 * members after `paging.after` (or, with `before` alone, before it, read from the end), skipping
 * `page.skip` first. An inclusive cursor keeps its own member. `undefined` when a cursor's member
 * is not in the list, or is there with other key values (a cursor from another filter, or from
 * before the data changed): only the store can place such a cursor.
 *
 * @example cursorSlice(list, { page: { kind: 'cursor', size: 20 }, count: true, after }) // the 21 members after `after`
 */
export function cursorSlice(list: OrderedList, paging: Paging): MembersRead | undefined {
  const { page, after, before } = paging;
  const skip = page.kind === 'cursor' ? (page.skip ?? 0) : 0;
  const limit = page.size + 1;
  const afterPlace = after && placeOf(list, after.id, after.values);
  const beforePlace = before && placeOf(list, before.id, before.values);
  if (afterPlace === undefined && after) return undefined;
  if (beforePlace === undefined && before) return undefined;
  const start = after ? afterPlace! + (after.inclusive ? 0 : 1) : 0;
  const end = before ? beforePlace! + (before.inclusive ? 1 : 0) : list.members.length;
  const fromEnd = before !== undefined && after === undefined;
  const [from, to] = fromEnd
    ? [Math.max(start, end - skip - limit), end - skip]
    : [start + skip, Math.min(end, start + skip + limit)];
  const indices = Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);
  if (fromEnd) indices.reverse();
  return { members: indices.map((i) => list.members[i]!), keys: indices.map((i) => list.keys[i]!) };
}

/** The index of the member with this id, if it has these key values. */
function placeOf(list: OrderedList, id: string, values: readonly KeyValue[]): number | undefined {
  const place = list.places.get(id);
  if (place === undefined) return undefined;
  const keys = list.keys[place]!;
  const same =
    keys.length === values.length &&
    keys.every((key, i) => {
      const value = values[i]!;
      return key === null || value === null ? key === value : key.equals(value);
    });
  return same ? place : undefined;
}

/**
 * Bytes of a small object (a member, a term, an array, a Map entry) in V8, roughly: over 70,000
 * members, with and without a key, the estimate came within 10 % of the heap they took.
 */
const OBJECT_BYTES = 60;

/**
 * An estimate of the memory a list holds: its strings (one byte per character, as V8 keeps
 * Latin-1 text) and a fixed overhead per object. What bounds the window cache.
 *
 * @example orderedListBytes(list) // ≈ 200 × members for ids, IRIs and one key
 */
export function orderedListBytes(list: OrderedList): number {
  let bytes = OBJECT_BYTES;
  list.members.forEach((member, i) => {
    // The member, its keys array and its entry in `places`.
    bytes += 3 * OBJECT_BYTES + member.iri.length + member.id.length;
    for (const key of list.keys[i]!) {
      if (key === null) continue;
      bytes += OBJECT_BYTES + key.value.length;
      if (key.termType === 'Literal') bytes += OBJECT_BYTES + key.datatype.value.length + key.language.length;
    }
  });
  return bytes;
}
