/**
 * The list itself, once it is known to hold something. Suites loop (`for`, `forEach`, `it.each`)
 * over what the oracle expects; an oracle that finds nothing (a renamed type or relationship, a
 * sample that lost its edge case) would make such a loop pass without checking anything, so it
 * throws instead: at collection time for `it.each`, inside the test for a loop.
 */
export function nonEmpty<L extends readonly unknown[]>(list: L, what = 'the list'): L {
  if (list.length === 0) throw new Error(`${what} is empty: a loop over it would pass without checking anything`);
  return list;
}
