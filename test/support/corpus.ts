import { readFileSync } from 'node:fs';
import type { Term } from '@rdfjs/types';
import { DataFactory, Store as N3Store, Parser } from 'n3';
import type { Attribute, Mapping, ResourceType } from '../../src/mapping/model.js';
import { codePointCompare, Oracle, type Resource } from './oracle.js';
import { sortablePaths } from './sort-cases.js';

/*
 * The request corpus of the cross-store equivalence suite (test/integration/same-answers.test.ts):
 * from a compiled mapping and values read from the data, every kind of request the API answers.
 * The corpus says nothing about what the answers should be; the suite asks every store the same
 * requests and compares their answers with each other. Deterministic: no randomness, only sorted
 * data, so that a failure names the same URL on every run.
 */

const XSD = 'http://www.w3.org/2001/XMLSchema#';
const NUMERIC =
  /#(integer|decimal|double|float|long|int|short|byte|nonNegativeInteger|nonPositiveInteger|negativeInteger|positiveInteger|unsignedLong|unsignedInt|unsignedShort|unsignedByte)$/;
const TEMPORAL = /#(date|dateTime|time|gYear|gYearMonth)$/;

/** One request of the corpus: what it exercises (for the test's title) and the path with its query. */
export interface CorpusEntry {
  readonly kind: 'collection' | 'filter' | 'related' | 'relationship' | 'resource' | 'include' | 'fields';
  readonly url: string;
}

/** A sort to walk page by page over the whole collection. */
export interface WalkCase {
  readonly type: string;
  readonly sort: string;
  /** A page size that makes several pages of this type's collection. */
  readonly size: number;
}

/** The values the corpus picks from: what the data really holds. */
export interface ValuePicker {
  /** Every member of a type, by id (code point order). */
  members(type: string): readonly Resource[];
  /** The members a resource's relationship points at. */
  related(type: string, iri: string, relationship: string): readonly Resource[];
  /** Every literal value of an attribute's predicate over every member of the type, whatever its language. */
  values(type: string, attribute: string): readonly Term[];
  /** The literal values of an attribute's predicate on one resource. */
  memberValues(type: string, iri: string, attribute: string): readonly Term[];
}

/** Reads the values from the data files themselves (n3, through the test oracle). */
export function dataPicker(files: string | string[], mapping: Mapping): ValuePicker & { distinctTriples: number } {
  const oracle = Oracle.fromFile(files, mapping);
  // The triples again, every graph merged (as a store serving the union sees them), indexed for a
  // lookup per resource (the oracle rebuilds the target type's members on each).
  const quads = new N3Store(
    [files]
      .flat()
      .flatMap((f) => new Parser().parse(readFileSync(f, 'utf8')))
      .map((x) => DataFactory.quad(x.subject, x.predicate, x.object)),
  );
  const members = new Map<string, Resource[]>();
  const iris = new Map<string, Map<string, Resource>>();
  const byIri = (type: string) => {
    if (!iris.has(type)) iris.set(type, new Map(membersOf(type).map((m) => [m.iri, m])));
    return iris.get(type)!;
  };
  const values = new Map<string, Term[]>();
  const membersOf = (type: string) => {
    if (!members.has(type)) members.set(type, oracle.members(type));
    return members.get(type)!;
  };
  const literals = (type: string, iri: string, attribute: string) =>
    oracle
      .objects(iri, mapping.types.get(type)!.attributes.get(attribute)!.predicate)
      .filter((t) => t.termType === 'Literal');
  return {
    distinctTriples: quads.size,
    members: membersOf,
    memberValues: literals,
    related(type, iri, relationship) {
      const rel = mapping.types.get(type)!.relationships.get(relationship)!;
      const node = DataFactory.namedNode(iri);
      const predicate = DataFactory.namedNode(rel.predicate);
      const linked = rel.inverse ? quads.getSubjects(predicate, node, null) : quads.getObjects(node, predicate, null);
      const targets = byIri(rel.target);
      return [...new Set(linked.flatMap((t) => targets.get(t.value) ?? []))].sort((a, b) =>
        codePointCompare(a.id, b.id),
      );
    },
    values(type, attribute) {
      const key = `${type}\u0000${attribute}`;
      if (!values.has(key)) {
        values.set(
          key,
          membersOf(type).flatMap((m) => literals(type, m.iri, attribute)),
        );
      }
      return values.get(key)!;
    },
  };
}

