import { readFileSync } from 'node:fs';
import type { Term } from '@rdfjs/types';
import { DataFactory, Store as N3Store, Parser } from 'n3';
import type { Attribute, Mapping, ResourceType } from '../../src/mapping/model.js';
import { literalToJson } from '../../src/shape/literal-to-json.js';

const XSD = 'http://www.w3.org/2001/XMLSchema#';
const RDF_TYPE = DataFactory.namedNode('http://www.w3.org/1999/02/22-rdf-syntax-ns#type');
const NUMERIC =
  /#(integer|decimal|double|float|long|int|short|byte|(non)?(Negative|Positive)Integer|negativeInteger|positiveInteger|unsigned(Long|Int|Short|Byte))$/;

export interface Resource {
  iri: string;
  id: string;
}

/** `fields[type]` values as a client sends them: type → comma-separated field names (`''` for none). */
export type FieldsParameter = Record<string, string>;

/** The `data` and `included` a compound document should carry. */
export interface Compound {
  data: Record<string, unknown>[];
  /** Sorted by type, then id: the spec gives `included` no order, so tests compare it sorted. */
  included: Record<string, unknown>[];
}

/** Code point order, which is UTF-8 byte order (JavaScript's `<` compares UTF-16 code units). */
export function codePointCompare(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/**
 * What a resource's id sorts by: the id, but the IRI for `local` ids (the README: they sort as
 * their IRIs, as `m/s` before `m0`, though `%2F` would sort the id otherwise).
 */
function idKey(type: ResourceType, resource: Resource): string {
  return type.id.kind === 'local' ? resource.iri : resource.id;
}

/** Typed order of two values: numbers numerically, everything else by code point. */
function compareValues(a: Term, b: Term): number {
  const numeric = (t: Term) => t.termType === 'Literal' && NUMERIC.test(t.datatype.value);
  return numeric(a) && numeric(b) ? Number(a.value) - Number(b.value) : codePointCompare(a.value, b.value);
}

/**
 * How a sort key's values compare, by the README's rules (docs/api.md "Typed order, decided by
 * the mapping"), written out here rather than taken from src/: the mapping's datatype decides,
 * whatever datatypes the data gives the values.
 */
type KeyOrder = 'number' | 'boolean' | 'chronological' | 'text';

function keyOrder(attribute: Attribute): KeyOrder {
  const datatype = attribute.language === undefined ? (attribute.datatype ?? '') : '';
  if (NUMERIC.test(datatype)) return 'number';
  if (datatype === `${XSD}boolean`) return 'boolean';
  if (/#(date|dateTime|time|gYear|gYearMonth)$/.test(datatype) && datatype.startsWith(XSD)) return 'chronological';
  return 'text';
}

/** A number's lexical form, as a double reads it (a value of a number key that is none is no key). */
const NUMBER_LEXICAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** The values of a key that count: for a number key, those that read as numbers. */
function keyValues(order: KeyOrder, values: Term[]): Term[] {
  return order === 'number' ? values.filter((t) => NUMBER_LEXICAL.test(t.value.trim())) : values;
}

/**
 * Two values of a key in its order: numbers as the doubles they read as (equal doubles tie),
 * booleans false first, dates and times by their lexical form (the data's are of one shape),
 * text by code point.
 */
function compareKeyValues(order: KeyOrder, a: Term, b: Term): number {
  if (order === 'number') {
    const [x, y] = [Number(a.value.trim()), Number(b.value.trim())];
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (order === 'boolean') {
    const truth = (t: Term) => (t.value === 'true' || t.value === '1' ? 1 : 0);
    return truth(a) - truth(b);
  }
  return codePointCompare(a.value, b.value);
}

/**
 * What the API should answer, computed straight from the Turtle file with plain JavaScript and
 * no SPARQL: the independent side of every fetch and sort assertion. It reads the mapping only
 * for names and IRIs.
 */
export class Oracle {
  private constructor(
    private readonly quads: N3Store,
    readonly mapping: Mapping,
  ) {}

  /** Reads one Turtle file, or several as one dataset. */
  static fromFile(file: string | string[], mapping: Mapping): Oracle {
    const store = new N3Store([file].flat().flatMap((f) => new Parser().parse(readFileSync(f, 'utf8'))));
    return new Oracle(store, mapping);
  }

  type(name: string): ResourceType {
    return this.mapping.types.get(name)!;
  }

  private readonly membersByType = new Map<string, Resource[]>();

  /** Every member of a type, by id (a copy: callers sort it). */
  members(typeName: string): Resource[] {
    let found = this.membersByType.get(typeName);
    if (!found) this.membersByType.set(typeName, (found = this.readMembers(typeName)));
    return [...found];
  }

  private readMembers(typeName: string): Resource[] {
    const type = this.type(typeName);
    const found: Resource[] = [];
    for (const subject of this.quads.getSubjects(RDF_TYPE, DataFactory.namedNode(type.classIri), null)) {
      const id = this.idOf(type, subject);
      if (id !== undefined) found.push({ iri: subject.value, id });
    }
    return found.sort((a, b) => codePointCompare(idKey(type, a), idKey(type, b)));
  }

  member(typeName: string, id: string): Resource | undefined {
    return this.members(typeName).find((m) => m.id === id);
  }

  /** The members of the relationship's target type that `iri`'s relationship points at. */
  related(typeName: string, iri: string, relationship: string): Resource[] {
    const rel = this.type(typeName).relationships.get(relationship)!;
    const node = DataFactory.namedNode(iri);
    const predicate = DataFactory.namedNode(rel.predicate);
    const linked = rel.inverse
      ? this.quads.getSubjects(predicate, node, null)
      : this.quads.getObjects(node, predicate, null);
    const targets = new Map(this.members(rel.target).map((m) => [m.iri, m]));
    const target = this.type(rel.target);
    return linked
      .flatMap((term) => targets.get(term.value) ?? [])
      .sort((a, b) => codePointCompare(idKey(target, a), idKey(target, b)));
  }

  /** Every object of `predicate` from `iri`, whatever its language or datatype. */
  objects(iri: string, predicate: string): Term[] {
    return this.quads.getObjects(DataFactory.namedNode(iri), DataFactory.namedNode(predicate), null);
  }

  /** The attributes object a resource should have. */
  attributes(typeName: string, iri: string): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const attribute of this.type(typeName).attributes.values())
      out[attribute.name] = this.attributeValue(attribute, DataFactory.namedNode(iri));
    return out;
  }

  /**
   * What an attribute of `subject` shows (docs/mapping.md): the least value of its language tier,
   * or all of them (`many`); per language tag with `language: '*'`; for a structured attribute an
   * object per node it reaches, the objects in the code point order of their JSON.
   */
  private attributeValue(attribute: Attribute, subject: Term): unknown {
    const pick = (values: Term[]) => {
      const shown = [...values].sort(compareValues);
      if (attribute.many) return shown.map((t) => literalToJson(t, attribute.datatype));
      return shown[0] ? literalToJson(shown[0], attribute.datatype) : null;
    };
    const values = this.shownValues(attribute, [subject]);
    if (attribute.fields) {
      const objects = values
        .filter((node) => node.termType !== 'Literal')
        .map((node) =>
          Object.fromEntries([...attribute.fields!.values()].map((f) => [f.name, this.attributeValue(f, node)])),
        )
        .sort((a, b) => codePointCompare(JSON.stringify(a), JSON.stringify(b)));
      return attribute.many ? objects : (objects[0] ?? null);
    }
    if (attribute.language !== '*') return pick(values);
    const tag = (t: Term) => (t.termType === 'Literal' && t.language.toLowerCase()) || 'und';
    const tags = [...new Set(values.map(tag))].sort(codePointCompare);
    return Object.fromEntries(tags.map((t) => [t, pick(values.filter((v) => tag(v) === t))]));
  }

  /**
   * The resource object a member should have (links rooted at `/`): the attributes and
   * relationships of `fields` (every one when undefined), `attributes` and `relationships` left
   * out when empty, and `data` on each relationship that `linkage` has.
   */
  resourceObject(
    typeName: string,
    member: Resource,
    fields?: string,
    linkage = new Map<string, Resource[]>(),
  ): Record<string, unknown> {
    const type = this.type(typeName);
    const shown = (name: string) => fields === undefined || fields.split(',').includes(name);
    const self = `/${typeName}/${encodeURIComponent(member.id)}`;
    const attributes = Object.fromEntries(
      Object.entries(this.attributes(typeName, member.iri)).filter(([name]) => shown(name)),
    );
    const relationships = Object.fromEntries(
      [...type.relationships.values()]
        .filter((rel) => shown(rel.name))
        .map((rel) => {
          const targets = linkage.get(rel.name)?.map((t) => ({ type: rel.target, id: t.id }));
          const data = targets && (rel.cardinality === 'one' ? (targets[0] ?? null) : targets);
          return [
            rel.name,
            {
              links: { self: `${self}/links/${rel.name}`, related: `${self}/${rel.name}` },
              ...(data !== undefined && { data }),
            },
          ];
        }),
    );
    return {
      type: typeName,
      id: member.id,
      ...(Object.keys(attributes).length > 0 && { attributes }),
      links: { self },
      ...(Object.keys(relationships).length > 0 && { relationships }),
    };
  }

  /**
   * The compound document of `primary` resources for an `include` value, by the spec's rules
   * followed path by path: each path from the primary resources, every resource it reaches once
   * (a to-one reaches its first target by id, as its related URL shows), linkage on each followed
   * relationship of each resource it was followed from, primary resources never in `included`.
   */
  compound(typeName: string, primary: Resource[], include: string, fields: FieldsParameter = {}): Compound {
    const nodes = new Map<string, { type: string; resource: Resource; linkage: Map<string, Resource[]> }>();
    const node = (type: string, resource: Resource) => {
      const key = `${type} ${resource.iri}`;
      if (!nodes.has(key)) nodes.set(key, { type, resource, linkage: new Map() });
      return nodes.get(key)!;
    };
    const data = primary.map((resource) => node(typeName, resource));
    for (const path of include === '' ? [] : include.split(',')) {
      let [type, frontier] = [typeName, primary];
      for (const name of path.split('.')) {
        const rel = this.type(type).relationships.get(name)!;
        const reached = new Map<string, Resource>();
        for (const source of frontier) {
          const related = this.related(type, source.iri, name);
          const targets = rel.cardinality === 'one' ? related.slice(0, 1) : related;
          node(type, source).linkage.set(name, targets);
          for (const target of targets) reached.set(node(rel.target, target).resource.iri, target);
        }
        [type, frontier] = [rel.target, [...reached.values()]];
      }
    }
    const render = (n: { type: string; resource: Resource; linkage: Map<string, Resource[]> }) =>
      this.resourceObject(n.type, n.resource, fields[n.type], n.linkage);
    const included = [...nodes.values()].filter((n) => !data.includes(n));
    included.sort((a, b) => codePointCompare(a.type, b.type) || codePointCompare(a.resource.id, b.resource.id));
    return { data: data.map(render), included: included.map(render) };
  }

  /**
   * The ids of `resources` in the order `sort` asks for, by the README's rules: missing keys last
   * in both directions; multi-valued keys by minimum ascending and maximum descending; ties by id.
   */
  order(typeName: string, resources: Resource[], sort: string): string[] {
    const fields = sort
      .split(',')
      .map((raw) => ({ descending: raw.startsWith('-'), path: raw.replace(/^-/, '').split('.') }));
    const orders = fields.map((f) => this.pathOrder(typeName, f.path));
    const keyed = resources.map((r) => ({
      r,
      keys: fields.map((f) => this.sortKey(typeName, r, f.path, f.descending)),
    }));
    keyed.sort((a, b) => {
      for (const [i, field] of fields.entries()) {
        const [x, y] = [a.keys[i], b.keys[i]];
        if (x === undefined || y === undefined) {
          if (x !== y) return x === undefined ? 1 : -1;
          continue;
        }
        const c = compareKeyValues(orders[i]!, x, y);
        if (c !== 0) return field.descending ? -c : c;
      }
      return codePointCompare(idKey(this.type(typeName), a.r), idKey(this.type(typeName), b.r));
    });
    return keyed.map((k) => k.r.id);
  }

  /** The value `resource` sorts by for one sort field (`-concerns.label`), or undefined when it has none. */
  sortValue(typeName: string, resource: Resource, field: string): Term | undefined {
    return this.sortKey(typeName, resource, field.replace(/^-/, '').split('.'), field.startsWith('-'));
  }

  /** How the values of a sort path compare: `text` for `id`, else by the attribute at its end. */
  private pathOrder(typeName: string, path: string[]): KeyOrder {
    if (path.length === 1 && path[0] === 'id') return 'text';
    return keyOrder(this.hopType(typeName, path.slice(0, -1)).attributes.get(path.at(-1)!)!);
  }

  /** The type a path of relationships leads to. */
  private hopType(typeName: string, hops: string[]): ResourceType {
    return hops.reduce((type, name) => this.type(type.relationships.get(name)!.target), this.type(typeName));
  }

  /**
   * Every value a sort field (`-see-also.amount`) reaches from `resource`, before the least or
   * greatest is taken: what the member's key depends on. None for `id`.
   */
  keyTerms(typeName: string, resource: Resource, field: string): Term[] {
    const path = field.replace(/^-/, '').split('.');
    if (path.length === 1 && path[0] === 'id') return [];
    const { type, iris } = this.reached(typeName, resource, path.slice(0, -1));
    return this.shownValues(type.attributes.get(path.at(-1)!)!, iris);
  }

  /** The resources a path of relationships reaches from `resource`, and their type. */
  private reached(typeName: string, resource: Resource, hops: string[]): { type: ResourceType; iris: string[] } {
    let type = this.type(typeName);
    let iris = [resource.iri];
    for (const name of hops) {
      iris = [...new Set(iris.flatMap((iri) => this.related(type.name, iri, name).map((m) => m.iri)))];
      type = this.type(type.relationships.get(name)!.target);
    }
    return { type, iris };
  }

  private sortKey(typeName: string, resource: Resource, path: string[], descending: boolean): Term | undefined {
    if (path.length === 1 && path[0] === 'id') return DataFactory.literal(idKey(this.type(typeName), resource));
    const hops = path.slice(0, -1);
    const { type, iris } = this.reached(typeName, resource, hops);
    let multi = hops.some(
      (name, i) => this.hopType(typeName, hops.slice(0, i)).relationships.get(name)!.cardinality === 'many',
    );
    const attribute = type.attributes.get(path.at(-1)!)!;
    multi ||= attribute.many;
    const order = keyOrder(attribute);
    const values = keyValues(order, this.shownValues(attribute, iris)).sort((a, b) => compareKeyValues(order, a, b));
    return descending && multi ? values.at(-1) : values[0];
  }

  /** Values of an attribute over some resources, narrowed to the preferred language tier. */
  private shownValues(attribute: Attribute, subjects: (string | Term)[]): Term[] {
    const all = subjects.flatMap((subject) =>
      this.quads.getObjects(
        typeof subject === 'string' ? DataFactory.namedNode(subject) : subject,
        DataFactory.namedNode(attribute.predicate),
        null,
      ),
    );
    const values = all.filter((t, i) => all.findIndex((u) => u.equals(t)) === i);
    const wanted = attribute.language?.toLowerCase();
    if (wanted === undefined || wanted === '*') return values;
    // docs/mapping.md "Languages": the tag; its truncations, longest first (a single-letter
    // subtag goes with the one after it); any tag of its language; untagged (unless strict); any.
    const tag = (t: Term) => (t.termType === 'Literal' ? t.language.toLowerCase() : '');
    const subtags = wanted.split('-');
    const truncations = subtags
      .map((_, n) => subtags.slice(0, n))
      .filter((prefix) => prefix.length > 0 && prefix.at(-1)!.length > 1)
      .reverse()
      .map((prefix) => prefix.join('-'));
    const primary = subtags[0]!;
    const tiers = [
      ...[wanted, ...truncations].map((exact) => (t: Term) => tag(t) === exact),
      (t: Term) => tag(t) === primary || tag(t).startsWith(`${primary}-`),
      ...(attribute.strictLanguage ? [] : [(t: Term) => tag(t) === '', () => true]),
    ];
    for (const inTier of tiers) {
      const found = values.filter(inTier);
      if (found.length > 0) return found;
    }
    return [];
  }

  private idOf(type: ResourceType, subject: Term): string | undefined {
    if (subject.termType !== 'NamedNode') return undefined;
    const id = type.id;
    if (id.kind === 'predicate')
      return this.quads.getObjects(subject, DataFactory.namedNode(id.predicate), null)[0]?.value;
    if (id.kind === 'template') {
      const { value } = subject;
      const middle = value.slice(id.prefix.length, value.length - id.suffix.length);
      return value.startsWith(id.prefix) && value.endsWith(id.suffix) && /^[0-9a-f]+$/.test(middle)
        ? middle
        : undefined;
    }
    if (!subject.value.startsWith(id.base) || subject.value.length === id.base.length) return undefined;
    const local = subject.value.slice(id.base.length);
    if (id.kind === 'local' && (local === '.' || local === '..')) return undefined; // dot segments: no id, no member
    if (id.kind === 'local')
      // Letters, digits, marks and - . _ ~ ! $ ' ( ) * : @ as they are; all else as %XX of its UTF-8.
      return [...local]
        .map((c) =>
          /[\p{L}\p{N}\p{M}\-._~!$'()*:@]/u.test(c)
            ? c
            : [...Buffer.from(c)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
        )
        .join('');
    return Buffer.from(local).toString('hex');
  }
}
