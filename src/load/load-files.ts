import { countTriples } from './count.js';
import { LoadError } from './http.js';
import type { LoadFilesOptions, LoadResult } from './load-options.js';
import {
  every,
  FAILED,
  graphList,
  INTERRUPTED,
  LoadInterrupted,
  type LoadRun,
  openRun,
  resultOf,
  UPDATE,
} from './load-run.js';
import { dropAfterMove, dropMessage, dropStaging, moveIntoPlace } from './move.js';
import { dropLeftStaging, THIS_LOAD } from './orphans.js';
import { refusalError } from './protocol.js';
import { type CheckedFiles, type CheckProgress, checkFiles, checkReadable, DEFAULT_GRAPH } from './source.js';
import { clearUpdate, preflightUpdate, type StagedGraph, stagingGraphIri } from './staging.js';
import { BatchStream } from './stream.js';

export type { LoadFilesOptions, LoadResult } from './load-options.js';
export { LoadInterrupted } from './load-run.js';
export type { LoadProgress } from './progress.js';
export type { LoadMode } from './staging.js';

/**
 * Loads RDF files into a SPARQL 1.1 store over standard protocols, all or nothing:
 *
 * 1. every file is parsed to the end, nothing sent yet: a syntax error rejects, naming file and
 *    line (the triples are kept in memory up to `keepChars`, else the files are parsed again in 3);
 * 2. one update that changes nothing checks that the store takes updates into the target graphs;
 * 3. staging graphs that earlier loads of these targets left behind are dropped (orphans.ts); the
 *    triples are sent in batches into fresh staging graphs, one per target graph, each named
 *    after its target and its load (staging.ts), a few requests in flight while the next batch is made;
 * 4. one update moves them into place (ADD to append, COPY to replace), then they are dropped.
 *
 * A failure or interruption before step 4 drops the staging graphs and leaves the targets as they
 * were. Each request has a time limit and is retried with backoff on a 5xx or a network failure.
 * With `staging: false`, step 3 writes into the targets (`replace` drops them in step 2) and
 * step 4 is skipped. The store counts the target graphs before and after (`held`), so that the
 * load can say what they gained. Rejects with a {@link LoadError} (a message for the user), or
 * {@link LoadInterrupted} when `signal` stopped it.
 */
export async function loadFiles(options: LoadFilesOptions): Promise<LoadResult> {
  const run = openRun(options);
  try {
    await checkReadable(options.files);
    const checked = await checkAll(run);
    const targets = options.graph !== undefined ? [options.graph] : [...checked.graphs.keys()];
    const staging = options.staging ?? true;
    const staged: StagedGraph[] = targets.map((target) => ({
      target,
      staging: staging ? stagingGraphIri(target, THIS_LOAD) : target,
      triples: checked.graphs.get(target) ?? 0,
    }));
    const stream = new BatchStream(run, checked);
    if (checked.triples === 0 && run.mode === 'append') return resultOf(run, staged, 0, stream.protocol);
    // Counted after the preflight, which changes nothing, so that a store that does not answer
    // fails there first; before it when the preflight empties the targets (--replace --no-staging).
    const countFirst = !staging && run.mode === 'replace';
    const early = countFirst ? await countTriples(run, targets) : undefined;
    await preflight(run, staged);
    const before = countFirst ? early : await countTriples(run, targets);
    if (staging) await dropLeftStaging(run, targets);
    await streamOrUndo(run, stream, staged);
    const moved = staging
      ? { interruptedDuringMove: await moveIntoPlace(run, staged, stream.stored) }
      : { interruptedDuringMove: false };
    const leftover = staging ? await dropAfterMove(run, staged, stream.stored) : [];
    const after = before === undefined ? undefined : await countTriples(run, targets);
    return {
      ...resultOf(run, staged, stream.stored, stream.protocol),
      ...moved,
      leftover,
      ...(before !== undefined && after !== undefined && { held: { before, after } }),
    };
  } finally {
    run.release();
  }
}

