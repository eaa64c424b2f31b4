import type { Freshness } from '../cache/freshness.js';
import { isResourceKey } from '../cache/resource-key.js';
import type { ResponseCache } from '../cache/response-cache.js';
import type { WindowCache } from '../cache/window-cache.js';
import type { Dataset } from '../dataset.js';
import { type ChangeRule, type ChangeRules, changeRules } from './change-rules.js';
import type { ChangeSet } from './delta-body.js';
import type { DeltaMetrics, DropReason } from './delta-metrics.js';

/** What one delta message did to one dataset. */
export interface DatasetEffect {
  readonly dataset: string;
  /** Triples by the rule they fell under. */
  readonly rules: Partial<Record<ChangeRule, number>>;
  /** IRIs marked as changed. */
  readonly iris: number;
  /** Entries dropped from each cache. */
  readonly dropped: { readonly response: number; readonly window: number };
}

/**
 * Turns changes (delta messages, reloads) into dropped cache entries, synchronously: when
 * {@link LiveData.apply} returns, no cache of any dataset holds or will store an answer that read
 * a changed IRI before the change (`Freshness`), so the listener may answer 2xx.
 *
 * @example new LiveData(datasets, freshness, { response, window }, deltaMetrics).apply(changeSets)
 */
export class LiveData {
  private readonly rules: ReadonlyMap<string, ChangeRules>;

  constructor(
    datasets: readonly Dataset[],
    private readonly freshness: Freshness,
    private readonly caches: { readonly response: ResponseCache; readonly window: WindowCache },
    private readonly metrics: DeltaMetrics,
  ) {
    this.rules = new Map(datasets.map((d) => [d.name, changeRules(d.mapping, d.graph)]));
  }

  /** Marks what the change sets' triples can change, in every dataset, and drops the entries that read it. */
  apply(changeSets: readonly ChangeSet[]): DatasetEffect[] {
    return [...this.rules].map(([dataset, rules]) => {
      const counts: Partial<Record<ChangeRule, number>> = {};
      const iris = new Set<string>();
      // The subjects each marked predicate or class changed of (null: one can't be told), for the
      // window cache's patches (`Freshness.changedSubjects`); resource keys name theirs already.
      const subjects = new Map<string, Set<string> | null>();
      for (const { inserts, deletes } of changeSets)
        for (const triple of [...inserts, ...deletes]) {
          const effect = rules.effect(triple);
          counts[effect.rule] = (counts[effect.rule] ?? 0) + 1;
          const subject = triple.subject.type === 'uri' ? triple.subject.value : null;
          for (const iri of effect.iris) {
            iris.add(iri);
            if (isResourceKey(iri)) continue;
            const known = subjects.get(iri);
            if (subject === null) subjects.set(iri, null);
            else if (known === undefined) subjects.set(iri, new Set([subject]));
            else known?.add(subject);
          }
        }
      for (const [rule, count] of Object.entries(counts)) this.metrics.triplesUnder(rule, count);
      if (iris.size === 0) return { dataset, rules: counts, iris: 0, dropped: { response: 0, window: 0 } };
      this.freshness.changed(dataset, iris, subjects);
      return { dataset, rules: counts, iris: iris.size, dropped: this.dropStale(dataset, 'delta') };
    });
  }

  /** Drops every entry of every dataset (`reason` says why). */
  dropWhole(reason: DropReason): void {
    for (const dataset of this.rules.keys()) {
      this.freshness.changedWhole(dataset);
      this.dropStale(dataset, reason);
      this.metrics.droppedWhole(dataset, reason);
    }
  }

  private dropStale(dataset: string, reason: DropReason) {
    const dropped = {
      response: this.caches.response.dropStale(dataset),
      window: this.caches.window.dropStale(dataset),
    };
    this.metrics.droppedEntries('response', reason, dropped.response);
    this.metrics.droppedEntries('window', reason, dropped.window);
    return dropped;
  }
}
