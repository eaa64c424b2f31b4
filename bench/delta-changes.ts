import type { Literal, NamedNode, Quad } from '@rdfjs/types';
import { DataFactory } from 'n3';
import { ELOD, GR, MU, SKOS } from '../scripts/generate.js';
import { XSD } from '../src/rdf/vocabulary.js';
import type { Store } from '../src/store/store.js';
import type { Change } from '../test/support/live-rounds.js';

const { namedNode, literal, quad } = DataFactory;

const TRADE_ACTIVITY = `${ELOD}TradeActivity`;
const FINANCIAL_YEAR = namedNode(`${ELOD}financialYear`);
const CONCERNS = namedNode(`${ELOD}concerns`);
const VALUE = namedNode(`${GR}hasCurrencyValue`);
const PREF_LABEL = namedNode(`${SKOS}prefLabel`);

/**
 * What one changed trade activity gets: a new financial year (the default order and the year
 * sort), a new amount value (the `amount.value` sort), a new English label of one of its
 * concepts (`sort=concerns.label`, `include=concerns`, related concepts), or one `concerns` link
 * moved to another concept (linkage, related lists, includes).
 */
export const CHANGE_KINDS = ['year', 'amount', 'label', 'link'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** One delta message's worth of changes: the triples, and the kind of each activity's change. */
export interface Message {
  readonly change: Change;
  readonly kinds: readonly ChangeKind[];
}

/** Most and fewest trade activities one message changes. */
const FEWEST = 2;
const MOST = 5;

/**
 * The changes of the `--deltas` bench: each message changes 2–5 distinct trade activities, one
 * of them among those the bench's shapes show (so their documents really change), the others
 * anywhere in the dataset, each by one of {@link CHANGE_KINDS}. Every change reads the triples it
 * replaces first, so its deletes are exact, as delta-notifier's would be.
 *
 * @example const changes = await ActivityChanges.open(store, seededRandom(1), 70_000, ids); const { change } = await changes.message();
 */
export class ActivityChanges {
  private labels = 0;
  private constructor(
    private readonly store: Store,
    private readonly random: () => number,
    private readonly activities: number,
    private readonly shown: readonly string[],
    private readonly concepts: readonly string[],
  ) {}

  /** Reads the concepts, and the IRIs of the activities whose mu:uuid is in `shownIds`. */
  static async open(
    store: Store,
    random: () => number,
    activities: number,
    shownIds: readonly string[],
  ): Promise<ActivityChanges> {
    const values = shownIds.map((id) => JSON.stringify(id)).join(' ');
    const shown = await store.select(
      `SELECT ?s WHERE { VALUES ?id { ${values} } ?s <${MU}uuid> ?id ; a <${TRADE_ACTIVITY}> }`,
    );
    const concepts = await store.select(`SELECT ?c WHERE { ?c a <${SKOS}Concept> }`);
    return new ActivityChanges(
      store,
      random,
      activities,
      shown.map((row) => row.s!.value),
      concepts.map((row) => row.c!.value),
    );
  }

  /** The next message: its activities' changes joined into one change set. */
  async message(): Promise<Message> {
    const count = FEWEST + Math.floor(this.random() * (MOST - FEWEST + 1));
    const subjects = new Set([this.pick(this.shown)]);
    while (subjects.size < count)
      subjects.add(
        `http://linkedeconomy.org/resource/TradeActivity/${1 + Math.floor(this.random() * this.activities)}`,
      );
    // Two activities may share a concept: its label is changed once.
    const relabelled = new Set<string>();
    const changes = await Promise.all(
      [...subjects].map(async (subject) => this.change(subject, this.pick(CHANGE_KINDS), relabelled)),
    );
    return {
      change: {
        what: changes.map((c) => c.what).join('; '),
        deletes: changes.flatMap((c) => c.deletes),
        inserts: changes.flatMap((c) => c.inserts),
      },
      kinds: changes.map((c) => c.kind),
    };
  }

  private pick<T>(from: readonly T[]): T {
    return from[Math.floor(this.random() * from.length)]!;
  }

  private async change(
    subject: string,
    kind: ChangeKind,
    relabelled: Set<string>,
  ): Promise<Change & { kind: ChangeKind }> {
    const s = namedNode(subject);
    const rows = await this.store.select(
      `SELECT ?year ?amount ?value ?concept ?label WHERE {
        { <${subject}> <${FINANCIAL_YEAR.value}> ?year }
        UNION { <${subject}> <${ELOD}amount> ?amount . ?amount <${VALUE.value}> ?value }
        UNION { <${subject}> <${CONCERNS.value}> ?concept
                OPTIONAL { ?concept <${PREF_LABEL.value}> ?label FILTER(lang(?label) = "en") } } }`,
    );
    const column = (name: string) => rows.flatMap((row) => (row[name] ? [row[name]!] : []));
    const concerned = [...new Set(column('concept').map((c) => c.value))];
    const replace = (on: NamedNode, predicate: NamedNode, old: readonly Quad['object'][], value: Literal) => ({
      deletes: old.map((o) => quad(on, predicate, o)),
      inserts: [quad(on, predicate, value)],
    });
    const label = kind === 'label' ? concerned.find((c) => !relabelled.has(c)) : undefined;
    if (kind === 'label' && label !== undefined) {
      relabelled.add(label);
      const old = rows.filter((row) => row.concept?.value === label && row.label).map((row) => row.label!);
      const text = literal(`bench label ${++this.labels} ${Math.floor(this.random() * 1e6)}`, 'en');
      return { kind, what: `label of ${label}`, ...replace(namedNode(label), PREF_LABEL, old as Literal[], text) };
    }
    const amount = column('amount')[0];
    if (kind === 'amount' && amount) {
      const value = literal((this.random() * 10_000_000).toFixed(2), namedNode(`${XSD}decimal`));
      return {
        kind,
        what: `amount of ${subject}`,
        ...replace(amount as NamedNode, VALUE, column('value') as Literal[], value),
      };
    }
    if (kind === 'link') {
      const to = namedNode(this.pick(this.concepts.filter((c) => !concerned.includes(c))));
      const from = concerned[0];
      return {
        kind,
        what: `concerns of ${subject}`,
        deletes: from === undefined ? [] : [quad(s, CONCERNS, namedNode(from))],
        inserts: [quad(s, CONCERNS, to)],
      };
    }
    // A year, and what a label or amount change falls back to when the activity has neither.
    const year = literal(`${2008 + Math.floor(this.random() * 13)}-01-01Z`, namedNode(`${XSD}date`));
    return {
      kind: 'year',
      what: `year of ${subject}`,
      ...replace(s, FINANCIAL_YEAR, column('year') as Literal[], year),
    };
  }
}
