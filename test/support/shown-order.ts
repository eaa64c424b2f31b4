import { codePointCompare } from './oracle.js';

/*
 * A number sort key compares as the double its value reads as, on every store (docs/api.md,
 * "Typed order"), so that the order follows the values the API shows, also those a store changed
 * at load (Virtuoso's decimals rounded to 15 places sort as rounded). This checks a walk against
 * the values it showed, with no oracle: each store is held to its own values.
 */

/** A member of a walk and the JSON value it showed for the sort's attribute. */
export interface Shown {
  readonly id: string;
  readonly value: unknown;
}

/** The double a shown number reads as (a string past 2^53 or of many digits too, "INF"); undefined for null. */
function asDouble(value: unknown): number | undefined {
  if (value === null || value === undefined) return undefined;
  if (value === 'INF') return Number.POSITIVE_INFINITY;
  if (value === '-INF') return Number.NEGATIVE_INFINITY;
  return Number(value);
}

/**
 * Where a walk sorted by one number attribute (`sort=amount` or `-amount`, ids without a custom
 * id order) breaks its shown values' order: a value out of order, a tie out of id order, or a
 * member without a value before one with. Empty when the walk follows them.
 *
 * @example shownOrderProblems([{ id: 'b', value: 1 }, { id: 'a', value: 1 }], false) // ['#1 a (1) tie after b, not in id order']
 */
export function shownOrderProblems(walk: readonly Shown[], descending: boolean): string[] {
  const problems: string[] = [];
  for (let i = 1; i < walk.length; i++) {
    const [a, b] = [walk[i - 1]!, walk[i]!];
    const [x, y] = [asDouble(a.value), asDouble(b.value)];
    const at = `#${i} ${b.id} (${JSON.stringify(b.value)})`;
    if (x === undefined) {
      if (y !== undefined) problems.push(`${at} after ${a.id}, which has no value`);
      else if (codePointCompare(a.id, b.id) > 0)
        problems.push(`${at} after ${a.id}, both without a value, not in id order`);
      continue;
    }
    if (y === undefined) continue;
    if (Number.isNaN(x) || Number.isNaN(y)) problems.push(`${at}: not a number`);
    else if (x === y) {
      if (codePointCompare(a.id, b.id) > 0) problems.push(`${at} tie after ${a.id}, not in id order`);
    } else if (descending ? x < y : x > y)
      problems.push(`${at} after ${a.id} (${JSON.stringify(a.value)}), out of order`);
  }
  return problems;
}
