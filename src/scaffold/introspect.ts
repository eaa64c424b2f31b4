import type { Term } from '@rdfjs/types';
import { isSafeAbsoluteIri } from '../mapping/iri.js';
import { SH } from '../rdf/vocabulary.js';
import type { Row, Store } from '../store/store.js';
import { type IdProposal, proposeId, WHOLE_IRI_HEX } from './id-strategy.js';
import type { ClassStats, Introspection, PredicateStats, Spread } from './model.js';
import { localName } from './names.js';
import {
  classesQuery,
  incomingQuery,
  literalsQuery,
  membersQuery,
  missingQuery,
  objectClassesQuery,
  outlierQuery,
  predicatesQuery,
  shapesQuery,
  valuesQuery,
} from './queries.js';
import { shapesFromRows } from './shacl.js';

export interface IntrospectOptions {
  /** The most classes described, largest first (default 100). */
  readonly classLimit?: number;
  /** Members of each class the statistics look at (default 1000). */
  readonly sampleSize?: number;
  readonly signal?: AbortSignal;
}

/** Rows any per-class query returns at most: predicates × datatypes × languages stay well below. */
const ROW_LIMIT = 5000;
/** How many times a proposed id strategy is corrected by a member that does not fit it. */
const ID_ROUNDS = 3;

/**
 * Describes a dataset for a scaffold, through the {@link Store} interface only, so it works on the
 * embedded store and on any endpoint alike. Per class (the largest {@link IntrospectOptions.classLimit}
 * with IRI members), from a sample of members: the predicates they use, with datatypes, languages,
 * values per member and the classes of their IRI values; the predicates pointing at them from
 * other classes; and an id strategy, proposed from sampled IRIs, then checked against every member
 * with a one-row query (a member that does not fit joins the sample, and the proposal is redone).
 *
 * @example const facts = await introspect(store, { sampleSize: 500 })
 */
export async function introspect(store: Store, options: IntrospectOptions = {}): Promise<Introspection> {
  const classLimit = options.classLimit ?? 100;
  const size = options.sampleSize ?? 1000;
  const ask = (query: string) =>
    store.select(query, { lane: 'heavy', ...(options.signal && { signal: options.signal }) });
  const notes: string[] = [];
  const shapes = shapesFromRows(await ask(shapesQuery(ROW_LIMIT)));
  const classes: ClassStats[] = [];
  const found = await ask(classesQuery(classLimit + 1));
  if (found.length > classLimit) notes.push(`only the ${classLimit} largest classes are described`);
  for (const row of found.slice(0, classLimit)) {
    const iri = row.class?.value ?? '';
    const members = count(row.members);
    if (iri.startsWith(SH)) {
      notes.push(`<${iri}> (${members}) is SHACL, not data: left out`);
      continue;
    }
    if (!isSafeAbsoluteIri(iri) || members === 0) continue;
    classes.push(await describeClass(ask, iri, members, size));
  }
  return { classes, shapes, notes };
}

type Ask = (query: string) => Promise<Row[]>;

