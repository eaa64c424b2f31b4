import { type FieldContext, type FieldProposal, inferField } from './fields.js';
import type {
  ClassStats,
  Introspection,
  PredicateStats,
  ScaffoldAttribute,
  ScaffoldMapping,
  ScaffoldRelationship,
  ScaffoldType,
} from './model.js';
import { kebab, localName, NameBook, plural } from './names.js';
import { choosePrefixes, compact } from './prefixes.js';
import { shapeFields } from './shacl.js';

/** Type names the server's routes take (`/api/…`, `/health`, `/docs`, `/openapi.json`). */
const RESERVED_TYPES = new Set(['api', 'health', 'docs', 'openapi', 'openapi-json']);
/** Field names JSON:API forbids or the server reserves. */
const RESERVED_FIELDS = new Set(['id', 'type', 'links', 'relationships', 'meta']);
/** Names JSON:API forbids inside an attribute's value. */
const RESERVED_INSIDE = new Set(['links', 'relationships']);
/** Local names of label-like predicates, best first: the first a type has becomes its default sort. */
const LABELS = ['preflabel', 'label', 'name', 'title', 'notation', 'identifier', 'code'];

/**
 * A mapping proposed from what {@link introspect} found, pure: one type per class (plural
 * kebab-case names from the class's local name), its id strategy as checked, and its fields:
 * from the class's SHACL shape when it has one (`shacl.ts`), otherwise from the data
 * (`fields.ts` `inferField`), plus an inverse relationship for each relationship of another
 * type that points at it. Field names come from predicate local names (`skos:prefLabel` →
 * `pref-label`), made distinct within the type and never `id` or `type`; a label-like attribute
 * becomes the default sort. `declared` are the data files' own prefixes (namespace → name).
 *
 * @example inferMapping(await introspect(store), { 'http://x/ns#': 'ex' }).types.map((t) => t.name) // ['books', 'people']
 */
export function inferMapping(facts: Introspection, declared: Readonly<Record<string, string>> = {}): ScaffoldMapping {
  const classes = facts.classes.filter((c) => c.members > 0 && c.sampled > 0);
  const prefixes = choosePrefixes(everyIri(facts), declared);
  const nameOf = new Map(Object.entries(prefixes).map(([name, ns]) => [ns, name]));
  const short = (iri: string) => compact(iri, nameOf);
  const qualifier = (iri: string) => /^([^:/]+):/.exec(short(iri))?.[1] ?? '';

  const typeBook = new NameBook(RESERVED_TYPES);
  const types = new Map<string, { readonly name: string; readonly members: number }>();
  for (const c of classes) {
    const name = plural(kebab(localName(c.iri)));
    types.set(c.iri, { name: typeBook.claim([name, `${qualifier(c.iri)}-${name}`], 'resources'), members: c.members });
  }
  const typeOf = (iri: string) => types.get(iri);
  // Forward fields first: the inverse relationships mirror them.
  const forward = new Map(classes.map((c) => [c.iri, forwardFields(c, facts, { sampled: c.sampled, typeOf, short })]));
  const context: TypeContext = { forward, typeOf, short, qualifier };
  return { prefixes, types: classes.map((c) => scaffoldType(c, context)), notes: facts.notes };
}

/** A class's fields before they have names, from its SHACL shape when it has one, else from the data. */
interface ForwardFields {
  readonly fields: FieldProposal[];
  readonly notes: string[];
  readonly shaped: boolean;
}

/** What naming a type's fields needs from the whole scaffold. */
interface TypeContext {
  readonly forward: ReadonlyMap<string, ForwardFields>;
  readonly typeOf: FieldContext['typeOf'];
  readonly short: (iri: string) => string;
  /** The prefix name of an IRI as the mapping writes it (`skos`), or `''`. */
  readonly qualifier: (iri: string) => string;
}

function forwardFields(c: ClassStats, facts: Introspection, ctx: FieldContext): ForwardFields {
  const stats = new Map(
    c.predicates.filter((p) => !(c.id.kind === 'predicate' && p.iri === c.id.predicate)).map((p) => [p.iri, p]),
  );
  const shape = facts.shapes.find((s) => s.classIri === c.iri);
  if (!shape)
    return { fields: [...stats.values()].sort(byUse).map((p) => inferField(p, ctx)), notes: [], shaped: false };
  const { fields, unshaped } = shapeFields(shape, stats, c.incoming, ctx);
  const notes = unshaped.length
    ? [`the data also uses ${unshaped.map(ctx.short).join(', ')}, which the shape does not describe`]
    : [];
  return { fields, notes, shaped: true };
}

