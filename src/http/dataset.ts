import type { Mapping } from '../mapping/model.js';
import type { Store } from '../store/store.js';

/** One published dataset: its mapping, its store, and where its links point. */
export interface Dataset {
  readonly name: string;
  readonly mapping: Mapping;
  readonly store: Store;
  /**
   * Prefix of every link the dataset's documents carry: `''` gives the spec's type-rooted paths
   * (`/trade-activities/5a3f`), an absolute base (`https://data.example.org/api/sample`) or a path
   * prefix is allowed too.
   */
  readonly linkBase: string;
}
