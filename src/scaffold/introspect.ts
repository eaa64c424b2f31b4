import { MAX_DEPTH } from '../mapping/compile-attribute.js';
import { isSafeAbsoluteIri } from '../mapping/iri.js';
import { SH } from '../rdf/vocabulary.js';
import type { Row, Store } from '../store/store.js';
import { count, incomingStats, predicateStats } from './class-stats.js';
import { mostlyBlank } from './fields.js';
import { type IdProposal, proposeId, WHOLE_IRI_HEX } from './id-strategy.js';
import type { ClassStats, Introspection, PredicateStats } from './model.js';
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
  untypedObjectsQuery,
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
    classes.push(await describeClass({ ask, iri, size }, members));
  }
  return { classes, shapes, notes };
}

type Ask = (query: string) => Promise<Row[]>;

/** What the per-class queries are asked with: the class, its sample's size, and how to ask. */
interface ClassQuery {
  readonly ask: Ask;
  readonly iri: string;
  readonly size: number;
}

async function describeClass(q: ClassQuery, members: number): Promise<ClassStats> {
  const { ask, iri, size } = q;
  // The sample first, then independent queries about it, asked together: five at most, within any store's heavy lane and queue.
  const sampleIris = (await ask(membersQuery(iri, size))).flatMap((r) =>
    r.s && isSafeAbsoluteIri(r.s.value) ? [r.s.value] : [],
  );
  const [predicateRows, literalRows, objectRows, untypedRows, incomingRows] = await Promise.all([
    ask(predicatesQuery(sampleIris, ROW_LIMIT)),
    ask(literalsQuery(sampleIris, ROW_LIMIT)),
    ask(objectClassesQuery(sampleIris, ROW_LIMIT)),
    ask(untypedObjectsQuery(sampleIris, ROW_LIMIT)),
    ask(incomingQuery(sampleIris, ROW_LIMIT)),
  ]);
  const predicates = await withNodes(
    ask,
    { sample: sampleIris, path: [] },
    predicateStats({ predicateRows, literalRows, objectRows, untypedRows }),
  );
  const sampled = sampleIris.length;
  return {
    iri,
    members,
    sampled,
    id: await checkedId(ask, iri, sampleIris, await uuidSample(q, predicates, sampleIris)),
    predicates,
    incoming: incomingStats(incomingRows),
  };
}

/**
 * The predicates, each whose values are mostly blank nodes with the statistics of those nodes
 * (`nodes`): two queries per such predicate and level, at most {@link MAX_DEPTH} levels down (the
 * nodes' IRI values show as text, so the classes of IRIs are not asked for).
 */
async function withNodes(
  ask: Ask,
  { sample, path }: { readonly sample: readonly string[]; readonly path: readonly string[] },
  predicates: PredicateStats[],
): Promise<PredicateStats[]> {
  if (path.length === MAX_DEPTH) return predicates;
  const described: PredicateStats[] = [];
  // One predicate at a time: a class may have many, and the store's heavy lane queues only so many.
  for (const p of predicates) {
    if (!mostlyBlank(p)) {
      described.push(p);
      continue;
    }
    const subjects = { sample, path: [...path, p.iri] };
    const [predicateRows, literalRows] = await Promise.all([
      ask(predicatesQuery(subjects, ROW_LIMIT)),
      ask(literalsQuery(subjects, ROW_LIMIT)),
    ]);
    const nodes = predicateStats({ predicateRows, literalRows, objectRows: [], untypedRows: [] });
    described.push({ ...p, nodes: await withNodes(ask, subjects, nodes) });
  }
  return described;
}

/**
 * The values of a `mu:uuid`-like predicate (local name `uuid`, one literal on every sampled
 * member), when the class has one; `mu:uuid` itself first.
 */
async function uuidSample(
  q: ClassQuery,
  predicates: readonly PredicateStats[],
  sample: readonly string[],
): Promise<{ predicate: string; values: string[] } | undefined> {
  const candidates = predicates
    .filter(
      (p) =>
        /^uuid$/i.test(localName(p.iri)) && p.members === sample.length && p.max === 1 && p.literals === sample.length,
    )
    .sort((a, b) => Number(b.iri.startsWith('http://mu.semte.ch/')) - Number(a.iri.startsWith('http://mu.semte.ch/')));
  const predicate = candidates[0]?.iri;
  if (predicate === undefined) return undefined;
  const values = (await q.ask(valuesQuery(sample, predicate))).flatMap((r) => (r.v ? [r.v.value] : []));
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
    const [outlier] = await ask(outlierQuery(classIri, base, { hex: proposal.kind === 'template' }));
    if (!outlier?.s) return proposal;
    iris.push(outlier.s.value);
  }
  return WHOLE_IRI_HEX;
}
