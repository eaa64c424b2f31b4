/**
 * What a cached answer needs to stay true: the dataset it came from, the IRIs (predicates and
 * classes) its queries read, and the moment its reading started ({@link Freshness.now}).
 */
export interface Reading {
  readonly dataset: string;
  readonly reads: readonly string[];
  readonly stamp: number;
}

/**
 * The ledger the caches check their entries against: for each dataset, when each IRI last changed
 * (a delta named it) and when the dataset last changed whole. One clock counts every change; an
 * entry whose reading started at or after every change of what it read is fresh. A reading that
 * started before a change is stale even if it is stored after the change was announced: so a
 * request racing a delta can never keep its old answer (the entry fails its next check).
 *
 * @example
 * const freshness = new Freshness();
 * const stamp = freshness.now();              // before the store is asked
 * freshness.changed('sample', ['http://purl.org/dc/terms/title']);
 * freshness.fresh({ dataset: 'sample', reads: ['http://purl.org/dc/terms/title'], stamp }); // false
 */
export class Freshness {
  /**
   * @param maxChanges How many changed IRIs and resource keys a dataset's ledger remembers; past
   *   it the older half is forgotten, and readings older than what was forgotten count as stale.
   * @param maxSubjects How many recent changes of one IRI the ledger remembers the subject of
   *   ({@link changedSubjects}); past it the older half is forgotten, and "which subjects changed"
   *   since before them is unknown.
   */
  constructor(
    private readonly maxChanges = 100_000,
    private readonly maxSubjects = 10_000,
  ) {}

  private clock = 0;
  private readonly changes = new Map<string, Map<string, number>>();
  private readonly wholeChanges = new Map<string, number>();
  /** Per dataset and IRI, the subjects of its recent changes (see {@link SubjectLog}). */
  private readonly subjects = new Map<string, Map<string, SubjectLog>>();

  /** The moment to stamp a reading with: take it before asking the store. */
  now(): number {
    return this.clock;
  }

  /**
   * Records that these IRIs' triples changed in `dataset`. `subjects` says, for some of them, the
   * subjects of the changed triples (`null`: a subject that can't be told, a blank node); for any
   * other IRI of `iris` that the ledger logs subjects of, which subjects changed is unknown from
   * now on back.
   */
  changed(dataset: string, iris: Iterable<string>, subjects?: ReadonlyMap<string, ReadonlySet<string> | null>): void {
    const at = ++this.clock;
    let changes = this.changes.get(dataset);
    if (!changes) this.changes.set(dataset, (changes = new Map()));
    let logs = this.subjects.get(dataset);
    if (!logs) this.subjects.set(dataset, (logs = new Map()));
    // Kept in the order they last changed, the oldest first, for forget().
    for (const iri of iris) {
      changes.delete(iri);
      changes.set(iri, at);
      const told = subjects?.get(iri);
      let log = logs.get(iri);
      if (told === undefined) {
        // No log yet: changedSubjects answers "unknown" for an IRI without one.
        if (log) log.unknownUntil = at;
        continue;
      }
      if (!log) logs.set(iri, (log = { entries: [], unknownUntil: 0 }));
      if (told === null) log.unknownUntil = at;
      else for (const subject of told) log.entries.push({ at, subject });
      if (log.entries.length > this.maxSubjects) {
        // The older half goes; what changed before the last of it is unknown.
        const forgotten = log.entries.splice(0, log.entries.length - Math.floor(this.maxSubjects / 2));
        log.unknownUntil = Math.max(log.unknownUntil, forgotten.at(-1)!.at);
      }
    }
    if (changes.size > this.maxChanges) this.forget(dataset, changes);
  }

  /**
   * The subjects of the triples of `iri` (a predicate, or a class: the subjects typed with it)
   * that changed in `dataset` after `since` (a reading's stamp); `undefined` when the ledger can't
   * tell: a blank node subject, more changes than it keeps, an IRI whose subjects were not given,
   * or a whole change since. Over-answering is allowed (a subject may be named when its change
   * undid itself), under-answering never.
   *
   * @example freshness.changedSubjects('sample', 'http://data.europa.eu/eli/ontology#financialYear', stamp) // Set { 'http://…/activity/1' }
   */
  changedSubjects(dataset: string, iri: string, since: number): ReadonlySet<string> | undefined {
    if ((this.wholeChanges.get(dataset) ?? 0) > since) return undefined;
    if ((this.changes.get(dataset)?.get(iri) ?? 0) <= since) return new Set();
    const log = this.subjects.get(dataset)?.get(iri);
    if (!log || log.unknownUntil > since) return undefined;
    const { entries } = log;
    // The first entry after `since` (entries are in the order of their time).
    let low = 0;
    let high = entries.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (entries[middle]!.at > since) high = middle;
      else low = middle + 1;
    }
    return new Set(entries.slice(low).map((entry) => entry.subject));
  }

  /** The IRIs `reading` read that changed since it started; `undefined` when its dataset changed whole since. */
  staleReads(reading: Reading): string[] | undefined {
    if ((this.wholeChanges.get(reading.dataset) ?? 0) > reading.stamp) return undefined;
    const changes = this.changes.get(reading.dataset);
    return changes ? reading.reads.filter((iri) => (changes.get(iri) ?? 0) > reading.stamp) : [];
  }

  /**
   * Bounds a dataset's ledger (resource keys grow with the resources that change): forgets its
   * older half, as if the dataset had changed whole when the last forgotten key changed, so that
   * a reading that may have read one of them is stale.
   */
  private forget(dataset: string, changes: Map<string, number>): void {
    let floor = 0;
    for (const [iri, at] of changes) {
      if (changes.size <= this.maxChanges / 2) break;
      changes.delete(iri);
      floor = at;
    }
    this.wholeChanges.set(dataset, Math.max(this.wholeChanges.get(dataset) ?? 0, floor));
  }

  /** Records that anything in `dataset` may have changed. */
  changedWhole(dataset: string): void {
    this.wholeChanges.set(dataset, ++this.clock);
    // Every reading older than this is stale now; the older per-IRI marks say nothing more.
    this.changes.delete(dataset);
    this.subjects.delete(dataset);
  }

  /** Whether nothing `reading` read has changed since it started. */
  fresh(reading: Reading): boolean {
    if ((this.wholeChanges.get(reading.dataset) ?? 0) > reading.stamp) return false;
    const changes = this.changes.get(reading.dataset);
    if (!changes) return true;
    for (const iri of reading.reads) if ((changes.get(iri) ?? 0) > reading.stamp) return false;
    return true;
  }

  /** The keys of `entries` (a cache's, listed before any is deleted) whose readings in `dataset` went stale. */
  staleKeys<K>(dataset: string, entries: Iterable<readonly [K, { readonly reading: Reading }]>): K[] {
    const stale: K[] = [];
    for (const [key, { reading }] of entries) if (reading.dataset === dataset && !this.fresh(reading)) stale.push(key);
    return stale;
  }
}

/**
 * The recent changes of one IRI with their subjects, oldest first, and the time up to which the
 * subjects are not known (a change whose subject was not told, or older entries forgotten).
 */
interface SubjectLog {
  readonly entries: { readonly at: number; readonly subject: string }[];
  unknownUntil: number;
}