/** One type of the scaffold: its fields named (distinct, never `id` or `type`), its inverses, default sort and comment. */
function scaffoldType(c: ClassStats, context: TypeContext): ScaffoldType {
  const { short, qualifier } = context;
  const { fields, notes, shaped } = context.forward.get(c.iri)!;
  const self = context.typeOf(c.iri)!;
  const book = new NameBook(RESERVED_FIELDS);
  const attributes: ScaffoldAttribute[] = [];
  const relationships: ScaffoldRelationship[] = [];
  const skipped: string[] = [];
  for (const f of fields) {
    const candidates = fieldNames(f, qualifier);
    if (f.kind === 'skip') skipped.push(`${short(f.predicate)} (${f.note})`);
    else if (f.kind === 'attribute') attributes.push(named(f, book.claim(candidates, 'value'), qualifier));
    else {
      const { kind: _, name: __, ...rest } = f;
      relationships.push({ ...rest, inverse: f.inverse ?? false, name: book.claim(candidates, 'related') });
    }
  }
  if (!shaped) relationships.push(...inverses(c, context, { book, self: self.name }));
  const label = defaultLabel(attributes);
  const source = shaped ? 'fields from its SHACL shape' : 'fields from the data';
  return {
    name: self.name,
    classIri: c.iri,
    members: c.members,
    id: c.id.kind === 'predicate' ? { ...c.id, why: c.id.why.replace(c.id.predicate, short(c.id.predicate)) } : c.id,
    ...(label && { defaultSort: [label.name] }),
    attributes,
    relationships,
    note: [
      `${short(c.iri)}: ${c.members} members${c.sampled < c.members ? ` (statistics from ${c.sampled} of them)` : ''}; ${source}`,
      `id: ${c.id.why}`,
      ...notes,
      ...(skipped.length ? [`left out: ${skipped.join('; ')}`] : []),
    ].join('\n'),
  };
}

/** The names a field may take, best first: its source's suggestion, then from the predicate's local name. */
function fieldNames(f: FieldProposal, qualifier: (iri: string) => string): string[] {
  const local = kebab(localName(f.predicate));
  // hasOrigin reads as origin: the field is the thing, not the having.
  const plain = local.replace(/^has-(?=.)/, '');
  return [...(f.name ? [f.name] : []), plain, local, `${qualifier(f.predicate)}-${local}`];
}

/** An attribute proposal under its name; a structured one's fields named in a book of their own. */
function named(
  f: Extract<FieldProposal, { kind: 'attribute' }>,
  name: string,
  qualifier: (iri: string) => string,
): ScaffoldAttribute {
  const { kind: _, name: __, fields, ...rest } = f;
  if (!fields) return { ...rest, name };
  const book = new NameBook(RESERVED_INSIDE);
  const inside = fields.flatMap((g) =>
    g.kind === 'attribute' ? [named(g, book.claim(fieldNames(g, qualifier), 'value'), qualifier)] : [],
  );
  return { ...rest, name, fields: inside };
}

/** The label-like attribute (one value, one language) that becomes the default sort, best of {@link LABELS} first. */
function defaultLabel(attributes: readonly ScaffoldAttribute[]): ScaffoldAttribute | undefined {
  const rank = (a: ScaffoldAttribute) => LABELS.indexOf(localName(a.predicate).toLowerCase());
  return attributes.filter((a) => !a.many && a.language !== '*' && rank(a) >= 0).sort((a, b) => rank(a) - rank(b))[0];
}

/** Most used first, then by IRI: the order fields are named in, so common predicates get the plain names. */
const byUse = (a: PredicateStats, b: PredicateStats) => b.members - a.members || a.iri.localeCompare(b.iri);

/**
 * The inverse relationships of a type: for each predicate that members of another type point at
 * its members with, and that is a relationship of that type targeting this one. Named after the
 * other type when it has one such relationship (`concepts` on a scheme), else after the predicate
 * (`has-origin` → `origin-of`).
 */
function inverses(
  c: ClassStats,
  { forward, typeOf, short }: TypeContext,
  { book, self }: { readonly book: NameBook; readonly self: string },
): ScaffoldRelationship[] {
  const found: ScaffoldRelationship[] = [];
  const incoming = [...c.incoming].sort((a, b) => b.members - a.members || a.predicate.localeCompare(b.predicate));
  for (const i of incoming) {
    const from = typeOf(i.fromClass);
    const fields = forward.get(i.fromClass)?.fields ?? [];
    const intoThis = fields.filter((f) => f.kind === 'relationship' && !f.inverse && f.target === self);
    // `from`: a class with a type, so one of `classes` (only they get one).
    if (!from || !intoThis.some((f) => f.predicate === i.predicate)) continue;
    const verb = kebab(localName(i.predicate)).replace(/^(has|is)-(?=.)/, '');
    const many = i.max > 1;
    // topConceptOf backwards is the top concepts; broader backwards, broader-of.
    const of = verb.endsWith('-of') ? (many ? plural(verb.slice(0, -3)) : verb.slice(0, -3)) : `${verb}-of`;
    const byType = many ? from.name : kebab(localName(i.fromClass));
    const candidates = from.name !== self && intoThis.length === 1 ? [byType, of] : [of, `${from.name}-${verb}`];
    found.push({
      name: book.claim(candidates, 'related'),
      predicate: i.predicate,
      target: from.name,
      cardinality: many ? 'many' : 'one',
      inverse: true,
      note: `inverse of ${from.name}.${short(i.predicate)}: ${i.members} of ${c.sampled} members pointed at${many ? `, by up to ${i.max} each` : ''}`,
    });
  }
  return found;
}

/** Every IRI a mapping of these facts may write, for choosing prefixes. */
function everyIri(facts: Introspection): string[] {
  return [
    ...facts.classes.flatMap((c) => [
      c.iri,
      ...(c.id.kind === 'predicate' ? [c.id.predicate] : []),
      ...c.predicates.flatMap((p) => [p.iri, ...Object.keys(p.datatypes), ...Object.keys(p.objectClasses)]),
      ...c.incoming.flatMap((i) => [i.predicate, i.fromClass]),
    ]),
    ...facts.shapes.flatMap((s) => s.properties.flatMap((p) => [p.path, ...(p.datatype ? [p.datatype] : [])])),
  ].filter((iri) => iri !== '');
}
