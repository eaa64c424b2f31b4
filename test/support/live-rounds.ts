import type { Quad, Term } from '@rdfjs/types';
import { DataFactory, Writer } from 'n3';
import { ELOD, GR, MU, mulberry32, SKOS } from '../../scripts/generate.js';
import type { ChangeSet } from '../../src/live/delta-body.js';
import type { DeltaTerm, DeltaTriple } from '../../src/live/delta-triple.js';
import { RDF_TYPE, XSD } from '../../src/rdf/vocabulary.js';
import type { Store } from '../../src/store/store.js';

const { namedNode, literal, quad } = DataFactory;

const MU_UUID = `${MU}uuid`;
const TRADE_ACTIVITY = `${ELOD}TradeActivity`;
const CONCEPT = `${SKOS}Concept`;

/** A seeded PRNG: the same seed walks the same rounds. */
export const seededRandom = mulberry32;

/** One round: the triples it deletes and inserts (in the default graph of the writer's choice). */
export interface Change {
  readonly what: string;
  readonly deletes: readonly Quad[];
  readonly inserts: readonly Quad[];
}

/** The change as delta-notifier sends it (`resourceFormat: "v0.0.1"`), each triple naming `graph`. */
export function deltaOf(change: Change, graph: string | undefined): ChangeSet[] {
  const triple = (q: Quad): DeltaTriple => ({
    subject: deltaTerm(q.subject),
    predicate: deltaTerm(q.predicate),
    object: deltaTerm(q.object),
    ...(graph !== undefined && { graph: { type: 'uri', value: graph } }),
  });
  return [{ inserts: change.inserts.map(triple), deletes: change.deletes.map(triple) }];
}

function deltaTerm(term: Term): DeltaTerm {
  if (term.termType === 'NamedNode') return { type: 'uri', value: term.value };
  if (term.termType === 'BlankNode') return { type: 'bnode', value: term.value };
  if (term.termType !== 'Literal') throw new Error(`no delta term for ${term.termType}`);
  if (term.language) return { type: 'literal', value: term.value, 'xml:lang': term.language };
  if (term.datatype.value === `${XSD}string`) return { type: 'literal', value: term.value };
  return { type: 'typed-literal', value: term.value, datatype: term.datatype.value };
}

/** The SPARQL UPDATE that makes the change in `graph` (the default graph when absent). */
export function updateOf(change: Change, graph: string | undefined): string {
  const block = (quads: readonly Quad[]) => {
    const text = new Writer({ format: 'N-Triples' }).quadsToString([...quads]);
    return graph === undefined ? text : `GRAPH <${graph}> { ${text} }`;
  };
  return [
    ...(change.deletes.length ? [`DELETE DATA { ${block(change.deletes)} }`] : []),
    ...(change.inserts.length ? [`INSERT DATA { ${block(change.inserts)} }`] : []),
  ].join(';\n');
}

/**
 * Random changes to the sample data, of every kind a live store sees: members created and
 * deleted, sort keys changed (years across the whole histogram), labels in and out of English,
 * links added and removed on either end (`concerns`, `broader`/`narrower`), `rdf:type` removed and
 * given back, amounts changed, and triples no mapping reads. Each reads the current triples it
 * replaces from `store`, so that its deletes are exact.
 */
export class SampleChanges {
  private created = 0;
  private constructor(
    private readonly store: Store,
    private readonly random: () => number,
    private readonly activities: string[],
    private readonly concepts: string[],
    private readonly untyped: string[],
    private readonly ids: string[],
  ) {}

  static async open(store: Store, random: () => number): Promise<SampleChanges> {
    const members = async (cls: string) =>
      (await store.select(`SELECT DISTINCT ?s WHERE { ?s a <${cls}> } ORDER BY ?s`)).map((row) => row.s!.value);
    const ids = await store.select(`SELECT ?id WHERE { ?s a <${TRADE_ACTIVITY}> ; <${MU_UUID}> ?id } ORDER BY ?id`);
    const activities = await members(TRADE_ACTIVITY);
    return new SampleChanges(
      store,
      random,
      activities,
      await members(CONCEPT),
      [],
      ids.map((row) => row.id!.value),
    );
  }

  /** Every activity id the walk has known, deleted or untyped ones too (their URLs answer 404). */
  activityIds = (): readonly string[] => this.ids;

  conceptIds = (): string[] => this.concepts.map((iri) => iri.slice(iri.lastIndexOf('/') + 1));

  pick<T>(from: readonly T[]): T {
    return from[Math.floor(this.random() * from.length)]!;
  }

