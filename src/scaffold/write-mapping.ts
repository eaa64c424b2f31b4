import { Document, isCollection, isMap, isPair, isScalar, type Pair, type YAMLMap } from 'yaml';
import type { IdProposal } from './id-strategy.js';
import type { ScaffoldAttribute, ScaffoldMapping, ScaffoldRelationship } from './model.js';
import { compact } from './prefixes.js';

/** Where the scaffold came from, for the header: `data/sample.ttl`, `http://localhost:8890/sparql <graph>`. */
export interface ScaffoldSource {
  readonly description: string;
}

const HOW_TO_ADJUST = `A starting point: read it, adjust it, and serve it with --mapping. What to look at:
  - names: types are the plural of the class's local name, fields the predicate's, in
    kebab-case and made distinct; rename freely (the class and predicates are what count)
  - fields: every field the sample showed is here; drop the ones nobody needs
  - many: true where a sampled member had several values; otherwise the least value is shown
  - language: en shows one value (English first, then untagged, then any); '*' shows every
    language as an object keyed by tag; see docs/mapping.md
  - datatype: set where one datatype dominates; it types untyped values and filter values
  - ids: template (local names are lowercase hex), local (readable local names), hex (any other
    IRI), predicate (a mu:uuid literal); see docs/scaffold.md
  - inverse: true relationships follow another type's predicate backwards
Counts come from a sample of each class's members (see each type's comment).`;

/** A scaffolded mapping, written once: the text for the file and the object it parses to. */
export interface WrittenMapping {
  /** The commented YAML text. */
  readonly yaml: string;
  /** The same mapping as a plain object, for `compileMapping`. */
  readonly mapping: unknown;
}

/**
 * A scaffolded mapping as commented YAML, and as the plain object that text is (both from one
 * YAML document): a header saying how it was made and what to adjust; per type its class, member
 * count and why its id strategy was chosen; per field what the sample showed (how many members
 * carry it, datatypes, languages, classes of its values).
 *
 * @example writeMapping(inferMapping(facts), { description: 'data/sample.ttl' }).yaml // '# Scaffolded by sparql-jsonapi from data/sample.ttl …'
 */
export function writeMapping(scaffold: ScaffoldMapping, source: ScaffoldSource): WrittenMapping {
  const doc = mappingDocument(scaffold, source);
  const text = doc.toString({ lineWidth: 0, flowCollectionPadding: true });
  return { yaml: text.endsWith('\n') ? text : `${text}\n`, mapping: doc.toJS() };
}

function mappingDocument(scaffold: ScaffoldMapping, source: ScaffoldSource): Document {
  const nameOf = new Map(Object.entries(scaffold.prefixes).map(([name, ns]) => [ns, name]));
  const used = new Set<string>();
  const short = (iri: string) => {
    const written = compact(iri, nameOf);
    if (written !== iri) used.add(written.slice(0, written.indexOf(':')));
    return written;
  };
  const types: Record<string, unknown> = {};
  for (const t of scaffold.types) {
    types[t.name] = {
      class: short(t.classIri),
      id: idValue(t.id, short),
      ...(t.defaultSort && { defaultSort: [...t.defaultSort] }),
      ...(t.attributes.length && {
        attributes: Object.fromEntries(t.attributes.map((a) => [a.name, attribute(a, short)])),
      }),
      ...(t.relationships.length && {
        relationships: Object.fromEntries(t.relationships.map((r) => [r.name, relationship(r, short)])),
      }),
    };
  }
  const prefixes = Object.fromEntries(
    Object.entries(scaffold.prefixes)
      .filter(([name]) => used.has(name))
      .sort(([a], [b]) => a.localeCompare(b)),
  );
  const doc = new Document({ ...(Object.keys(prefixes).length && { prefixes }), types });
  doc.commentBefore = [
    ` Scaffolded by \`sparql-jsonapi scaffold\`${source.description ? ` from ${source.description}` : ''}: ${scaffold.types.length} types.`,
    ...HOW_TO_ADJUST.split('\n').map((l) => ` ${l}`),
    ...scaffold.notes.map((n) => ` Note: ${n}`),
  ].join('\n');
  const typesNode = doc.get('types', true);
  if (!isMap(typesNode)) return doc;
  for (const [index, t] of scaffold.types.entries()) {
    const pair = pairOf(typesNode, t.name);
    if (!pair) continue;
    commentKey(pair, t.note, { spaced: index > 0 });
    const typeNode = pair.value;
    if (!isMap(typeNode)) continue;
    flow(typeNode.get('id', true));
    flow(typeNode.get('defaultSort', true));
    const fields = [
      ...t.attributes.map((f) => ['attributes', f] as const),
      ...t.relationships.map((f) => ['relationships', f] as const),
    ];
    for (const [group, f] of fields) {
      const groupNode = typeNode.get(group, true);
      const fieldPair = isMap(groupNode) ? pairOf(groupNode, f.name) : undefined;
      if (fieldPair) annotate(fieldPair, f);
    }
  }
  return doc;
}

