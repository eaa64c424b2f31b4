import { createHash } from 'node:crypto';
import rdf from '@rdfjs/data-model';
import type { Literal, NamedNode } from '@rdfjs/types';
import { z } from 'zod';
import { badParameter } from '../errors/json-api-error.js';
import { idSortValue } from '../mapping/ids.js';
import { isSafeAbsoluteIri } from '../mapping/iri.js';
import type { ResourceType, SortKey } from '../mapping/model.js';
import { isSendableText, RDF_LANG_STRING as LANG_STRING, LANGUAGE_TAG, XSD, XSD_STRING } from '../rdf/vocabulary.js';
import { fitsLexicalSpace } from './filter-values.js';
import { sortSignature } from './parse-sort.js';

/** A sort key's value at a cursor: the RDF term the store gave, or `null` when the resource has none. */
export type KeyValue = Literal | NamedNode | null;

/**
 * A place in an ordered list: the values of its resource's attribute sort keys (one per key that
 * is not `id`, in sort order), and its id, which breaks ties. `inclusive` makes the place sit on
 * the other side of its resource, so that `page[after]` starts with that resource (and
 * `page[before]` ends with it): the links of an empty page use it.
 */
export interface Cursor {
  readonly values: readonly KeyValue[];
  readonly id: string;
  /** What the id sort expression yields for this resource (`mapping/ids.ts` `idSortValue`). */
  readonly idValue: string;
  readonly inclusive: boolean;
}

/** The list a cursor belongs to: a type and its sort. A cursor made for another one is refused. */
export interface CursorList {
  readonly type: ResourceType;
  readonly sort: readonly SortKey[];
}

/** Long enough for any real cursor (ids are at most 4096 characters); a bound on what gets parsed. */
const MAX_LENGTH = 16_384;

// On the wire, a term is a string (plain string literal), {v, t} (typed; `xsd:` abbreviated),
// {v, l} (language-tagged), {r} (IRI) or null (the key is missing).
const termJson = z.union([
  z.string(),
  z.strictObject({ v: z.string(), t: z.string() }),
  z.strictObject({ v: z.string(), l: z.string() }),
  z.strictObject({ r: z.string() }),
  z.null(),
]);
const cursorJson = z.strictObject({
  k: z.array(termJson).max(64),
  i: z.string(),
  e: z.literal(1).optional(),
  h: z.string(),
});
type CursorJson = z.infer<typeof cursorJson>;
type TermJson = z.infer<typeof termJson>;

/**
 * Writes a cursor: base64url of compact JSON holding the key values as RDF terms, the id, and a
 * digest of all that together with the type and sort, so that a cursor altered by hand or made for
 * another sort is recognised and refused.
 *
 * @example encodeCursor({ type: tradeActivities, sort }, { values: [literal('2016-01-01Z', xsdDate)], id: '7c1e0a42', inclusive: false })
 */
export function encodeCursor(list: CursorList, cursor: Pick<Cursor, 'values' | 'id' | 'inclusive'>): string {
  const k = cursor.values.map(termToJson);
  const body = { k, i: cursor.id, ...(cursor.inclusive && { e: 1 as const }) };
  return Buffer.from(JSON.stringify({ ...body, h: digest(list, body) })).toString('base64url');
}

/**
 * Reads a cursor given in `parameter` (`page[after]` or `page[before]`) for `list`; a cursor that
 * is garbled, altered, or made for another type or sort is a 400 naming the parameter. Terms are
 * rebuilt with the data factory, so they reach SPARQL only through the query AST.
 *
 * @example decodeCursor(url.searchParams.get('page[after]'), 'page[after]', { type: tradeActivities, sort })
 */
export function decodeCursor(text: string, parameter: string, list: CursorList): Cursor {
  const parsed =
    text.length <= MAX_LENGTH && /^[A-Za-z0-9_-]+$/.test(text)
      ? cursorJson.safeParse(parseJson(Buffer.from(text, 'base64url').toString('utf8')))
      : undefined;
  if (!parsed?.success) {
    throw badParameter(
      parameter,
      `${parameter} is not a cursor this server made; take cursors from the next and prev links (or meta.page.cursor) of a response.`,
    );
  }
  const { h, ...body } = parsed.data;
  if (h !== digest(list, body)) {
    const sort = list.sort.map((key) => `${key.descending ? '-' : ''}${key.field}`).join(',') || '(none)';
    throw badParameter(
      parameter,
      `${parameter} does not belong to this list: a cursor works only unaltered, with the type and sort it was made for (here ${list.type.name}, sort ${sort}).`,
    );
  }
  const attributeKeys = list.sort.filter((key) => key.path.end !== 'id');
  const idValue = idSortValue(list.type.id, body.i);
  const values = body.k.map(termFromJson);
  const fits =
    idValue !== undefined &&
    values.length === attributeKeys.length &&
    values.every(
      (value, i) =>
        value !== undefined && (!isLanguageKey(attributeKeys[i]!) || value === null || isPlainString(value)),
    );
  if (!fits) {
    // Only reachable by forging a digest: the server never writes such a cursor.
    throw badParameter(parameter, `${parameter} holds values that do not fit this list's sort keys.`);
  }
  return { values: values as KeyValue[], id: body.i, idValue, inclusive: body.e === 1 };
}

function digest(list: CursorList, body: Omit<CursorJson, 'h'>): string {
  const text = JSON.stringify(['cursor/1', list.type.name, sortSignature(list.sort), body.k, body.i, body.e ?? 0]);
  return createHash('sha256').update(text).digest('base64url').slice(0, 11);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function termToJson(term: KeyValue): TermJson {
  if (term === null) return null;
  if (term.termType === 'NamedNode') return { r: term.value };
  if (term.language !== '') return { v: term.value, l: term.language };
  const datatype = term.datatype.value;
  if (datatype === XSD_STRING) return term.value;
  return { v: term.value, t: datatype.startsWith(XSD) ? `xsd:${datatype.slice(XSD.length)}` : datatype };
}

/** The term a wire value stands for; `undefined` when it can't be a term. */
function termFromJson(json: TermJson): KeyValue | undefined {
  if (json === null) return null;
  if (typeof json === 'string') return isSendableText(json) ? rdf.literal(json) : undefined;
  if ('r' in json) return isSafeAbsoluteIri(json.r) ? rdf.namedNode(json.r) : undefined;
  if (!isSendableText(json.v)) return undefined;
  if ('l' in json) return LANGUAGE_TAG.test(json.l) ? rdf.literal(json.v, json.l) : undefined;
  const datatype = json.t.startsWith('xsd:') ? XSD + json.t.slice(4) : json.t;
  if (!isSafeAbsoluteIri(datatype) || datatype === XSD_STRING || datatype === LANG_STRING) return undefined;
  if (!fitsLexicalSpace(datatype, json.v)) return undefined;
  return rdf.literal(json.v, rdf.namedNode(datatype));
}

const isLanguageKey = (key: SortKey): boolean => key.path.end !== 'id' && key.path.end.language !== undefined;
const isPlainString = (term: Literal | NamedNode): boolean =>
  term.termType === 'Literal' && term.language === '' && term.datatype.value === XSD_STRING;
