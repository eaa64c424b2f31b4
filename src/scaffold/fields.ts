import { RDF_LANG_STRING, XSD_STRING } from '../rdf/vocabulary.js';
import type { PredicateStats, Spread } from './model.js';

/** What a field proposal needs to know beyond the predicate's statistics. */
export interface FieldContext {
  /** Members the statistics describe. */
  readonly sampled: number;
  /** The type a class maps to, when it is one of the scaffold's. */
  typeOf(classIri: string): { readonly name: string; readonly members: number } | undefined;
  /** An IRI as the mapping writes it (`skos:Concept`), for notes. */
  short(iri: string): string;
}

/**
 * A field before it has a name: an attribute, a relationship, or a predicate left out and why.
 * `name` is the name its source suggests (a shape's `sh:name`), if any.
 */
export type FieldProposal = (
  | {
      readonly kind: 'attribute';
      readonly predicate: string;
      readonly datatype?: string;
      readonly language?: string;
      readonly many: boolean;
      /** A structured attribute's fields: attributes (or skips) of the blank nodes it reaches. */
      readonly fields?: readonly FieldProposal[];
      readonly note: string;
    }
  | {
      readonly kind: 'relationship';
      readonly predicate: string;
      readonly target: string;
      readonly cardinality: 'one' | 'many';
      readonly inverse?: boolean;
      readonly note: string;
    }
  | { readonly kind: 'skip'; readonly predicate: string; readonly note: string }
) & { readonly name?: string };

/** Share of a predicate's plain literals one datatype must have to become the attribute's `datatype`. */
const DOMINANT = 0.8;

/**
 * The `language` of an attribute whose values carry these tags: `en` when English is among them
 * (one readable value, falling back to the others), the tag when there is one, `'*'` (every
 * language, as an object) when there are several and none is English; none without tags.
 *
 * @example chooseLanguage(['el', 'en']) // 'en'
 * @example chooseLanguage(['de', 'fr']) // '*'
 */
export function chooseLanguage(tags: readonly string[]): string | undefined {
  if (tags.length === 0) return undefined;
  if (tags.some((t) => t === 'en' || t.startsWith('en-'))) return 'en';
  return tags.length === 1 ? tags[0] : '*';
}

/**
 * The datatype that types an attribute: the one most members' plain literals have, when it has
 * at least 80 % of them and is not xsd:string (strings need none).
 *
 * @example chooseDatatype({ [`${XSD}date`]: { members: 12, max: 1 } }) // 'http://www.w3.org/2001/XMLSchema#date'
 */
export function chooseDatatype(datatypes: Readonly<Record<string, Spread>>): string | undefined {
  const entries = Object.entries(datatypes).sort(([a, x], [b, y]) => y.members - x.members || a.localeCompare(b));
  const total = entries.reduce((sum, [, s]) => sum + s.members, 0);
  const [top, spread] = entries[0] ?? [];
  return top !== undefined && top !== XSD_STRING && top !== RDF_LANG_STRING && spread!.members >= DOMINANT * total
    ? top
    : undefined;
}

/**
 * The class of a predicate's IRI values that its relationship targets: the scaffold type most of
 * them are members of (the smaller class on a tie: the more specific), when that covers at
 * least half of the IRI values; `undefined` otherwise.
 *
 * @example dominantTarget({ iris: 12, objectClasses: { [CONCEPT]: 11, '': 1 }, … }, ctx) // { classIri: CONCEPT, name: 'concepts', values: 11 }
 */
export function dominantTarget(
  stats: PredicateStats,
  ctx: FieldContext,
): { readonly classIri: string; readonly name: string; readonly values: number } | undefined {
  const candidates = Object.entries(stats.objectClasses)
    .flatMap(([classIri, values]) => {
      const type = classIri === '' ? undefined : ctx.typeOf(classIri);
      return type ? [{ classIri, name: type.name, values, members: type.members }] : [];
    })
    .sort((a, b) => b.values - a.values || a.members - b.members || a.classIri.localeCompare(b.classIri));
  const best = candidates[0];
  return best && best.values * 2 >= stats.iris ? best : undefined;
}

/**
 * What the sample showed of a predicate, for its comment: how many members carry it, how many
 * values one has at most, and the kinds of its values.
 *
 * @example spreadNote(stats, ctx) // '12 of 12 members, up to 2 each; xsd:date ×12'
 */
