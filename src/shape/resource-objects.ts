import type { Term } from '@rdfjs/types';
import { iriToId, memberSortKey } from '../mapping/ids.js';
import { EVERY_LANGUAGE, languageTiers, tierOf, UNTAGGED_KEY } from '../mapping/language.js';
import type { Attribute, ResourceType } from '../mapping/model.js';
import { valueOrder } from '../request/filter-values.js';
import {
  codePointCompare,
  compareNumericTerms,
  compareTerms,
  type JsonValue,
  literalToJson,
} from './literal-to-json.js';

/** A resource identifier object: what relationship data and linkage documents hold. */
export type Linkage = { type: string; id: string; meta?: Record<string, unknown> };

/** A relationship's resource linkage: `null` or one identifier (to-one), an array (to-many). */
export type RelationshipData = Linkage | Linkage[] | null;

export interface RelationshipObject {
  links: { self: string; related: string };
  /** Present for relationships whose resources the request includes, or whose objects carry linkage (`mapping/linkage.ts`). */
  data?: RelationshipData;
}

export interface ResourceObject {
  type: string;
  id: string;
  /** Left out when the resource shows no attribute (the type has none, or `fields[type]` names none). */
  attributes?: Record<string, AttributeValue>;
  relationships?: Record<string, RelationshipObject>;
  links: { self: string };
  meta?: Record<string, unknown>;
}

/** What a resource object shows beyond its identity. */
export interface ResourceView {
  /** The type's sparse fieldset; every field when undefined. */
  readonly fields?: ReadonlySet<string> | undefined;
  /** Resource linkage of the relationships the request includes, by relationship name. */
  readonly linkage?: ReadonlyMap<string, RelationshipData> | undefined;
}

/** A resource found by a list query: its IRI and id. */
export interface Member {
  readonly iri: string;
  readonly id: string;
}

/**
 * Builds a resource object; `view.linkBase` prefixes every link (`''` gives the spec's type-rooted
 * paths). `view.fields` keeps only those attributes and relationships; `attributes` and
 * `relationships` are left out when they would be empty. Relationships carry `links`, and `data`
 * when `view.linkage` has their linkage.
 *
 * @example resourceObject(concepts, { iri, id: '0101' }, values, { linkBase: '', fields: new Set(['label']) })
 */
export function resourceObject(
  type: ResourceType,
  member: Member,
  values: Map<string, Term[]> | undefined,
  view: ResourceView & { readonly linkBase: string },
): ResourceObject {
  const { linkBase } = view;
  const self = `${linkBase}/${type.name}/${encodeURIComponent(member.id)}`;
  const shown = (name: string) => view.fields === undefined || view.fields.has(name);
  const attributes: NonNullable<ResourceObject['attributes']> = {};
  for (const attribute of type.attributes.values()) {
    if (shown(attribute.name))
      attributes[attribute.name] = attributeValue(attribute, values?.get(attribute.name) ?? []);
  }
  const relationships: NonNullable<ResourceObject['relationships']> = {};
  for (const name of type.relationships.keys()) {
    if (!shown(name)) continue;
    relationships[name] = { links: { self: `${self}/links/${name}`, related: `${self}/${name}` } };
    const data = view.linkage?.has(name) ? view.linkage.get(name) : shownLinkage(type, name, values);
    if (data !== undefined) relationships[name].data = data;
  }
  const resource: ResourceObject = {
    type: type.name,
    id: member.id,
    ...(Object.keys(attributes).length > 0 && { attributes }),
    links: { self },
  };
  if (Object.keys(relationships).length > 0) resource.relationships = relationships;
  return resource;
}

/**
 * The linkage of a relationship whose objects carry it, from the targets its link field read
 * (`sparql/link-fields.ts`), in the order of the target's list (by id or by IRI, as its strategy
 * sorts): for a to-one relationship the first, as its related URL shows, or `null`; for a to-many
 * one every target. Undefined for a relationship without linkage.
 */
function shownLinkage(
  type: ResourceType,
  name: string,
  values: Map<string, Term[]> | undefined,
): RelationshipData | undefined {
  const field = type.linkFields?.get(name);
  if (!field) return undefined;
  const { relationship, target } = field.link;
  const members = (values?.get(name) ?? []).map((term) =>
    target.id.kind === 'predicate' || term.termType !== 'NamedNode'
      ? { iri: '', id: term.value }
      : { iri: term.value, id: iriToId(target.id, term.value) },
  );
  const key = (member: Member) => memberSortKey(target.id, member);
  members.sort((a, b) => codePointCompare(key(a), key(b)));
  const linkage = members.map(({ id }) => ({ type: target.name, id }));
  return relationship.cardinality === 'one' ? (linkage[0] ?? null) : linkage;
}

