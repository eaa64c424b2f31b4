import rdf from '@rdfjs/data-model';
import type { Term } from '@rdfjs/types';
import { iriToId } from '../mapping/ids.js';
import type { ResourceType } from '../mapping/model.js';
import type { ListRequest } from '../plan/plan.js';
import { XSD_DOUBLE } from '../rdf/vocabulary.js';
import type { KeyValue } from '../request/cursor.js';
import { valueOrder } from '../request/filter-values.js';
import type { Member } from '../shape/resource-objects.js';
import { exactVariable } from '../sparql/fetch-query.js';
import { INCLUDE_VARIABLES } from '../sparql/include-query.js';
import { linkValues } from '../sparql/link-fields.js';
import { idVariable } from '../sparql/members.js';
import { perMemberKeyIndex, tieredKeyText } from '../sparql/per-member-key.js';
import { exactKeyVariable, keyVariable } from '../sparql/sort-clauses.js';
import { type Row, StoreError } from '../store/store.js';
import { exactNumber } from './exact-number.js';
import { addRowValue, addValue, type FieldValues, valueVariables } from './field-values.js';

export type { FieldValues };

/*
 * Reading result rows, in one place: every variable name a query builder projects is read back
 * here, next to the other reads, so that a change to a query's projection has one reader to follow.
 * A term of the wrong kind where the query fixes it (a literal as a resource, a resource as a
 * field name) is a store answering something else than it was asked: StoreError `unexpected`.
 */

/**
 * The members in list-query rows (`?s`, and `?s_id` for the predicate id strategy), in row order,
 * each once. Every row binds `?s`: a row without it is an unexpected answer (a list that hangs off
 * a parent may have one: {@link relatedMembersOf}).
 *
 * @example membersOf(concepts, rows) // [{ iri: 'http://…/concept/0101', id: '0101' }, …]
 */
export function membersOf(type: ResourceType, rows: readonly Row[]): Member[] {
  const members: Member[] = [];
  const seen = new Set<string>();
  for (const row of rows) {
    const iri = resource(row.s, 's');
    if (iri === undefined) throw missing('?s');
    if (seen.has(iri)) continue;
    seen.add(iri);
    const member = memberOf(type, iri, row.s_id);
    if (member) members.push(member);
  }
  return members;
}

/**
 * The members in the rows of a list that hangs off a parent, as {@link membersOf}; a row without
 * `?s` (the parent points at nothing) is skipped.
 *
 * @example relatedMembersOf(concepts, [{}]) // []
 */
export function relatedMembersOf(type: ResourceType, rows: readonly Row[]): Member[] {
  return membersOf(
    type,
    rows.filter((row) => row.s !== undefined),
  );
}

/** The variables of a fetch's field names and values (`sparql/fetch-query.ts`). */
const FETCHED = valueVariables(rdf.variable('f'), rdf.variable('o'));

/** A range window's first sort key, and its exact text (`sparql/key-histogram.ts`). */
const KEY = keyVariable(0).value;
const KEY_EXACT = exactVariable(keyVariable(0)).value;

/**
 * Groups fetch-query rows (`?s ?f ?o`) by subject and field in one pass; with `carried`, that
 * attribute's value is each row's first sort key (`?key0`, with its exact text: a range window's
 * rows, `sparql/key-histogram.ts`).
 * @returns IRI → field name → values
 */
export function groupValues(rows: readonly Row[], carried?: string): Map<string, FieldValues> {
  const bySubject = new Map<string, FieldValues>();
  for (const row of rows) {
    const { s } = row;
    const subject = resource(s, 's');
    if (subject === undefined) throw missing('?s');
    let fields = bySubject.get(subject);
    if (!fields) bySubject.set(subject, (fields = new Map()));
    addRowValue(fields, row, FETCHED, fieldName);
    for (const [name, end] of linkValues(row)) addValue(fields, fieldName(name), end);
    if (carried === undefined) continue;
    const key = row[KEY];
    if (key) addValue(fields, carried, exactNumber(key, row[KEY_EXACT]));
  }
  return bySubject;
}

/**
 * Reads, from a row of a keyset list query, the values a cursor keeps for its resource: each
 * attribute key's value as its ORDER BY compares it (`sparql/comparable.ts`): text as a plain
 * literal (for a tiered key, without its tier character), a number as the double its exact text
 * gives, other typed values as they are; `null` where the resource has none (or, for a number key,
 * none that reads as a number). How each key is read is worked out once per list, not per row.
 *
 * @example keyValueReader({ sort: parseSort('-financial-year,id', mapping, type) })(row) // [literal('2016-01-01Z', xsdDate)]
 */
