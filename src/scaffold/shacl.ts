import type { Term } from '@rdfjs/types';
import { isSafeAbsoluteIri } from '../mapping/iri.js';
import { RDF_LANG_STRING, SH, XSD_STRING } from '../rdf/vocabulary.js';
import type { Row } from '../store/store.js';
import { type FieldContext, type FieldProposal, inferField, literalOptions, spreadNote } from './fields.js';
import type { IncomingStats, NodeShape, PredicateStats, ShapeProperty } from './model.js';

const SH_IRI_KINDS = new Set([`${SH}IRI`, `${SH}BlankNodeOrIRI`]);

/** A row's IRI value, when it is one the server accepts. */
const iri = (term: Term | undefined) =>
  term?.termType === 'NamedNode' && isSafeAbsoluteIri(term.value) ? term.value : undefined;
/** A row's number (NaN when it is none: dropped with the undefined values). */
const number = (term: Term | undefined) => (term === undefined ? undefined : Number(term.value));

/**
 * The node shapes of `queries.ts` `shapesQuery` rows, one per target class (the shapes of one
 * class merged), each property once (when a property has several `sh:name`s, the English or
 * untagged one).
 *
 * @example shapesFromRows(rows) // [{ classIri: 'http://x/Book', properties: [{ path: 'http://x/title', inverse: false, maxCount: 1, … }] }]
 */
export function shapesFromRows(rows: readonly Row[]): NodeShape[] {
  const byClass = new Map<string, Map<string, ShapeProperty & { nameRank: number }>>();
  for (const row of rows) {
    const classIri = row.class?.value;
    const path = row.inversePath?.value ?? row.path?.value;
    if (classIri === undefined || path === undefined || !isSafeAbsoluteIri(classIri) || !isSafeAbsoluteIri(path))
      continue;
    const inverse = row.inversePath !== undefined;
    const key = `${row.property?.termType}:${row.property?.value} ${inverse ? '^' : ''}${path}`;
    const properties = byClass.get(classIri) ?? new Map();
    byClass.set(classIri, properties);
    const seen = properties.get(key);
    const nameRank = rankName(row.name);
    const next = {
      path,
      inverse,
      datatype: seen?.datatype ?? iri(row.datatype),
      target: seen?.target ?? iri(row.target),
      maxCount: seen?.maxCount ?? number(row.maxCount),
      name: nameRank < (seen?.nameRank ?? 9) ? row.name?.value : seen?.name,
      nodeKind: seen?.nodeKind ?? iri(row.nodeKind),
      order: seen?.order ?? number(row.order),
      nameRank: Math.min(nameRank, seen?.nameRank ?? 9),
    };
    properties.set(key, next);
  }
  return [...byClass]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([classIri, properties]) => ({
      classIri,
      properties: [...properties.values()]
        .map(({ nameRank: _, ...p }) => dropUndefined(p))
        .sort(
          (a, b) =>
            (a.order ?? Number.POSITIVE_INFINITY) - (b.order ?? Number.POSITIVE_INFINITY) ||
            a.path.localeCompare(b.path) ||
            Number(a.inverse) - Number(b.inverse),
        ),
    }));
}

/** English names first, then untagged, then any; 9: none. */
function rankName(name: Term | undefined): number {
  if (name?.termType !== 'Literal') return 9;
  const tag = name.language.toLowerCase();
  return tag === 'en' || tag.startsWith('en-') ? 0 : tag === '' ? 1 : 2;
}

function dropUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined && !Number.isNaN(v))) as T;
}

/**
 * The fields of a class that SHACL describes: one per property shape, in `sh:order`, the shape
 * winning over inference: `sh:class` of a scaffold type → a relationship (an `sh:inversePath` →
 * an inverse one); `sh:datatype` → an attribute of that datatype (`rdf:langString`: with a
 * language, chosen from the data's tags); `sh:maxCount 1` → one value, none → `many`; `sh:name`
 * → the field's name. A property shape that says none of these is inferred from the data.
 * Returns the fields, and the predicates the data uses that no property shape names.
 *
 * @example shapeFields(shape, stats, incoming, ctx).fields[0] // { kind: 'attribute', predicate: 'http://x/title', many: false, name: 'title', … }
 */
export function shapeFields(
  shape: NodeShape,
  stats: ReadonlyMap<string, PredicateStats>,
  incoming: readonly IncomingStats[],
  ctx: FieldContext,
): { fields: FieldProposal[]; unshaped: string[] } {
  const fields = shape.properties.map((p) => shapeField(p, stats.get(p.path), incoming, ctx));
  const shaped = new Set(shape.properties.filter((p) => !p.inverse).map((p) => p.path));
  return { fields, unshaped: [...stats.keys()].filter((p) => !shaped.has(p)) };
}

function shapeField(
  p: ShapeProperty,
  stats: PredicateStats | undefined,
  incoming: readonly IncomingStats[],
  ctx: FieldContext,
): FieldProposal {
  const said = [
    p.datatype && `sh:datatype ${ctx.short(p.datatype)}`,
    p.target && `sh:class ${ctx.short(p.target)}`,
    p.maxCount !== undefined && `sh:maxCount ${p.maxCount}`,
  ].filter(Boolean);
  const seen = p.inverse
    ? `${incoming.filter((i) => i.predicate === p.path).reduce((n, i) => Math.max(n, i.members), 0)} of ${ctx.sampled} members pointed at`
    : stats
      ? spreadNote(stats, ctx)
      : 'no value in the sample';
  const note = `SHACL${said.length ? ` (${said.join(', ')})` : ''}; data: ${seen}`;
  const many = p.maxCount !== 1;
  const named = { ...(p.name !== undefined && { name: p.name }), predicate: p.path, note };
  const targetType = p.target === undefined ? undefined : ctx.typeOf(p.target);
  if (p.inverse) {
    // Without sh:class, the class most of the pointing subjects belong to.
    const from = targetType ?? dominantSource(p.path, incoming, ctx);
    if (!from) return { kind: 'skip', ...named, note: `${note}: the subjects are of no scaffold type` };
    return { kind: 'relationship', ...named, target: from.name, cardinality: many ? 'many' : 'one', inverse: true };
  }
  if (targetType)
    return { kind: 'relationship', ...named, target: targetType.name, cardinality: many ? 'many' : 'one' };
  if (p.datatype !== undefined) {
    const tagged = p.datatype === RDF_LANG_STRING;
    const language = stats ? literalOptions(stats).language : undefined;
    return {
      kind: 'attribute',
      ...named,
      ...(p.datatype !== XSD_STRING && !tagged && { datatype: p.datatype }),
      ...((tagged || language !== undefined) && { language: language ?? '*' }),
      many,
    };
  }
  if (p.target !== undefined || (p.nodeKind !== undefined && SH_IRI_KINDS.has(p.nodeKind)))
    return { kind: 'attribute', ...named, many };
  if (!stats) return { kind: 'attribute', ...named, many };
  const inferred = inferField(stats, ctx);
  if (inferred.kind === 'relationship') return { ...inferred, ...named, cardinality: many ? 'many' : 'one' };
  return inferred.kind === 'attribute' ? { ...inferred, ...named, many } : { ...inferred, ...named };
}

function dominantSource(
  predicate: string,
  incoming: readonly IncomingStats[],
  ctx: FieldContext,
): { readonly name: string } | undefined {
  return incoming
    .filter((i) => i.predicate === predicate && ctx.typeOf(i.fromClass))
    .sort((a, b) => b.members - a.members || a.fromClass.localeCompare(b.fromClass))
    .map((i) => ctx.typeOf(i.fromClass))[0];
}
