import type { Term } from '@rdfjs/types';
import { isSafeAbsoluteIri } from '../mapping/iri.js';
import type { Row, Store } from '../store/store.js';
import { type IdProposal, proposeId } from './id-strategy.js';
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

const SH = 'http://www.w3.org/ns/shacl#';
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
  const sampleIris = (await ask(membersQuery(iri, size))).flatMap((r) => (r.s ? [r.s.value] : []));
  const [predicateRows, literalRows, objectRows, incomingRows] = [
    await ask(predicatesQuery(iri, size, ROW_LIMIT)),
    await ask(literalsQuery(iri, size, ROW_LIMIT)),
    await ask(objectClassesQuery(iri, size, ROW_LIMIT)),
    await ask(incomingQuery(iri, size, ROW_LIMIT)),
  ];
  const predicates = predicateRows
    .filter((r) => r.p && isSafeAbsoluteIri(r.p.value))
    .map((r): PredicateStats => {
      const p = r.p!.value;
      const datatypes: Record<string, Spread> = {};
      const languages: Record<string, Spread> = {};
      for (const l of literalRows.filter((l) => l.p?.value === p)) {
        const tag = (l.language?.value ?? '').toLowerCase();
        const spread = { members: count(l.members), max: count(l.max) };
        if (tag !== '') languages[tag] = merge(languages[tag], spread);
        else if (l.datatype) datatypes[l.datatype.value] = merge(datatypes[l.datatype.value], spread);
      }
      const objectClasses: Record<string, number> = {};
      for (const o of objectRows.filter((o) => o.p?.value === p))
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
    if (proposal.kind === 'predicate') return proposal;
    const base = proposal.kind === 'template' ? proposal.prefix : proposal.base;
    if (base === '') return proposal;
    const [outlier] = await ask(outlierQuery(classIri, base, proposal.kind === 'template'));
    if (!outlier?.s) return proposal;
    iris.push(outlier.s.value);
  }
  return { kind: 'hex', base: '', why: 'member IRIs share no namespace: the id is the hex of the whole IRI' };
}

function merge(a: Spread | undefined, b: Spread): Spread {
  return a === undefined ? b : { members: a.members + b.members, max: Math.max(a.max, b.max) };
}

/** A count the store answered; 0 when it is missing or not a number. */
function count(term: Term | undefined): number {
  const n = Number(term?.value);
  return Number.isFinite(n) ? n : 0;
}