/** What an attribute shows: a value, an array (`many`), an object by language tag (`language: '*'`), or a structured attribute's objects. */
export type AttributeValue =
  | JsonValue
  | JsonValue[]
  | { [tag: string]: JsonValue | JsonValue[] }
  | StructuredObject
  | StructuredObject[]
  | null;

/** One node of a structured attribute, shown: its fields' values by field name. */
export type StructuredObject = { [field: string]: AttributeValue };

/** A structured attribute's value as rows give it (`execute/field-values.ts`): the node and its fields' values. */
export type NodeValue = Term & { readonly fields: Map<string, Term[]> };

/**
 * The value an attribute shows: its values of the best language tier that has any (see
 * `languageTiers` in `mapping/language.ts`; one tier, every value, without a `language`); for a
 * single-valued attribute the least of them, the same one the sort keys use; `null` (or `[]`)
 * when none, as for a strict attribute without a value in its language. `language: '*'` shows
 * an object from lowercase language tag (`und` for untagged values) to that tag's least value,
 * or to all its values with `many`; keys in code point order.
 *
 * @example attributeValue({ name: 'label', predicate, language: 'en', many: false }, [metreEn, meterEnUs]) // 'Metre'
 */
export function attributeValue(attribute: Attribute, values: Term[]): AttributeValue {
  if (attribute.fields) return structuredValue(attribute, attribute.fields, values);
  if (attribute.language === EVERY_LANGUAGE) return languageMap(attribute, values);
  return pick(attribute, shownValues(attribute, values));
}

/**
 * A structured attribute's value: an object per node among its values (a literal is no node, and
 * is not shown), each field as an attribute of the node; the objects in the code point order of
 * their JSON, so that every store shows them alike, whatever its blank node labels. `many`: all
 * of them; otherwise the first, or `null`.
 */
function structuredValue(
  { many }: Attribute,
  fields: ReadonlyMap<string, Attribute>,
  values: Term[],
): StructuredObject | StructuredObject[] | null {
  const shown = values
    .filter((value) => value.termType !== 'Literal')
    .map((node) => {
      const own = 'fields' in node ? (node as NodeValue).fields : undefined;
      const object = Object.fromEntries(
        [...fields.values()].map((field) => [field.name, attributeValue(field, own?.get(field.name) ?? [])]),
      );
      return { object, text: JSON.stringify(object) };
    })
    .sort((a, b) => codePointCompare(a.text, b.text))
    .map(({ object }) => object);
  return many ? shown : (shown[0] ?? null);
}

/** The values of the best tier of `languageTiers(attribute)` that has any; `[]` when none does. */
export function shownValues(attribute: Attribute, values: Term[]): Term[] {
  const tiers = languageTiers(attribute);
  if (tiers.length === 1) return values;
  let best: Term[] = [];
  let bestTier = tiers.length;
  for (const value of values) {
    const tier = tierOf(tiers, languageOf(value));
    if (tier === undefined || tier > bestTier) continue;
    if (tier < bestTier) best = [];
    bestTier = tier;
    best.push(value);
  }
  return best;
}

function pick(attribute: Attribute, values: Term[]): JsonValue | JsonValue[] {
  const sorted = [...values].sort(valueOrder(attribute) === 'number' ? compareNumericTerms : compareTerms);
  if (attribute.many) return sorted.map((term) => literalToJson(term, attribute.datatype));
  return sorted[0] === undefined ? null : literalToJson(sorted[0], attribute.datatype);
}

function languageMap(attribute: Attribute, values: Term[]): { [tag: string]: JsonValue | JsonValue[] } {
  const byTag = new Map<string, Term[]>();
  for (const value of values) {
    const tag = languageOf(value).toLowerCase() || UNTAGGED_KEY;
    byTag.set(tag, [...(byTag.get(tag) ?? []), value]);
  }
  const tags = [...byTag.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(tags.map((tag) => [tag, pick(attribute, byTag.get(tag)!)]));
}

const languageOf = (term: Term): string => (term.termType === 'Literal' ? term.language : '');