async function describeClass(ask: Ask, iri: string, members: number, size: number): Promise<ClassStats> {
  // Independent queries, asked together: five at most, within any store's heavy lane and queue.
  const [memberRows, predicateRows, literalRows, objectRows, incomingRows] = await Promise.all([
    ask(membersQuery(iri, size)),
    ask(predicatesQuery(iri, size, ROW_LIMIT)),
    ask(literalsQuery(iri, size, ROW_LIMIT)),
    ask(objectClassesQuery(iri, size, ROW_LIMIT)),
    ask(incomingQuery(iri, size, ROW_LIMIT)),
  ]);
  const sampleIris = memberRows.flatMap((r) => (r.s ? [r.s.value] : []));
  const literalsOf = byPredicate(literalRows);
  const objectsOf = byPredicate(objectRows);
  const predicates = predicateRows
    .filter((r) => r.p && isSafeAbsoluteIri(r.p.value))
    .map((r): PredicateStats => {
      const p = r.p!.value;
      const datatypes: Record<string, Spread> = {};
      const languages: Record<string, Spread> = {};
      for (const l of literalsOf.get(p) ?? []) {
        const tag = (l.language?.value ?? '').toLowerCase();
        const spread = { members: count(l.members), max: count(l.max) };
        if (tag !== '') languages[tag] = merge(languages[tag], spread);
        else if (l.datatype) datatypes[l.datatype.value] = merge(datatypes[l.datatype.value], spread);
      }
      const objectClasses: Record<string, number> = {};
      for (const o of objectsOf.get(p) ?? [])
        objectClasses[o.class?.value ?? ''] = (objectClasses[o.class?.value ?? ''] ?? 0) + count(o.values);
      return {
        iri: p,
        members: count(r.members),
        max: count(r.max),
        literals: count(r.literals),
        iris: count(r.iris),
        blanks: count(r.blanks),
        datatypes,
        languages,
        objectClasses,
      };
    });
  const incoming = incomingRows
    .filter((r) => r.p && r.class && isSafeAbsoluteIri(r.p.value) && isSafeAbsoluteIri(r.class.value))
    .map((r) => ({ predicate: r.p!.value, fromClass: r.class!.value, members: count(r.members), max: count(r.max) }));
  const sampled = sampleIris.length;
  return {
    iri,
    members,
    sampled,
    id: await checkedId(ask, iri, sampleIris, await uuidSample(ask, iri, predicates, sampled, size)),
    predicates,
    incoming,
  };
}

/**
 * The values of a `mu:uuid`-like predicate (local name `uuid`, one literal on every sampled
 * member), when the class has one; `mu:uuid` itself first.
 */
async function uuidSample(
  ask: Ask,
  classIri: string,
  predicates: readonly PredicateStats[],
  sampled: number,
  size: number,
): Promise<{ predicate: string; values: string[] } | undefined> {
  const candidates = predicates
    .filter((p) => /^uuid$/i.test(localName(p.iri)) && p.members === sampled && p.max === 1 && p.literals === sampled)
    .sort((a, b) => Number(b.iri.startsWith('http://mu.semte.ch/')) - Number(a.iri.startsWith('http://mu.semte.ch/')));
  const predicate = candidates[0]?.iri;
  if (predicate === undefined) return undefined;
  const values = (await ask(valuesQuery(classIri, predicate, size))).flatMap((r) => (r.v ? [r.v.value] : []));
  return { predicate, values };
}

/** {@link proposeId} on the sample, corrected by the members a one-row query finds outside the proposal. */
async function checkedId(
  ask: Ask,
  classIri: string,
  sampleIris: string[],
  uuid: { predicate: string; values: string[] } | undefined,
): Promise<IdProposal> {
  const iris = [...sampleIris];
  const byLiteral = proposeId(iris, uuid);
  // A member without the literal would be no member of the type: then the IRIs decide.
  if (byLiteral.kind === 'predicate' && (await ask(missingQuery(classIri, byLiteral.predicate))).length === 0)
    return byLiteral;
  for (let round = 0; round < ID_ROUNDS; round++) {
    const proposal = proposeId(iris);
    const base = proposal.kind === 'template' ? proposal.prefix : proposal.base;
    if (base === '') return proposal;
    const [outlier] = await ask(outlierQuery(classIri, base, proposal.kind === 'template'));
    if (!outlier?.s) return proposal;
    iris.push(outlier.s.value);
  }
  return WHOLE_IRI_HEX;
}

/** Rows grouped by their `?p`, in order: one pass, so that each predicate finds its rows at once. */
function byPredicate(rows: readonly Row[]): Map<string, Row[]> {
  const groups = new Map<string, Row[]>();
  for (const row of rows) {
    const p = row.p?.value;
    if (p === undefined) continue;
    const group = groups.get(p);
    if (group) group.push(row);
    else groups.set(p, [row]);
  }
  return groups;
}

function merge(a: Spread | undefined, b: Spread): Spread {
  return a === undefined ? b : { members: a.members + b.members, max: Math.max(a.max, b.max) };
}

/** A count the store answered; 0 when it is missing or not a number. */
function count(term: Term | undefined): number {
  const n = Number(term?.value);
  return Number.isFinite(n) ? n : 0;
}