export function spreadNote(stats: PredicateStats, ctx: FieldContext): string {
  const kinds = [
    ...Object.entries(stats.datatypes).map(([dt, s]) => `${ctx.short(dt)} ×${s.members}`),
    ...Object.entries(stats.languages).map(([tag, s]) => `@${tag} ×${s.members}`),
    ...Object.entries(stats.objectClasses).map(([c, n]) =>
      c === '' ? `${n} IRI${n === 1 ? '' : 's'} of no class` : `${ctx.short(c)} ×${n}`,
    ),
    // Inside a structured attribute the classes of IRIs are not asked for: say how many there are.
    ...(stats.iris > 0 && Object.keys(stats.objectClasses).length === 0 ? [`${stats.iris} IRIs`] : []),
    ...(stats.blanks > 0 ? [`${stats.blanks} blank nodes`] : []),
  ];
  const each = stats.max > 1 ? `, up to ${stats.max} each` : '';
  return `${stats.members} of ${ctx.sampled} members${each}${kinds.length ? `; ${kinds.join(', ')}` : ''}`;
}

/** Whether most of a predicate's values are blank nodes. */
export const mostlyBlank = (stats: PredicateStats) => stats.blanks > stats.literals && stats.blanks > stats.iris;

/**
 * An attribute or relationship for a predicate, from what the sample shows:
 * - mostly blank-node values: a structured attribute (`mapping/compile-attribute.ts`) with a field
 *   per predicate of those nodes ({@link inferNodeField}); left out when they have none;
 * - mostly IRIs, most of them members of one scaffold type: a relationship to it, `many` when a
 *   member has several;
 * - otherwise an attribute (IRIs of no type show as their text), with the language and datatype
 *   of its literals ({@link chooseLanguage}, {@link chooseDatatype}), `many` when a member has
 *   several values (with a language: several of one language).
 *
 * @example inferField(stats, ctx) // { kind: 'attribute', predicate: '…#prefLabel', language: 'en', many: false, note: … }
 */
export function inferField(stats: PredicateStats, ctx: FieldContext): FieldProposal {
  const note = spreadNote(stats, ctx);
  if (mostlyBlank(stats)) return structuredField(stats, note, ctx);
  if (stats.iris > stats.literals) {
    const target = dominantTarget(stats, ctx);
    if (target)
      return {
        kind: 'relationship',
        predicate: stats.iri,
        target: target.name,
        cardinality: stats.max > 1 ? 'many' : 'one',
        note,
      };
  }
  return { kind: 'attribute', predicate: stats.iri, ...literalOptions(stats), note };
}

/**
 * A field of a structured attribute's nodes: structured again where its values are mostly blank
 * nodes (and the nodes were described), otherwise an attribute, IRIs shown as text (an attribute's
 * value holds no relationship).
 */
function inferNodeField(stats: PredicateStats, ctx: FieldContext): FieldProposal {
  const note = spreadNote(stats, ctx);
  if (mostlyBlank(stats)) return structuredField(stats, note, ctx);
  return { kind: 'attribute', predicate: stats.iri, ...literalOptions(stats), note };
}

/** A structured attribute over a predicate's blank nodes, or the predicate left out when they have no field. */
function structuredField(stats: PredicateStats, note: string, ctx: FieldContext): FieldProposal {
  const nodeContext = { ...ctx, sampled: stats.blanks };
  const fields = (stats.nodes ?? []).map((n) => inferNodeField(n, nodeContext)).filter((f) => f.kind !== 'skip');
  if (fields.length === 0)
    return { kind: 'skip', predicate: stats.iri, note: `${note}: blank nodes${stats.nodes ? ' without values' : ''}` };
  return { kind: 'attribute', predicate: stats.iri, many: stats.max > 1, fields, note: `${note}, as objects` };
}

/**
 * The `language`, `datatype` and `many` of an attribute over these values.
 *
 * @example literalOptions({ max: 2, languages: { en: { members: 9, max: 1 }, el: { members: 4, max: 1 } }, … }) // { language: 'en', many: false }
 */
export function literalOptions(stats: PredicateStats): { language?: string; datatype?: string; many: boolean } {
  const language = chooseLanguage(Object.keys(stats.languages).sort());
  if (language === undefined) {
    const datatype = chooseDatatype(stats.datatypes);
    return { ...(datatype && { datatype }), many: stats.max > 1 };
  }
  // With a language, one member's values in several languages are not several values.
  const perKind = [...Object.values(stats.languages), ...Object.values(stats.datatypes)].map((s) => s.max);
  return { language, many: Math.max(...perKind) > 1 || (stats.iris > 0 && stats.max > 1) };
}
