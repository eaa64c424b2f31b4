import type { LoadProgress } from './progress.js';
import type { Protocol } from './protocol.js';
import type { LoadMode } from './staging.js';

export interface LoadFilesOptions {
  /** The SPARQL endpoint; SPARQL Update requests go here (it must accept them). May carry `user:password@`. */
  endpointUrl: string;
  /** Target named graph; without it, quads keep their own graph and triples go to the default graph. */
  graph?: string;
  /** `.ttl`, `.nt`, `.nq` or `.trig` files. */
  files: string[];
  user?: string;
  password?: string;
  /** Graph Store Protocol URL; undefined: guessed from the endpoint, tried once; false: always SPARQL Update. */
  graphStoreUrl?: string | false;
  /** Triples per request; default 1,000 for Update (Virtuoso fails above ~1,500) and 20,000 for the Graph Store Protocol. */
  batchTriples?: number;
  /** `append` (default): the target graphs keep their triples; `replace`: the files' triples replace them. */
  mode?: LoadMode;
  /**
   * Load into staging graphs and move them into place at the end (default true). Without: the
   * batches go straight to the target graphs (`replace` drops them first), which saves the move
   * (on Virtuoso about as long as the load itself) but leaves a failed or interrupted load half
   * written. The files are checked before the first write either way.
   */
  staging?: boolean;
  /** Time limit of each request, in ms (default 60,000); the final move gets 1 s more per 10,000 triples. */
  timeoutMs?: number;
  /** Attempts per request on a 5xx or a network failure, the first included (default 3). */
  attempts?: number;
  /** Backoff before the first retry, in ms, doubled before each further one (default 1,000). */
  retryDelayMs?: number;
  /**
   * Aborting it interrupts the load: before the move into place, the load stops, drops its staging
   * graphs and rejects with {@link LoadInterrupted}; once the move has begun, it is completed.
   */
  signal?: AbortSignal;
  /** Called every {@link progressIntervalMs} while checking, loading, moving and dropping, and once as the move begins. */
  onProgress?: (progress: LoadProgress) => void;
  /** Default 5,000; 0: after every batch stored (and never on a timer). */
  progressIntervalMs?: number;
  /** Things the user should know that are not progress: retries, interruption, a staging graph left behind or dropped. */
  onNotice?: (notice: string) => void;
  /**
   * Drop every staging graph of these targets that other loads left, even one a load on another
   * host may still be writing (default false: only those whose load on this host has ended).
   */
  cleanStaging?: boolean;
  /** Requests in flight at once; default 2, so parsing overlaps the store's work. */
  concurrency?: number;
  /**
   * Characters of N-Triples kept in memory from the check to the load, so that small files are
   * parsed once (default 32,000,000, about 32-64 MB); beyond that, the files are parsed again.
   */
  keepChars?: number;
}

export interface LoadResult {
  /** Triples sent to the store (it holds fewer when some repeat, or were there already). */
  triples: number;
  /**
   * What the target graphs hold after the load, and held before it: counted by the store, so
   * that repeated triples and triples already there are not counted as added. Undefined when the
   * store did not answer the count (an update-only endpoint).
   */
  held?: { before: number; after: number };
  seconds: number;
  protocol: Protocol;
  mode: LoadMode;
  /** The target graphs ({@link DEFAULT_GRAPH} for the default graph). */
  graphs: string[];
  /** Loaded through staging graphs (else straight into the targets). */
  staged: boolean;
  /** The signal was aborted once the move into place had begun, which was completed. */
  interruptedDuringMove: boolean;
  /** Staging graphs that could not be dropped after the move (the load itself is complete). */
  leftover: string[];
}