export function keyValueReader(request: Pick<ListRequest, 'sort' | 'parent'>): (row: Row) => KeyValue[] {
  const perMember = perMemberKeyIndex(request);
  const readers = request.sort.flatMap(({ path: { end } }, i): ((row: Row) => KeyValue)[] => {
    if (end === 'id') return [];
    const name = keyVariable(i).value;
    const exactName = exactKeyVariable(i).value;
    const order = end.language !== undefined || i === perMember ? 'tiered' : valueOrder(end);
    return [
      (row) => {
        const term = row[name];
        if (term?.termType !== 'Literal') return term?.termType === 'NamedNode' ? term : null;
        if (order === 'typed') return term;
        if (order === 'text') return rdf.literal(term.value);
        if (order === 'tiered') {
          const text = tieredKeyText(term.value);
          return text === null ? null : rdf.literal(text);
        }
        const exact = row[exactName];
        return exact === undefined ? null : exactNumber(rdf.literal(term.value, XSD_DOUBLE_TERM), exact);
      },
    ];
  });
  return (row) => readers.map((read) => read(row));
}

/** What one branch of an include query found: source IRI → target IRI → target; target IRI → its values. */
export interface BranchRows {
  readonly targets: Map<string, Map<string, Member>>;
  readonly values: Map<string, FieldValues>;
}

const { branch: N, source: SRC, target: T, field: F, value: O } = INCLUDE_VARIABLES;
const T_ID = idVariable(T);
const INCLUDED = valueVariables(F, O);

/**
 * Reads the rows of an include query (`?n ?src ?t ?t_id ?f ?o`, see `sparql/include-query.ts`)
 * into one {@link BranchRows} per branch; `targetTypes[n]` is branch n's target type.
 */
export function readIncludeRows(rows: readonly Row[], targetTypes: readonly ResourceType[]): BranchRows[] {
  const found: BranchRows[] = targetTypes.map(() => ({ targets: new Map(), values: new Map() }));
  for (const row of rows) {
    const [n, source, target] = [
      Number(row[N.value]?.value),
      resource(row[SRC.value], SRC.value),
      resource(row[T.value], T.value),
    ];
    const type = targetTypes[n];
    if (!type || source === undefined || target === undefined) throw missing('?n, ?src and ?t');
    const member = memberOf(type, target, row[T_ID.value]);
    if (!member) continue;
    const { targets, values } = found[n]!;
    let linked = targets.get(source);
    if (!linked) targets.set(source, (linked = new Map()));
    if (!linked.has(target)) linked.set(target, member);
    let fields = values.get(target);
    if (!fields) values.set(target, (fields = new Map()));
    addRowValue(fields, row, INCLUDED, fieldName);
    for (const [name, end] of linkValues(row)) addValue(fields, fieldName(name), end);
  }
  return found;
}

/**
 * The number in a count query's row (`?count`, `?parents`): an aggregate, so bound in the one row
 * SPARQL gives. No row at all counts as 0: Oxigraph folds a count over a pattern that cannot match
 * (`FILTER(false)`, from a filter value no resource can have) to an empty result.
 *
 * @example countValue(row, 'count') // 42
 */
export function countValue(row: Row | undefined, variable: string): number {
  if (row === undefined) return 0;
  const term = row[variable];
  if (term === undefined) throw missing(`?${variable}`);
  const count = Number(term.value);
  if (term.termType !== 'Literal' || !Number.isSafeInteger(count) || count < 0) throw unexpected(`?${variable}`, term);
  return count;
}

/**
 * The rows of a count-and-histogram query (`sparql/key-histogram.ts`): the list's count from the
 * row with `?count` (as {@link countValue}: none is 0) and the histogram's rows, those with
 * `rowsVariable`. A row with neither is not what that query gives.
 *
 * @example countAndHistogram(rows, 'rows') // { total: 70000, histogram: [{ key0, rows }, …] }
 */
export function countAndHistogram(rows: readonly Row[], rowsVariable: string): { total: number; histogram: Row[] } {
  let counted: Row | undefined;
  const histogram: Row[] = [];
  for (const row of rows) {
    if (row.count !== undefined) counted = row;
    else if (row[rowsVariable] !== undefined) histogram.push(row);
    else throw missing(`?count or ?${rowsVariable}`);
  }
  return { total: countValue(counted, 'count'), histogram };
}

const XSD_DOUBLE_TERM = rdf.namedNode(XSD_DOUBLE);

/** The IRI of a variable that must hold a resource; undefined when unbound. */
function resource(term: Term | undefined, variable: string): string | undefined {
  if (term === undefined) return undefined;
  if (term.termType !== 'NamedNode') throw unexpected(`?${variable}`, term);
  return term.value;
}

/** A field name the query wrote as a literal (`?f`). */
function fieldName(term: Term): string {
  if (term.termType !== 'Literal') throw unexpected('?f', term);
  return term.value;
}

/** A row without a variable its query always binds: the store answered another question. */
function missing(variables: string): StoreError {
  return new StoreError('unexpected', `the store answered without ${variables}, which this query always binds`);
}

function unexpected(variable: string, term: Term): StoreError {
  return new StoreError(
    'unexpected',
    `the store answered ${variable} with a ${term.termType}, which this query cannot give`,
  );
}

/** A resource by its IRI and, for the predicate id strategy, the id literal its row carries. */
function memberOf(type: ResourceType, iri: string, idTerm: Term | undefined): Member | undefined {
  const id = type.id.kind === 'predicate' ? idTerm?.value : iriToId(type.id, iri);
  return id === undefined ? undefined : { iri, id };
}
