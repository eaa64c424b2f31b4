import rdf from '@rdfjs/data-model';
import type { SparqlQuery } from 'sparqljs';
import type { TextOrder } from '../rdf/text-order.js';
import { type FilledQuery, termText, toText } from './to-text.js';

/**
 * A query written once per shape, with its values slotted in per request (an id, a member's IRI):
 * the text around them is the generator's own, written from `build` with a marker in each slot,
 * and each value is escaped by the generator's own `toEntity`, as an IRI between `<>` or as the
 * text of a literal between quotes, whichever the marker was written as (so a value never enters
 * the text any other way than it would in the whole query). Writing the whole query per request
 * cost a single-resource request about 5 % of the server's CPU; filling it costs a few joins.
 *
 * `build` must put the i-th value where a value goes (in IRIs or literals, as many times as it
 * likes) and make the same query for any values: whatever else shapes the query belongs in the
 * template (one per type and attribute list, `fetch-query.ts`). A template whose markers don't
 * come out as whole IRIs and literal texts writes the whole query every time.
 *
 * @example toText(new QueryTemplate((iris) => buildFetchQuery(type, { iris })).fill(iris))
 */
export class QueryTemplate {
  private readonly parts = new Map<TextOrder, Parts | undefined>();

  constructor(private readonly build: (values: readonly string[]) => SparqlQuery) {}

  /** The query with these values, for {@link toText}. */
  fill(values: readonly string[]): FilledQuery {
    return { template: this, values };
  }

  /** The text of the query with `values` in its slots, in `textOrder`. */
  write(values: readonly string[], textOrder: TextOrder): string {
    if (!this.parts.has(textOrder)) this.parts.set(textOrder, split(this.build, values.length, textOrder));
    const parts = this.parts.get(textOrder);
    if (parts === undefined) return toText(this.build(values), textOrder);
    let text = parts.texts[0]!;
    for (let i = 0; i < parts.slots.length; i++) {
      const { value, written } = parts.slots[i]!;
      text += escaped(values[value]!, written, textOrder) + parts.texts[i + 1]!;
    }
    return text;
  }
}

/** The text around the slots, and what each slot holds, in the order of the text. */
interface Parts {
  readonly texts: readonly string[];
  readonly slots: readonly Slot[];
}

/** Which value a slot holds, and whether its marker was written as an IRI or as a literal's text. */
interface Slot {
  readonly value: number;
  readonly written: 'iri' | 'literal';
}

/** A value as the generator writes it inside `<>` (an IRI) or inside the quotes of a literal. */
const escaped = (value: string, written: Slot['written'], textOrder: TextOrder) =>
  termText(written === 'iri' ? rdf.namedNode(value) : rdf.literal(value), textOrder).slice(1, -1);

/** Marks a slot: nothing else in a query (a mapping's IRIs and names) writes it. */
const MARK = 'urn:sparql-jsonapi:slot:b7e1c9';
const SLOT = new RegExp(`${MARK}:(\\d+);`, 'g');

/**
 * The query written with a marker in each of `count` slots, cut at each marker; undefined when
 * a marker is not a whole IRI (`<marker>`) or a whole literal text (`"marker"`), or a slot has none.
 */
function split(
  build: (values: readonly string[]) => SparqlQuery,
  count: number,
  textOrder: TextOrder,
): Parts | undefined {
  const markers = Array.from({ length: count }, (_, i) => `${MARK}:${i};`);
  const text = toText(build(markers), textOrder);
  const texts: string[] = [];
  const slots: Slot[] = [];
  let from = 0;
  for (const match of text.matchAll(SLOT)) {
    const [before, after] = [text[match.index - 1], text[match.index + match[0].length]];
    const iri = before === '<' && after === '>';
    if (!iri && !(before === '"' && after === '"')) return undefined;
    texts.push(text.slice(from, match.index));
    slots.push({ value: Number(match[1]), written: iri ? 'iri' : 'literal' });
    from = match.index + match[0].length;
  }
  texts.push(text.slice(from));
  const filled = new Set(slots.map((slot) => slot.value));
  return filled.size === count ? { texts, slots } : undefined;
}
