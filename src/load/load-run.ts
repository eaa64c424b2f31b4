import { isSafeAbsoluteIri } from '../mapping/iri.js';
import { LoadError, StoreClient } from './http.js';
import type { LoadFilesOptions, LoadResult } from './load-options.js';
import type { LoadProgress } from './progress.js';
import { guessGraphStoreUrl, type Protocol } from './protocol.js';
import { splitCredentials } from './redact.js';
import { graphName, type LoadMode, type StagedGraph } from './staging.js';

/** The reason `stop` is aborted with: the caller's signal. */
export const INTERRUPTED = Symbol('interrupted');
/** The reason `stop` is aborted with: a request failed. */
export const FAILED = Symbol('failed');
export const UPDATE = 'application/sparql-update';

/** The load was interrupted (its signal aborted) before its triples were moved into place. */
export class LoadInterrupted extends LoadError {
  constructor(message: string) {
    super(message);
    this.name = 'LoadInterrupted';
  }
}

/** One load under way: its settings, its store client, and what stops it; every step reads it. */
export interface LoadRun {
  readonly options: LoadFilesOptions;
  readonly mode: LoadMode;
  readonly client: StoreClient;
  /** The endpoint without credentials: updates and the counts go here. */
  readonly endpointUrl: string;
  /** The Graph Store URL given, or guessed (then tried once, SPARQL Update if it is not there). */
  readonly graphStoreUrl: string | undefined;
  readonly guessedGraphStore: boolean;
  readonly timeoutMs: number;
  readonly progressEvery: number;
  /** Aborted (with {@link INTERRUPTED} or {@link FAILED}): no new batch, no retry. */
  readonly stop: AbortController;
  /** Aborted: the requests in flight are cut. */
  readonly abort: AbortController;
  readonly elapsed: () => number;
  readonly notice: (text: string) => void;
  readonly report: (progress: LoadProgress) => void;
  /** The caller's signal stopped it. */
  readonly interrupted: () => boolean;
  /** A request over a whole staging graph (the move, its drop) gets 1 s more per 10,000 triples in it. */
  readonly scaledTimeout: (triples: number) => number;
  /** Stops listening to the caller's signal (once the move has begun, it is completed instead). */
  readonly release: () => void;
}

/** Validates the options, and sets up the client and the stop signals of a load. */
export function openRun(options: LoadFilesOptions): LoadRun {
  const started = performance.now();
  if (options.graph !== undefined && !isSafeAbsoluteIri(options.graph))
    throw new LoadError(`Graph ${options.graph} is not an absolute IRI`);
  const endpoint = splitCredentials(options.endpointUrl);
  const explicit = typeof options.graphStoreUrl === 'string' ? splitCredentials(options.graphStoreUrl) : undefined;
  const credentials =
    options.user !== undefined
      ? { user: options.user, password: options.password ?? '' }
      : (endpoint.credentials ?? explicit?.credentials);
  const timeoutMs = options.timeoutMs ?? 60_000;
  const notice = (text: string) => options.onNotice?.(text);
  const guessed = options.graphStoreUrl === undefined ? guessGraphStoreUrl(endpoint.url) : undefined;
  const stop = new AbortController();
  const interrupt = () => stop.abort(INTERRUPTED);
  options.signal?.addEventListener('abort', interrupt, { once: true });
  if (options.signal?.aborted) interrupt();
  return {
    options,
    mode: options.mode ?? 'append',
    client: new StoreClient(credentials, {
      timeoutMs,
      attempts: options.attempts ?? 3,
      retryDelayMs: options.retryDelayMs ?? 1_000,
      onRetry: (text) => notice(`retrying: ${text}`),
    }),
    endpointUrl: endpoint.url,
    graphStoreUrl: explicit?.url ?? guessed,
    guessedGraphStore: explicit === undefined && guessed !== undefined,
    timeoutMs,
    progressEvery: options.progressIntervalMs ?? 5_000,
    stop,
    abort: new AbortController(),
    elapsed: () => (performance.now() - started) / 1000,
    notice,
    report: (p) => options.onProgress?.(p),
    interrupted: () => stop.signal.reason === INTERRUPTED,
    scaledTimeout: (triples) => timeoutMs + Math.floor(triples / 10_000) * 1_000,
    release: () => options.signal?.removeEventListener('abort', interrupt),
  };
}

/** The result of a load that ended without the move (or before it), with what was sent. */
export function resultOf(
  run: LoadRun,
  staged: readonly StagedGraph[],
  triples: number,
  protocol: Protocol,
): LoadResult {
  return {
    triples,
    seconds: run.elapsed(),
    protocol,
    mode: run.mode,
    graphs: staged.map((g) => g.target),
    staged: run.options.staging ?? true,
    interruptedDuringMove: false,
    leftover: [],
  };
}

/** `<g>`, `the default graph`, or `<g1>, <g2>`. */
export const graphList = (graphs: readonly StagedGraph[]) => graphs.map((g) => graphName(g.target)).join(', ');

/** A timer calling `fn` every `ms` (none when 0), that does not keep the process alive. */
export function every(ms: number, fn: () => void): NodeJS.Timeout | undefined {
  return ms > 0 ? setInterval(fn, ms).unref() : undefined;
}