/** Step 1: every file parsed to the end, nothing sent yet. */
async function checkAll(run: LoadRun): Promise<CheckedFiles> {
  const phaseStart = run.elapsed();
  let checking: CheckProgress = { file: run.options.files[0]!, triples: 0, bytes: 0, totalBytes: 0 };
  const checkTimer = every(run.progressEvery, () =>
    run.report({ phase: 'checking', ...checking, seconds: run.elapsed() - phaseStart }),
  );
  try {
    return await checkFiles(run.options.files, run.options.graph, {
      stop: run.stop.signal,
      progress: (p) => (checking = p),
      keepChars: run.options.keepChars ?? 32_000_000,
    });
  } catch (error) {
    if (error === INTERRUPTED) throw new LoadInterrupted('interrupted while checking the files: nothing was written');
    throw error;
  } finally {
    clearInterval(checkTimer);
  }
}

/**
 * Step 2: the store takes updates into these graphs, asked with an update that changes nothing.
 * Without staging, only --replace sends an update (the drop of the targets) before the data.
 */
async function preflight(run: LoadRun, staged: readonly StagedGraph[]): Promise<void> {
  const staging = run.options.staging ?? true;
  const first = staging ? preflightUpdate(staged) : run.mode === 'replace' ? clearUpdate(staged) : undefined;
  const policy = { stop: run.stop.signal, abort: run.abort.signal };
  const refusal = await (first === undefined
    ? Promise.resolve(undefined)
    : run.client.post(run.endpointUrl, first, UPDATE, policy)
  ).catch((error: unknown) => {
    if (run.interrupted()) throw new LoadInterrupted('interrupted before loading: nothing was written');
    if (error instanceof LoadError) throw new LoadError(`${error.message}; nothing was written`);
    throw error;
  });
  if (refusal) {
    const error = refusalError('update', run.endpointUrl, refusal);
    const defaultGraph = staged.some((g) => g.target === DEFAULT_GRAPH) && refusal.status < 500;
    const hint = defaultGraph
      ? ' (the store takes no updates into its default graph: give --graph IRI to load into a named graph)'
      : '';
    throw new LoadError(`${error.message}${hint}; nothing was written`, refusal.status);
  }
  if (run.interrupted()) {
    const emptied =
      first !== undefined && !staging ? `${graphList(staged)} was emptied (--replace --no-staging), ` : '';
    throw new LoadInterrupted(`interrupted before loading: ${emptied}nothing was written`);
  }
}

/**
 * Step 3, and on a failure or interruption what undoes it: the requests in flight get a moment
 * to finish (so that none lands after the drop), then the staging graphs are dropped.
 */
async function streamOrUndo(run: LoadRun, stream: BatchStream, staged: readonly StagedGraph[]): Promise<void> {
  const loadTimer = every(run.progressEvery, () => run.report(stream.progress()));
  try {
    await stream.sendAll(staged);
  } catch (error) {
    if (!run.stop.signal.aborted) run.stop.abort(FAILED);
    const cause = stream.cause ?? error;
    await settle(stream.pending, Math.min(run.timeoutMs, 10_000), run.abort);
    const { stored } = stream;
    let outcome: string;
    if (run.options.staging ?? true) {
      const dropped = await dropStaging(run.client, run.endpointUrl, staged, run.scaledTimeout(stored));
      outcome = `nothing was written to ${graphList(staged)}${dropMessage(staged, stored, dropped)}`;
    } else {
      const before = run.mode === 'replace' ? ' (its earlier triples were dropped)' : '';
      outcome = `loaded without staging, ${graphList(staged)} holds the ${stored} triples written so far${before}: load the files again, with --replace to start over`;
    }
    if (run.interrupted())
      throw new LoadInterrupted(`interrupted after ${stored} of ${stream.total} triples: ${outcome}`);
    if (cause instanceof LoadError) throw new LoadError(`${cause.message}; ${outcome}`, cause.status);
    run.notice(`load failed: ${outcome}`);
    throw cause;
  } finally {
    clearInterval(loadTimer);
  }
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
