import { isSafeAbsoluteIri } from '../mapping/iri.js';
import { Batch, type BlankTriple, packBlankTriples } from './batch.js';
import { isJenaGraphMoveRefusal, LoadError, NoAnswerError, type RequestPolicy, StoreClient } from './http.js';
import type { LoadProgress } from './progress.js';
import { guessGraphStoreUrl, type Protocol, refusalError, sendBatch } from './protocol.js';
import { splitCredentials } from './redact.js';
import {
  type CheckedFiles,
  type CheckProgress,
  checkFiles,
  checkReadable,
  DEFAULT_GRAPH,
  readTriples,
} from './source.js';
import {
  clearUpdate,
  commitUpdate,
  dropUpdate,
  graphName,
  isVirtuosoLogLimit,
  type LoadMode,
  patternMoveUpdate,
  preflightUpdate,
  type StagedGraph,
  stagingGraphIri,
  virtuosoRowByRow,
} from './staging.js';

export type { LoadProgress } from './progress.js';
export type { LoadMode } from './staging.js';

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
  /** Things the user should know that are not progress: retries, interruption, a staging graph left behind. */
  onNotice?: (notice: string) => void;
  /** Requests in flight at once; default 2, so parsing overlaps the store's work. */
  concurrency?: number;
  /**
   * Characters of N-Triples kept in memory from the check to the load, so that small files are
   * parsed once (default 32,000,000, about 32-64 MB); beyond that, the files are parsed again.
   */
  keepChars?: number;
}

