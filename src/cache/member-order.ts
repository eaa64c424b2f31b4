import type { Literal, NamedNode } from '@rdfjs/types';
import { memberSortKey } from '../mapping/ids.js';
import type { Attribute } from '../mapping/model.js';
import type { ListRequest } from '../plan/plan.js';
import { XSD } from '../rdf/vocabulary.js';
import type { KeyValue } from '../request/cursor.js';
import { typedValue, valueOrder } from '../request/filter-values.js';
import type { Member } from '../shape/resource-objects.js';
import { perMemberKeyIndex } from '../sparql/per-member-key.js';

/** A member and its sort key values as a whole-list query read them (`keyValueReader`). */
export interface KeyedMember {
  readonly member: Member;
  readonly keys: readonly KeyValue[];
}

/**
 * Thrown when the server cannot be certain how the store orders two members: values whose order
 * is the engine's own (an ill-typed date, two time zones, an IRI among dates, a NaN, a boolean),
 * or two members that tie on every key and id. Whoever compares gives up (the window cache then
 * reads the list whole).
 */
export class UncertainOrder extends Error {
  constructor(why: string) {
    super(`the store's order is uncertain: ${why}`);
    this.name = 'UncertainOrder';
  }
}

/**
 * The order a flat list query's ORDER BY gives members (`sparql/sort-clauses.ts`,
 * `keysetOrder`), computed in the server: per sort key, members without a value last in both
 * directions, then the value (ascending or descending); then, unless an `id` key ordered them
 * already, the id ascending (`memberSortKey`: the id's text or the IRI's). Values compare as the
 * query compares them, and only where the server is certain it compares alike:
 * - numbers as the doubles `keyValueReader` read (finite ones);
 * - text (and the id) by Unicode code point, which the query's text keys make every engine use;
 * - `xsd:date` and `xsd:gYear` values of the attribute's datatype, valid, 4-digit years, with the
 *   same time zone suffix: then their text orders as their values.
 * Anything else throws {@link UncertainOrder}, as does a tie on every key and the id. Only for
 * keys a flat query orders by (no hop, one value, no language): others throw too.
 *
 * @example [...members].sort(memberOrder({ type: tradeActivities, sort: parseSort('-financial-year', mapping, tradeActivities) }))
 */
export function memberOrder(
  request: Pick<ListRequest, 'type' | 'sort' | 'parent'>,
): (a: KeyedMember, b: KeyedMember) => number {
  const { id } = request.type;
  let valueIndex = 0;
  // The per-member key's place among the keys that have values (ids have none).
  const perMemberKey = perMemberKeyIndex(request);
  const perMemberValue =
    perMemberKey === undefined
      ? undefined
      : request.sort.slice(0, perMemberKey).filter(({ path }) => path.end !== 'id').length;
  const steps = request.sort.map(({ path, descending }) => {
    const sign = descending ? -1 : 1;
    const { end } = path;
    if (end === 'id')
      return (a: KeyedMember, b: KeyedMember) =>
        sign * compareText(memberSortKey(id, a.member), memberSortKey(id, b.member));
    const i = valueIndex++;
    // A key computed per member (a to-many path, a language) is text: its value read without the
    // tier character, as the query's ORDER BY compares it (`perMemberKeyIndex`).
    const perMember = i === perMemberValue;
    if (!perMember && (path.hops.length > 0 || path.multiValued || end.language !== undefined))
      throw new UncertainOrder(`the key ${end.name} is not one a flat list query orders by`);
    const compare = perMember ? (x: Value, y: Value) => compareText(x.value, y.value) : valueComparator(end);
    return (a: KeyedMember, b: KeyedMember) => {
      const [x, y] = [a.keys[i] ?? null, b.keys[i] ?? null];
      if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
      return sign * compare(x, y);
    };
  });
  const byId = request.sort.some(({ path }) => path.end === 'id');
  return (a, b) => {
    for (const step of steps) {
      const c = step(a, b);
      if (c !== 0) return c;
    }
    const c = byId ? 0 : compareText(memberSortKey(id, a.member), memberSortKey(id, b.member));
    if (c === 0) throw new UncertainOrder(`${a.member.iri} and ${b.member.iri} tie on every key and id`);
    return c;
  };
}

type Value = Literal | NamedNode;

/** How two present values of `attribute` compare, as the list query's ORDER BY compares them. */
function valueComparator(attribute: Attribute): (x: Value, y: Value) => number {
  const order = valueOrder(attribute);
  if (order === 'text') return (x, y) => compareText(x.value, y.value);
  if (order === 'number')
    return (x, y) => {
      const [a, b] = [numberOf(x), numberOf(y)];
      return a < b ? -1 : a > b ? 1 : 0;
    };
  return (x, y) => {
    const [a, b] = [lexicalOrder(attribute, x), lexicalOrder(attribute, y)];
    if (a.zone !== b.zone) throw new UncertainOrder(`${x.value} and ${y.value} are in different time zones`);
    return compareText(a.text, b.text);
  };
}

function numberOf(value: Value): number {
  const number = value.termType === 'Literal' ? Number(value.value) : Number.NaN;
  if (!Number.isFinite(number)) throw new UncertainOrder(`${value.value} is no finite number`);
  return number;
}

/** Dates and years whose text orders as their values: `YYYY-MM-DD` or `YYYY`, then a time zone. */
const LEXICAL_ORDER: ReadonlyMap<string, RegExp> = new Map([
  [`${XSD}date`, /^(\d{4}-\d{2}-\d{2})(Z|[+-]\d{2}:\d{2})?$/],
  [`${XSD}gYear`, /^(\d{4})(Z|[+-]\d{2}:\d{2})?$/],
]);

/** A typed value's text without its time zone, and the zone, when its text orders as its value. */
function lexicalOrder(attribute: Attribute, value: Value): { text: string; zone: string } {
  const datatype = attribute.datatype ?? '';
  const pattern = LEXICAL_ORDER.get(datatype);
  const match =
    pattern && value.termType === 'Literal' && value.datatype.value === datatype && pattern.exec(value.value);
  if (!match || typedValue(datatype, value.value) === undefined)
    throw new UncertainOrder(`${value.value} is not a value whose text orders as the value`);
  return { text: match[1]!, zone: match[2] ?? '' };
}

/** Text by Unicode code point (JavaScript's `<` compares UTF-16 code units: other past U+FFFF). */
export function compareText(a: string, b: string): number {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const [x, y] = [a.charCodeAt(i), b.charCodeAt(i)];
    if (x === y) continue;
    // Only where a surrogate meets a character of U+E000-U+FFFF do the two orders differ.
    const surrogate = (c: number) => c >= 0xd800 && c <= 0xdfff;
    if (surrogate(x) !== surrogate(y)) return surrogate(x) ? 1 : -1;
    return x < y ? -1 : 1;
  }
  return a.length - b.length < 0 ? -1 : 1;
}