function idValue(id: IdProposal, short: (iri: string) => string): unknown {
  switch (id.kind) {
    case 'predicate':
      return { predicate: short(id.predicate) };
    case 'template':
      return { template: `${id.prefix}{id}` };
    case 'local':
      return { local: { base: id.base } };
    case 'hex':
      return { hex: id.base === '' ? true : { base: id.base } };
  }
}

/** The shorthand (the predicate alone) when the attribute needs no option. */
function attribute(a: ScaffoldAttribute, short: (iri: string) => string): unknown {
  if (a.datatype === undefined && a.language === undefined && !a.many && !a.fields) return short(a.predicate);
  return {
    predicate: short(a.predicate),
    ...(a.datatype !== undefined && { datatype: short(a.datatype) }),
    ...(a.language !== undefined && { language: a.language }),
    ...(a.many && { many: true }),
    ...(a.fields && { fields: Object.fromEntries(a.fields.map((f) => [f.name, attribute(f, short)])) }),
  };
}

/**
 * Writes a field on one line with what the sample showed after it; a structured attribute over
 * several lines, its note above it and each of its fields so.
 */
function annotate(pair: Pair, field: ScaffoldAttribute | ScaffoldRelationship): void {
  const fields = 'fields' in field ? field.fields : undefined;
  if (!fields) {
    flow(pair.value);
    if (isScalar(pair.value) || isMap(pair.value)) pair.value.comment = ` ${field.note}`;
    return;
  }
  commentKey(pair, field.note, { spaced: false });
  const inside = isMap(pair.value) ? pair.value.get('fields', true) : undefined;
  for (const f of fields) {
    const fieldPair = isMap(inside) ? pairOf(inside, f.name) : undefined;
    if (fieldPair) annotate(fieldPair, f);
  }
}

function relationship(r: ScaffoldRelationship, short: (iri: string) => string): unknown {
  return {
    predicate: short(r.predicate),
    target: r.target,
    cardinality: r.cardinality,
    ...(r.inverse && { inverse: true }),
  };
}

function pairOf(map: YAMLMap, key: string): Pair | undefined {
  return map.items.find((p): p is Pair => isPair(p) && isScalar(p.key) && p.key.value === key);
}

/** A comment above a key (and a blank line before it when `spaced`). */
function commentKey(pair: Pair, text: string, { spaced }: { readonly spaced: boolean }): void {
  if (!isScalar(pair.key)) return;
  pair.key.commentBefore = text
    .split('\n')
    .map((l) => ` ${l}`)
    .join('\n');
  pair.key.spaceBefore = spaced;
}

/** Writes a collection on one line (`{ predicate: …, many: true }`). */
function flow(node: unknown): void {
  if (isCollection(node)) node.flow = true;
}