export interface LoadResult {
  /** Triples sent to the store (it holds fewer when some repeat). */
  triples: number;
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

/** The load was interrupted (its signal aborted) before its triples were moved into place. */
export class LoadInterrupted extends LoadError {
  constructor(message: string) {
    super(message);
    this.name = 'LoadInterrupted';
  }
}

const INTERRUPTED = Symbol('interrupted');
const FAILED = Symbol('failed');
const UPDATE = 'application/sparql-update';

/** `<g>`, `the default graph`, or `<g1>, <g2>`. */
const graphList = (graphs: readonly StagedGraph[]) => graphs.map((g) => graphName(g.target)).join(', ');

/**
 * Loads RDF files into a SPARQL 1.1 store over standard protocols, all or nothing:
 *
 * 1. every file is parsed to the end, nothing sent yet: a syntax error rejects, naming file and
 *    line (the triples are kept in memory up to `keepChars`, else the files are parsed again in 3);
 * 2. one update that changes nothing checks that the store takes updates into the target graphs;
 * 3. the triples are sent in batches into fresh staging graphs (`urn:sparql-jsonapi:staging:<uuid>`),
 *    one per target graph, a few requests in flight while the next batch is made;
 * 4. one update moves them into place (ADD to append, COPY to replace), then they are dropped.
 *
 * A failure or interruption before step 4 drops the staging graphs and leaves the targets as they
 * were. Each request has a time limit and is retried with backoff on a 5xx or a network failure.
 * With `staging: false`, step 3 writes into the targets (`replace` drops them in step 2) and
 * step 4 is skipped. Rejects with a {@link LoadError} (a message for the user), or
 * {@link LoadInterrupted} when `signal` stopped it.
 */
export async function loadFiles(options: LoadFilesOptions): Promise<LoadResult> {
  const started = performance.now();
  const elapsed = () => (performance.now() - started) / 1000;
  const mode = options.mode ?? 'append';
  if (options.graph !== undefined && !isSafeAbsoluteIri(options.graph)) {
    throw new LoadError(`Graph ${options.graph} is not an absolute IRI`);
  }
  await checkReadable(options.files);
  const endpoint = splitCredentials(options.endpointUrl);
  const explicitGsp = typeof options.graphStoreUrl === 'string' ? splitCredentials(options.graphStoreUrl) : undefined;
  const credentials =
    options.user !== undefined
      ? { user: options.user, password: options.password ?? '' }
      : (endpoint.credentials ?? explicitGsp?.credentials);
  const timeoutMs = options.timeoutMs ?? 60_000;
  const notice = (text: string) => options.onNotice?.(text);
  const client = new StoreClient(credentials, {
    timeoutMs,
    attempts: options.attempts ?? 3,
    retryDelayMs: options.retryDelayMs ?? 1_000,
    onRetry: (text) => notice(`retrying: ${text}`),
  });
  // A request over a whole staging graph (the move, its drop) gets 1 s more per 10,000 triples in it.
  const scaledTimeout = (triples: number) => timeoutMs + Math.floor(triples / 10_000) * 1_000;
  const progressEvery = options.progressIntervalMs ?? 5_000;
  const report = (p: LoadProgress) => options.onProgress?.(p);

  // The signal stops the load (no new batch, no retry); `abort` then cuts the requests in flight.
  const stop = new AbortController();
  const abort = new AbortController();
  const interrupt = () => stop.abort(INTERRUPTED);
  options.signal?.addEventListener('abort', interrupt, { once: true });
  if (options.signal?.aborted) interrupt();
  const interrupted = () => stop.signal.reason === INTERRUPTED;
  try {
    // 1. Check every file.
    let phaseStart = elapsed();
    let checking: CheckProgress = { file: options.files[0]!, triples: 0, bytes: 0, totalBytes: 0 };
    let checked: CheckedFiles;
    const checkTimer = every(progressEvery, () =>
      report({ phase: 'checking', ...checking, seconds: elapsed() - phaseStart }),
    );
    try {
      checked = await checkFiles(options.files, options.graph, {
        stop: stop.signal,
        progress: (p) => (checking = p),
        keepChars: options.keepChars ?? 32_000_000,
      });
    } catch (error) {
      if (error === INTERRUPTED) throw new LoadInterrupted('interrupted while checking the files: nothing was written');
      throw error;
    } finally {
      clearInterval(checkTimer);
    }
    const targets = options.graph !== undefined ? [options.graph] : [...checked.graphs.keys()];
    const staging = options.staging ?? true;
    const staged: StagedGraph[] = targets.map((target) => ({
      target,
      staging: staging ? stagingGraphIri() : target,
      triples: checked.graphs.get(target) ?? 0,
    }));
    const result = (triples: number, protocol: Protocol): LoadResult => ({
      triples,
      seconds: elapsed(),
      protocol,
      mode,
      graphs: targets,
      staged: staging,
      interruptedDuringMove: false,
      leftover: [],
    });
    const explicit = explicitGsp?.url;
    const guessed = options.graphStoreUrl === undefined ? guessGraphStoreUrl(endpoint.url) : undefined;
    let protocol: Protocol = (explicit ?? guessed) ? 'graph-store' : 'update';
    if (checked.triples === 0 && mode === 'append') return result(0, protocol);

    // 2. The store takes updates into these graphs: asked with an update that changes nothing.
    // Without staging, only --replace sends an update (the drop of the targets) before the data.
    const first = staging ? preflightUpdate(staged) : mode === 'replace' ? clearUpdate(staged) : undefined;
    const preflight = await (first === undefined
      ? Promise.resolve(undefined)
      : client.post(endpoint.url, first, UPDATE, { stop: stop.signal, abort: abort.signal })
    ).catch((error: unknown) => {
      if (interrupted()) throw new LoadInterrupted('interrupted before loading: nothing was written');
      if (error instanceof LoadError) throw new LoadError(`${error.message}; nothing was written`);
      throw error;
    });
    if (preflight) {
      const error = refusalError('update', endpoint.url, preflight);
      const defaultGraph = targets.includes(DEFAULT_GRAPH) && preflight.status < 500;
      const hint = defaultGraph
        ? ' (the store takes no updates into its default graph: give --graph IRI to load into a named graph)'
        : '';
      throw new LoadError(`${error.message}${hint}; nothing was written`, preflight.status);
    }
    if (interrupted()) {
      const emptied =
        first !== undefined && !staging ? `${graphList(staged)} was emptied (--replace --no-staging), ` : '';
      throw new LoadInterrupted(`interrupted before loading: ${emptied}nothing was written`);
    }

    // 3. Stream the triples into the staging graphs (or, without staging, into the targets).
    const stagingOf = new Map(staged.map((g) => [g.target, g.staging]));
    let probing = !explicit && guessed !== undefined;
    // While probing a guessed Graph Store URL the batch must also fit an INSERT DATA, for the fallback.
    const batchSize = () => options.batchTriples ?? (protocol === 'update' || probing ? 1_000 : 20_000);
    const policy: Partial<RequestPolicy> = { stop: stop.signal, abort: abort.signal };
    let stored = 0;
    let currentFile = options.files[0]!;
    phaseStart = elapsed();
    const loading = (): LoadProgress => ({
      phase: 'loading',
      file: currentFile,
      triples: stored,
      totalTriples: checked.triples,
      seconds: elapsed() - phaseStart,
    });

    const send = async (batch: Batch): Promise<void> => {
      let sent = await sendBatch(
        client,
        protocol,
        protocol === 'update' ? endpoint.url : (explicit ?? guessed)!,
        batch,
        policy,
      );
      if (probing) {
        probing = false;
        // The guessed Graph Store URL does not exist on this store: use SPARQL Update from now on.
        if (sent.refusal && [404, 405, 415].includes(sent.refusal.status)) {
          protocol = 'update';
          sent = await sendBatch(client, protocol, endpoint.url, batch, policy);
        }
      }
      if (sent.refusal) throw refusalError(protocol, sent.url, sent.refusal);
      stored += batch.size;
      if (progressEvery === 0) report(loading());
    };

    // A few requests in flight while the parser fills the next batch; the first failure stops the load.
    const pending = new Set<Promise<void>>();
    let failure: unknown;
    const check = () => {
      if (failure !== undefined) throw failure;
      if (stop.signal.aborted) throw stop.signal.reason;
    };
    const submit = async (batch: Batch): Promise<void> => {
      // While the guessed Graph Store URL is on trial, nothing else is sent.
      while (pending.size >= (probing ? 1 : (options.concurrency ?? 2))) await Promise.race(pending);
      check();
      const request: Promise<void> = send(batch).then(
        () => void pending.delete(request),
        (error: unknown) => {
          pending.delete(request);
          if (failure === undefined && !stop.signal.aborted) {
            failure = error;
            stop.abort(FAILED); // the other requests in flight are not retried
          }
        },
      );
      pending.add(request);
    };

    const loadTimer = every(progressEvery, () => report(loading()));
    try {
      for (const [index, file] of options.files.entries()) {
        currentFile = file;
        const blankTriples: BlankTriple[] = [];
        let batch = new Batch();
        for await (const triple of checked.kept?.[index] ?? readTriples(file, index, options.graph)) {
          if (stop.signal.aborted) check();
          const graph = stagingOf.get(triple.graph)!;
          if (triple.blanks) {
            // Held back to the end of the file (see packBlankTriples): these are kept in memory.
            blankTriples.push({ graph, line: triple.line, labels: triple.blanks });
            continue;
          }
          batch.add(graph, triple.line);
          if (batch.size >= batchSize()) {
            await submit(batch);
            batch = new Batch();
          }
        }
        if (batch.size > 0) await submit(batch);
        for (const blankBatch of packBlankTriples(blankTriples, batchSize())) await submit(blankBatch);
      }
      await Promise.all(pending);
      check();
    } catch (error) {
      if (!stop.signal.aborted) stop.abort(FAILED);
      const cause = failure ?? error;
      // Requests in flight get a moment to finish, so that none lands after the drop below.
      await settle(pending, Math.min(timeoutMs, 10_000), abort);
      let outcome: string;
      if (staging) {
        const dropped = await dropStaging(client, endpoint.url, staged, scaledTimeout(stored));
        outcome = `nothing was written to ${graphList(staged)}${dropMessage(staged, stored, dropped)}`;
      } else {
        const before = mode === 'replace' ? ' (its earlier triples were dropped)' : '';
        outcome = `loaded without staging, ${graphList(staged)} holds the ${stored} triples written so far${before}: load the files again, with --replace to start over`;
      }
      if (interrupted())
        throw new LoadInterrupted(`interrupted after ${stored} of ${checked.triples} triples: ${outcome}`);
      if (cause instanceof LoadError) throw new LoadError(`${cause.message}; ${outcome}`, cause.status);
      notice(`load failed: ${outcome}`);
      throw cause;
    } finally {
      clearInterval(loadTimer);
    }

    if (!staging) return result(stored, protocol);

    // 4. Move the staged triples into place. Once begun, an interruption waits for it to end.
    const moveStart = elapsed();
    const moving = (): LoadProgress => ({
      phase: 'moving',
      triples: stored,
      graphs: targets.map(graphName),
      seconds: elapsed() - moveStart,
    });
    report(moving());
    const moveTimer = every(progressEvery, () => report(moving()));
    let interruptedDuringMove = false;
    const duringMove = () => {
      interruptedDuringMove = true;
      notice('interrupted while moving the staged triples into place: the move is completed first');
    };
    options.signal?.removeEventListener('abort', interrupt);
    options.signal?.addEventListener('abort', duringMove, { once: true });
    const moveTimeoutMs = scaledTimeout(stored);
    const commit = commitUpdate(staged, mode);
    try {
      let refusal = await client.post(endpoint.url, commit, UPDATE, { timeoutMs: moveTimeoutMs });
      if (refusal && isVirtuosoLogLimit(refusal.body)) {
        notice(
          'the store (Virtuoso) cannot move this many triples in one transaction (SR325): moving them row by row, which is not atomic',
        );
        refusal = await client.post(endpoint.url, virtuosoRowByRow(commit), UPDATE, {
          timeoutMs: moveTimeoutMs * 3,
        });
      }
      if (refusal && isJenaGraphMoveRefusal(refusal.body)) {
        refusal = await client.post(endpoint.url, patternMoveUpdate(staged, mode), UPDATE, {
          timeoutMs: moveTimeoutMs,
        });
      }
      if (refusal) {
        const dropped = await dropStaging(client, endpoint.url, staged, scaledTimeout(stored));
        throw new LoadError(
          `moving the staged triples into ${graphList(staged)} failed: ${refusalError('update', endpoint.url, refusal).message}; a store that applies an update atomically left ${graphList(staged)} as it was${dropMessage(staged, stored, dropped)}`,
          refusal.status,
        );
      }
    } catch (error) {
      if (!(error instanceof NoAnswerError)) throw error;
      // Unknown outcome: the store may still be moving them, so the staging graphs are kept.
      throw new LoadError(
        `moving the staged triples into ${graphList(staged)}: ${error.message}. The store may still be moving them: once ${graphList(staged)} holds them, drop the staging graphs with the SPARQL update ${dropUpdate(staged).replace(/\n/g, ' ')}`,
      );
    } finally {
      clearInterval(moveTimer);
      options.signal?.removeEventListener('abort', duringMove);
    }

    // 5. Drop the staging graphs; the load is complete even if this fails.
    const dropStart = elapsed();
    const dropTimer = every(progressEvery, () =>
      report({ phase: 'dropping', graphs: staged.map((g) => `<${g.staging}>`), seconds: elapsed() - dropStart }),
    );
    const dropped = await dropStaging(client, endpoint.url, staged, scaledTimeout(stored)).finally(() =>
      clearInterval(dropTimer),
    );
    if (dropped !== undefined) {
      notice(
        `warning: the load is complete, but the staging graphs could not be dropped (${dropped}): drop them with the SPARQL update ${dropUpdate(staged).replace(/\n/g, ' ')}`,
      );
    }
    return {
      ...result(stored, protocol),
      interruptedDuringMove,
      leftover: dropped === undefined ? [] : staged.map((g) => g.staging),
    };
  } finally {
    options.signal?.removeEventListener('abort', interrupt);
  }
}

/** A timer calling `fn` every `ms` (none when 0), that does not keep the process alive. */
function every(ms: number, fn: () => void): NodeJS.Timeout | undefined {
  return ms > 0 ? setInterval(fn, ms).unref() : undefined;
}

/** Waits for the requests in flight, at most `graceMs`; then aborts them and waits for them to end. */
async function settle(pending: Set<Promise<void>>, graceMs: number, abort: AbortController): Promise<void> {
  const all = Promise.allSettled(pending);
  let timer: NodeJS.Timeout | undefined;
  const late = await Promise.race([
    all.then(() => false),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), graceMs))),
  ]);
  clearTimeout(timer);
  if (late) {
    abort.abort();
    await all;
  }
}

/** Drops the staging graphs, one attempt (plus the stale-socket retry); the reason when it failed. */
async function dropStaging(
  client: StoreClient,
  endpointUrl: string,
  staged: readonly StagedGraph[],
  timeoutMs: number,
): Promise<string | undefined> {
  try {
    const refusal = await client.post(endpointUrl, dropUpdate(staged), UPDATE, { attempts: 1, timeoutMs });
    return refusal ? refusalError('update', endpointUrl, refusal).message : undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** What became of the staging graphs after a failed load: dropped, or how to drop them. */
function dropMessage(staged: readonly StagedGraph[], stored: number, dropped: string | undefined): string {
  const names = staged.map((g) => `<${g.staging}>`).join(', ');
  if (dropped === undefined) return stored > 0 ? ` (the ${stored} triples staged in ${names} were dropped)` : '';
  return `, but the staging graph ${names} could not be dropped (${dropped}): drop it with the SPARQL update ${dropUpdate(staged).replace(/\n/g, ' ')}`;
}
