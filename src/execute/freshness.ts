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
   */
  constructor(private readonly maxChanges = 100_000) {}

  private clock = 0;
  private readonly changes = new Map<string, Map<string, number>>();
  private readonly wholeChanges = new Map<string, number>();

  /** The moment to stamp a reading with: take it before asking the store. */
  now(): number {
    return this.clock;
  }

  /** Records that these IRIs' triples changed in `dataset`. */
  changed(dataset: string, iris: Iterable<string>): void {
    const at = ++this.clock;
    let changes = this.changes.get(dataset);
    if (!changes) this.changes.set(dataset, (changes = new Map()));
    // Kept in the order they last changed, the oldest first, for forget().
    for (const iri of iris) {
      changes.delete(iri);
      changes.set(iri, at);
    }
    if (changes.size > this.maxChanges) this.forget(dataset, changes);
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