  async next(): Promise<Change> {
    const kinds = [
      () =>
        this.replace(this.pick(this.activities), `${ELOD}financialYear`, [
          literal(this.year(), namedNode(`${XSD}date`)),
        ]),
      () => this.replace(this.pick(this.concepts), `${SKOS}prefLabel`, [this.label()]),
      () => this.toggleLink(this.pick(this.activities), `${ELOD}concerns`, this.pick(this.concepts)),
      () => this.toggleLink(this.pick(this.concepts), `${SKOS}broader`, this.pick(this.concepts)),
      () => this.amount(),
      () => this.create(),
      () => this.remove(),
      () => this.retype(),
      () => this.toggleLink(this.pick(this.concepts), 'http://example.org/unmapped', this.pick(this.activities)),
    ];
    return this.pick(kinds)();
  }

  private year(): string {
    const year = 1990 + Math.floor(this.random() * 40);
    return `${year}-0${1 + Math.floor(this.random() * 9)}-01Z`;
  }

  private label(): Term {
    const text = `live ${'abcdefghij'[Math.floor(this.random() * 10)]}${Math.floor(this.random() * 100)}`;
    const language = this.pick(['en', 'en', 'el', 'en-gb', '']);
    return language ? literal(text, language) : literal(text);
  }

  private async current(subject: string, predicate: string): Promise<Quad[]> {
    const rows = await this.store.select(`SELECT ?o WHERE { <${subject}> <${predicate}> ?o }`);
    return rows.map((row) => quad(namedNode(subject), namedNode(predicate), row.o as Quad['object']));
  }

  private async replace(subject: string, predicate: string, objects: Term[]): Promise<Change> {
    const deletes = await this.current(subject, predicate);
    const inserts = objects.map((o) => quad(namedNode(subject), namedNode(predicate), o as Quad['object']));
    return { what: `replace <${predicate}> of <${subject}>`, deletes, inserts };
  }

  private async toggleLink(subject: string, predicate: string, object: string): Promise<Change> {
    const link = quad(namedNode(subject), namedNode(predicate), namedNode(object));
    const rows = await this.store.select(`SELECT ?x WHERE { <${subject}> <${predicate}> <${object}> BIND(1 AS ?x) }`);
    return rows.length
      ? { what: `unlink ${subject} ${predicate} ${object}`, deletes: [link], inserts: [] }
      : { what: `link ${subject} ${predicate} ${object}`, deletes: [], inserts: [link] };
  }

  private async amount(): Promise<Change> {
    const rows = await this.store.select(`SELECT ?a WHERE { <${this.pick(this.activities)}> <${ELOD}amount> ?a }`);
    const target = rows[0]?.a?.value;
    if (!target) return this.create();
    const value = (this.random() * 100_000).toFixed(2);
    return this.replace(target, `${GR}hasCurrencyValue`, [literal(value, namedNode(`${XSD}decimal`))]);
  }

  private create(): Change {
    const id = `live-${++this.created}-${Math.floor(this.random() * 1e6)}`;
    const subject = namedNode(`http://linkedeconomy.org/resource/TradeActivity/${id}`);
    this.activities.push(subject.value);
    this.ids.push(id);
    const inserts = [
      quad(subject, namedNode(RDF_TYPE), namedNode(TRADE_ACTIVITY)),
      quad(subject, namedNode(MU_UUID), literal(id)),
      quad(subject, namedNode(`${ELOD}financialYear`), literal(this.year(), namedNode(`${XSD}date`))),
      quad(subject, namedNode(`${ELOD}concerns`), namedNode(this.pick(this.concepts))),
    ];
    return { what: `create ${subject.value}`, deletes: [], inserts };
  }

  private async remove(): Promise<Change> {
    if (this.activities.length < 6) return this.create();
    const index = Math.floor(this.random() * this.activities.length);
    const subject = this.activities.splice(index, 1)[0]!;
    const rows = await this.store.select(`SELECT ?p ?o WHERE { <${subject}> ?p ?o }`);
    const deletes = rows.map((row) => quad(namedNode(subject), row.p as Quad['predicate'], row.o as Quad['object']));
    return { what: `delete ${subject}`, deletes, inserts: [] };
  }

  /** Takes `rdf:type` from an activity (it leaves its lists), or gives one back. */
  private retype(): Change {
    const giveBack = this.untyped.length > 0 && (this.random() < 0.5 || this.activities.length < 6);
    if (giveBack) {
      const subject = this.untyped.pop()!;
      this.activities.push(subject);
      const typed = quad(namedNode(subject), namedNode(RDF_TYPE), namedNode(TRADE_ACTIVITY));
      return { what: `retype ${subject}`, deletes: [], inserts: [typed] };
    }
    const index = Math.floor(this.random() * this.activities.length);
    const subject = this.activities.splice(index, 1)[0]!;
    this.untyped.push(subject);
    const typed = quad(namedNode(subject), namedNode(RDF_TYPE), namedNode(TRADE_ACTIVITY));
    return { what: `untype ${subject}`, deletes: [typed], inserts: [] };
  }
}
