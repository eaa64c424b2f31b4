import type { ListRequest } from '../plan/plan.js';
import type { Row } from '../store/store.js';
import { type KeyedMember, memberOrder, UncertainOrder } from './member-order.js';
import { hasBlankKey, membersRead, type OrderedList } from './ordered-list.js';

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
    const kept: KeyedMember[] = [];
    list.members.forEach((member, i) => {
      if (!changed.has(member.iri)) kept.push({ member, keys: list.keys[i]! });
    });
    const places = moved.map((member) => placeIn(kept, member, compare));
    for (let i = 1; i < places.length; i++)
      if (places[i]! < places[i - 1]!) throw new UncertainOrder('the kept list is not in the order the server sees');
    return merged(kept, moved, places);
  } catch (error) {
    if (error instanceof UncertainOrder) return undefined;
    throw error;
  }
}

/** The index in `kept` before which `member` goes, proven by its neighbours. */
function placeIn(
  kept: readonly KeyedMember[],
  member: KeyedMember,
  compare: (a: KeyedMember, b: KeyedMember) => number,
): number {
  let low = 0;
  let high = kept.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compare(kept[middle]!, member) < 0) low = middle + 1;
    else high = middle;
  }
  const before = kept[low - 1];
  const after = kept[low];
  if ((before && compare(before, member) >= 0) || (after && compare(member, after) >= 0))
    throw new UncertainOrder(`${member.member.iri} fits between no two members of the kept list`);
  return low;
}

/** The kept members with the moved ones (sorted, each with its place in `kept`) put in: one pass. */
function merged(kept: readonly KeyedMember[], moved: readonly KeyedMember[], places: readonly number[]): OrderedList {
  const members: OrderedList['members'][number][] = [];
  const keys: OrderedList['keys'][number][] = [];
  let next = 0;
  const put = ({ member, keys: values }: KeyedMember) => {
    members.push(member);
    keys.push(values);
  };
  kept.forEach((member, i) => {
    while (next < moved.length && places[next] === i) put(moved[next++]!);
    put(member);
  });
  while (next < moved.length) put(moved[next++]!);
  return { members, keys, places: new Map(members.map((member, i) => [member.id, i])) };
}
