import { membersRead } from '../execute/members-read.js';
import type { ListRequest } from '../plan/plan.js';
import type { Row } from '../store/store.js';
import { type KeyedMember, memberOrder, UncertainOrder } from './member-order.js';
import { hasBlankKey, type OrderedList } from './ordered-list.js';

/**
 * A kept whole list with some members read again (the window cache's patch): the members whose
 * IRIs are in `changed` are taken out, and each member the rows read (the list query restricted to
 * `changed`) is put back where the store's ORDER BY puts it ({@link memberOrder}); one that gave no
 * row is no longer a member. `undefined` when the server cannot be certain of that place (see
 * `UncertainOrder`), or a key is a blank node (ORDER BY sees a value there, `keyValueReader` none):
 * the list is then read whole.
 *
 * Each place is found by a binary search and then proven by the two neighbours it falls between
 * (the one before orders before the member, the one after, after): the store's order is a total
 * order that the kept list follows, so a member between two neighbours in it lies between them in
 * the store's order too, whatever the members further off hold. O(n + k log n) for k members read
 * again into a list of n.
 *
 * @example patchList(request, list, new Set([activity]), await runQuery(store, membersQuery(query, [activity]), lane, 'patch-list'))
 */
export function patchList(
  request: ListRequest,
  list: OrderedList,
  changed: ReadonlySet<string>,
  rows: readonly Row[],
): OrderedList | undefined {
  if (request.parent || list.missingParent || list.blankKeys || hasBlankKey(request, rows)) return undefined;
  const read = membersRead(request, rows);
  const compare = memberOrder(request);
  try {
    const moved: KeyedMember[] = read.members.map((member, i) => ({ member, keys: read.keys[i]! }));
    moved.sort(compare);
    // The sort's order, proven pair by pair (a comparison that is not a total order would not throw).
    for (let i = 1; i < moved.length; i++)
      if (compare(moved[i - 1]!, moved[i]!) >= 0) throw new UncertainOrder('the members read again do not sort');
    // The kept members as indices into the list: no object per member of a list of 70,000.
    const kept = new Int32Array(list.members.length);
    let length = 0;
    list.members.forEach((member, i) => {
      if (!changed.has(member.iri)) kept[length++] = i;
    });
    const at = (j: number): KeyedMember => ({ member: list.members[kept[j]!]!, keys: list.keys[kept[j]!]! });
    const places = moved.map((member) => placeIn(length, at, member, compare));
    for (let i = 1; i < places.length; i++)
      if (places[i]! < places[i - 1]!) throw new UncertainOrder('the kept list is not in the order the server sees');
    return merged(list, kept.subarray(0, length), moved, places);
  } catch (error) {
    if (error instanceof UncertainOrder) return undefined;
    throw error;
  }
}

/** The index among the `length` kept members (`at`) before which `member` goes, proven by its neighbours. */
function placeIn(
  length: number,
  at: (j: number) => KeyedMember,
  member: KeyedMember,
  compare: (a: KeyedMember, b: KeyedMember) => number,
): number {
  let low = 0;
  let high = length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compare(at(middle), member) < 0) low = middle + 1;
    else high = middle;
  }
  if ((low > 0 && compare(at(low - 1), member) >= 0) || (low < length && compare(member, at(low)) >= 0))
    throw new UncertainOrder(`${member.member.iri} fits between no two members of the kept list`);
  return low;
}

/** The kept members (indices into `list`) with the moved ones (sorted, each with its place among the kept) put in: one pass. */
function merged(
  list: OrderedList,
  kept: Int32Array,
  moved: readonly KeyedMember[],
  places: readonly number[],
): OrderedList {
  const size = kept.length + moved.length;
  const members: OrderedList['members'][number][] = new Array(size);
  const keys: OrderedList['keys'][number][] = new Array(size);
  let out = 0;
  let next = 0;
  for (let j = 0; j <= kept.length; j++) {
    while (next < moved.length && places[next] === j) {
      members[out] = moved[next]!.member;
      keys[out++] = moved[next++]!.keys;
    }
    if (j === kept.length) break;
    members[out] = list.members[kept[j]!]!;
    keys[out++] = list.keys[kept[j]!]!;
  }
  return withLazyPlaces(members, keys);
}

/**
 * A list whose `places` are made when first asked for: only cursor pages ask, and a new map of
 * 70,000 ids is three quarters of a patch's time (16 of 22 ms).
 */
function withLazyPlaces(members: OrderedList['members'], keys: OrderedList['keys']): OrderedList {
  let places: Map<string, number> | undefined;
  return {
    members,
    keys,
    get places() {
      places ??= new Map(members.map((member, i) => [member.id, i]));
      return places;
    },
  };
}