type Kind = 'numeric' | 'temporal' | 'boolean' | 'text';

/** The README's kinds of attribute for filters ("Typed comparison"), written out independently of src/. */
function kindOf(attribute: Attribute): Kind {
  const datatype = attribute.language === undefined ? attribute.datatype : undefined;
  if (datatype === undefined || !datatype.startsWith(XSD)) return 'text';
  if (NUMERIC.test(datatype)) return 'numeric';
  if (TEMPORAL.test(datatype)) return 'temporal';
  if (datatype === `${XSD}boolean`) return 'boolean';
  return 'text';
}

const OPERATORS: Record<Kind, readonly string[]> = {
  numeric: ['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'exists'],
  temporal: ['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'exists'],
  boolean: ['eq', 'ne', 'exists'],
  text: ['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'contains', 'starts-with', 'exists'],
};

/** `\,` and `\\` inside one value of a comma-separated filter list (README "Filtering"). */
const escapeListValue = (value: string) => value.replace(/\\/g, '\\\\').replace(/,/g, '\\,');
/** A query string value: percent-encoded, so `+`, `&`, `#`, `%` and non-ASCII survive. */
const q = (value: string) => encodeURIComponent(value);
/** Text that is not plain ASCII letters and digits: quotes, spaces, non-ASCII, emoji. */
const UNUSUAL = /[^A-Za-z0-9.-]|^$/;

/** Distinct lexical forms in the order the kind compares them (numbers by value, others by code point). */
function distinctValues(terms: readonly Term[], kind: Kind): string[] {
  const lexical = [...new Set(terms.map((t) => t.value))];
  return kind === 'numeric'
    ? lexical.filter((v) => Number.isFinite(Number(v))).sort((a, b) => Number(a) - Number(b) || codePointCompare(a, b))
    : lexical.sort(codePointCompare);
}

/** The filter values of an attribute: present (median), boundaries (least, greatest), and an unusual text when there is one. */
function pickValues(
  terms: readonly Term[],
  kind: Kind,
): { present?: string; least?: string; greatest?: string; unusual?: string } {
  const values = distinctValues(terms, kind);
  if (values.length === 0) return {};
  return {
    present: values[Math.floor(values.length / 2)],
    least: values[0],
    greatest: values.at(-1),
    unusual: kind === 'text' ? values.find((v) => UNUSUAL.test(v) && v.trim() !== '') : undefined,
  };
}

/** A few characters from the middle of a text (whole code points), for `contains`. */
function middle(text: string): string {
  const chars = [...text];
  if (chars.length <= 3) return text;
  return chars.slice(1, 4).join('');
}

function filterUrls(mapping: Mapping, picker: ValuePicker, type: ResourceType): string[] {
  const urls: string[] = [];
  const base = `/${type.name}?page[size]=100&`;
  const add = (field: string, op: string | undefined, value: string) =>
    urls.push(`${base}filter[${field}]${op === undefined ? '' : `[${op}]`}=${q(value)}`);

  // Every operator the attribute's kind takes, with one value each (two for `eq`: the bare form,
  // and a list with an unusual text, or the least value): the operators are what differs by kind.
  // `contains` takes a piece of a text in upper case (case-insensitive), `starts-with` an unusual
  // text's start as it is (quotes, non-ASCII) when there is one.
  const attributeFilters = (field: string, owner: ResourceType, attribute: Attribute) => {
    const kind = kindOf(attribute);
    const { present, least, greatest, unusual } = pickValues(picker.values(owner.name, attribute.name), kind);
    for (const op of OPERATORS[kind]) {
      if (op === 'exists') {
        add(field, op, 'true');
        add(field, op, 'false');
        continue;
      }
      if (present === undefined) continue;
      if (kind === 'boolean') {
        add(field, op, op === 'ne' ? 'false' : 'true');
        continue;
      }
      switch (op) {
        case 'eq':
          add(field, undefined, escapeListValue(present));
          add(field, op, `${escapeListValue(unusual ?? least!)},${escapeListValue(greatest!)}`);
          break;
        case 'ne':
          add(field, op, escapeListValue(present));
          break;
        case 'lt':
        case 'gt':
          add(field, op, present);
          break;
        case 'lte':
          add(field, op, least!);
          break;
        case 'gte':
          add(field, op, greatest!);
          break;
        case 'contains':
          add(field, op, escapeListValue(middle(present)).toUpperCase());
          break;
        case 'starts-with':
          add(
            field,
            op,
            escapeListValue(
              unusual === undefined
                ? [...present].slice(0, 2).join('').toLowerCase()
                : [...unusual].slice(0, 2).join(''),
            ),
          );
          break;
      }
    }
  };

  for (const attribute of type.attributes.values()) attributeFilters(attribute.name, type, attribute);
  const members = picker.members(type.name);
  if (members.length > 0) {
    const some = members[Math.floor(members.length / 2)]!.id;
    add('id', undefined, some);
    add('id', 'ne', `${members[0]!.id},${some}`);
  }
  for (const rel of type.relationships.values()) {
    const target = mapping.types.get(rel.target)!;
    const targets = picker.members(target.name);
    if (targets.length > 0) {
      const some = targets[Math.floor(targets.length / 2)]!.id;
      add(rel.name, undefined, some);
      add(rel.name, 'ne', some);
    }
    add(rel.name, 'exists', 'false');
    // One hop on: the target's first attribute.
    const first = [...target.attributes.values()][0];
    if (first !== undefined) {
      const kind = kindOf(first);
      const { present } = pickValues(picker.values(target.name, first.name), kind);
      if (present !== undefined) add(`${rel.name}.${first.name}`, undefined, kind === 'boolean' ? 'true' : present);
    }
  }
  // Search over the type's text attributes: a piece of a text value.
  const text = [...type.attributes.values()].find((a) => kindOf(a) === 'text');
  if (text !== undefined) {
    const { present, unusual } = pickValues(picker.values(type.name, text.name), 'text');
    if (present !== undefined) urls.push(`${base}filter=${q(middle(present))}`);
    if (unusual !== undefined) urls.push(`${base}filter=${q(unusual)}`);
  }
  return urls;
}

/** The member with the most targets of the relationship, and one with none (when there are such). */
function sampleParents(picker: ValuePicker, type: ResourceType, relationship: string): Resource[] {
  const members = picker.members(type.name);
  const counted = members.map((m) => ({ m, n: picker.related(type.name, m.iri, relationship).length }));
  const fullest = counted
    .filter((c) => c.n > 0)
    .sort((a, b) => b.n - a.n || codePointCompare(a.m.id, b.m.id))
    .map((c) => c.m)[0];
  const empty = counted.find((c) => c.n === 0)?.m;
  return [fullest, empty].filter((m) => m !== undefined);
}

/** Two attributes to sort by at once, the second descending (or the first attribute and id). */
export function twoKeySort(type: ResourceType): string | undefined {
  const names = [...type.attributes.keys()];
  if (names.length === 0) return undefined;
  return names.length >= 2 ? `${names[0]},-${names[1]}` : `${names[0]},-id`;
}

/** The sort paths walked to the end: `id` and the paths crossing at most `walkDepth` relationships. */
export function walkedPaths(mapping: Mapping, type: ResourceType, walkDepth: number): string[] {
  return [...new Set(['id', ...sortablePaths(mapping, type, walkDepth)])];
}

/**
 * A page size that makes about three pages of `count` members (two page ends to cross, each way):
 * at least 5, at most `max`.
 */
export function walkPageSize(count: number, max = 100): number {
  return Math.min(max, Math.max(5, Math.ceil(count / 3)));
}

/**
 * Every walked path of every type, and a two-key sort per type: `id` both ways, the other paths
 * one way each, ascending and descending in turn over the whole mapping (a type with one path
 * walks it the other way from the type before), at half the walks; the generated sort corpus
 * draws directions at random.
 */
export function walkCases(mapping: Mapping, picker: ValuePicker, walkDepth: number, maxPageSize = 100): WalkCase[] {
  let turn = 0;
  const oneWay = (path: string) => (turn++ % 2 === 0 ? path : `-${path}`);
  return [...mapping.types.values()].flatMap((type) => {
    const size = walkPageSize(picker.members(type.name).length, maxPageSize);
    const paths = walkedPaths(mapping, type, walkDepth).filter((path) => path !== 'id');
    const sorts = ['id', '-id', ...paths.map(oneWay), twoKeySort(type)];
    return sorts.filter((sort) => sort !== undefined).map((sort) => ({ type: type.name, sort, size }));
  });
}

/**
 * Every request of the corpus, in a fixed order, per type: the collection; filters (every operator
 * each attribute's kind takes, with values from the data); related resources and relationship
 * linkage of the member with the most targets and of one with none; two single resources; two
 * `include`s and two sparse fieldsets. Sorts are not here: every sortable path is walked to the
 * end instead ({@link walkCases}).
 */
export function buildCorpus(mapping: Mapping, picker: ValuePicker): CorpusEntry[] {
  const entries: CorpusEntry[] = [];
  const add = (kind: CorpusEntry['kind'], url: string) => entries.push({ kind, url });
  for (const type of mapping.types.values()) {
    const members = picker.members(type.name);
    add('collection', `/${type.name}`);
    for (const url of filterUrls(mapping, picker, type)) add('filter', url);

    for (const rel of type.relationships.values()) {
      for (const [i, parent] of sampleParents(picker, type, rel.name).entries()) {
        add('related', `/${type.name}/${parent.id}/${rel.name}`);
        add('relationship', `/${type.name}/${parent.id}/links/${rel.name}`);
        if (rel.cardinality === 'many' && i === 0) {
          add('related', `/${type.name}/${parent.id}/${rel.name}?sort=-id&page[size]=3`);
          add('relationship', `/${type.name}/${parent.id}/links/${rel.name}?page[size]=2&page[number]=1`);
        }
      }
    }

    const filled = (m: Resource) =>
      [...type.attributes.keys()].filter((n) => picker.memberValues(type.name, m.iri, n).length > 0).length;
    const richest = [...members].sort((a, b) => filled(b) - filled(a) || codePointCompare(a.id, b.id));
    for (const member of new Set([members[0], richest[0]].filter((m) => m !== undefined)))
      add('resource', `/${type.name}/${member.id}`);

    // Every relationship included on a page of the collection; a path on from the first relationship
    // included on the member that has the most of it.
    const rels = [...type.relationships.values()];
    if (rels.length > 0) add('include', `/${type.name}?include=${rels.map((r) => r.name).join(',')}&page[size]=20`);
    const firstRelationship = rels[0];
    if (firstRelationship !== undefined) {
      const onward = [...mapping.types.get(firstRelationship.target)!.relationships.values()][0];
      const parent = sampleParents(picker, type, firstRelationship.name)[0];
      const path = onward === undefined ? firstRelationship.name : `${firstRelationship.name}.${onward.name}`;
      if (parent !== undefined) add('include', `/${type.name}/${parent.id}?include=${path}`);
    }

    const firstAttribute = [...type.attributes.keys()][0];
    add(
      'fields',
      `/${type.name}?fields[${type.name}]=${[firstAttribute, firstRelationship?.name].filter(Boolean).join(',')}`,
    );
    if (firstRelationship !== undefined) {
      const target = mapping.types.get(firstRelationship.target)!;
      const targetAttribute = [...target.attributes.keys()].at(-1) ?? '';
      add(
        'fields',
        `/${type.name}?include=${firstRelationship.name}&fields[${target.name}]=${targetAttribute}&page[size]=10`,
      );
    } else add('fields', `/${type.name}?fields[${type.name}]=`);
  }
  const seen = new Set<string>();
  return entries.filter((e) => !seen.has(e.url) && seen.add(e.url));
}
