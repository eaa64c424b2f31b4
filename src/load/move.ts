import { isJenaGraphMoveRefusal, LoadError, NoAnswerError, type StoreClient } from './http.js';
import { every, graphList, type LoadRun, UPDATE } from './load-run.js';
import type { LoadProgress } from './progress.js';
import { refusalError } from './protocol.js';
import {
  commitUpdate,
  dropUpdate,
  graphName,
  isVirtuosoLogLimit,
  patternMoveUpdate,
  type StagedGraph,
  virtuosoRowByRow,
} from './staging.js';

/**
 * Step 4: one update moves the staged triples into place (ADD, COPY, or their fallbacks). Once
 * begun, an interruption waits for it to end. Resolves whether the signal was aborted meanwhile.
 */
export async function moveIntoPlace(run: LoadRun, staged: readonly StagedGraph[], stored: number): Promise<boolean> {
  const moveStart = run.elapsed();
  const targets = staged.map((g) => graphName(g.target));
  const moving = (): LoadProgress => ({
    phase: 'moving',
    triples: stored,
    graphs: targets,
    seconds: run.elapsed() - moveStart,
  });
  run.report(moving());
  const moveTimer = every(run.progressEvery, () => run.report(moving()));
  let interruptedDuringMove = false;
  const duringMove = () => {
    interruptedDuringMove = true;
    run.notice('interrupted while moving the staged triples into place: the move is completed first');
  };
  run.release();
  run.options.signal?.addEventListener('abort', duringMove, { once: true });
  try {
    const refusal = await sendMove(run, staged, stored);
    if (refusal) {
      const dropped = await dropStaging(run.client, run.endpointUrl, staged, run.scaledTimeout(stored));
      throw new LoadError(
        `moving the staged triples into ${graphList(staged)} failed: ${refusalError('update', run.endpointUrl, refusal).message}; a store that applies an update atomically left ${graphList(staged)} as it was${dropMessage(staged, stored, dropped)}`,
        refusal.status,
      );
    }
  } catch (error) {
    if (!(error instanceof NoAnswerError)) throw error;
    // Unknown outcome: the store may still be moving them, so the staging graphs are kept.
    throw new LoadError(
      `moving the staged triples into ${graphList(staged)}: ${error.message}. The store may still be moving them: once ${graphList(staged)} holds them, drop the staging graphs with the SPARQL update ${oneLine(dropUpdate(staged))}`,
    );
  } finally {
    clearInterval(moveTimer);
    run.options.signal?.removeEventListener('abort', duringMove);
  }
  return interruptedDuringMove;
}

/** The move, then the forms a store that refused it takes: row by row (Virtuoso), INSERT … WHERE (Jena 4.5). */
async function sendMove(run: LoadRun, staged: readonly StagedGraph[], stored: number) {
  const timeoutMs = run.scaledTimeout(stored);
  const commit = commitUpdate(staged, run.mode);
  let refusal = await run.client.post(run.endpointUrl, commit, UPDATE, { timeoutMs });
  if (refusal && isVirtuosoLogLimit(refusal.body)) {
    run.notice(
      'the store (Virtuoso) cannot move this many triples in one transaction (SR325): moving them row by row, which is not atomic',
    );
    refusal = await run.client.post(run.endpointUrl, virtuosoRowByRow(commit), UPDATE, { timeoutMs: timeoutMs * 3 });
  }
  if (refusal && isJenaGraphMoveRefusal(refusal.body))
    refusal = await run.client.post(run.endpointUrl, patternMoveUpdate(staged, run.mode), UPDATE, { timeoutMs });
  return refusal;
}

/** Step 5: drops the staging graphs; the load is complete even if this fails. Resolves those left. */
export async function dropAfterMove(run: LoadRun, staged: readonly StagedGraph[], stored: number): Promise<string[]> {
  const dropStart = run.elapsed();
  const graphs = staged.map((g) => `<${g.staging}>`);
  const dropTimer = every(run.progressEvery, () =>
    run.report({ phase: 'dropping', graphs, seconds: run.elapsed() - dropStart }),
  );
  const dropped = await dropStaging(run.client, run.endpointUrl, staged, run.scaledTimeout(stored)).finally(() =>
    clearInterval(dropTimer),
  );
  if (dropped === undefined) return [];
  run.notice(
    `warning: the load is complete, but the staging graphs could not be dropped (${dropped}): drop them with the SPARQL update ${oneLine(dropUpdate(staged))}`,
  );
  return staged.map((g) => g.staging);
}

/** Drops the staging graphs, one attempt (plus the stale-socket retry); the reason when it failed. */
export async function dropStaging(
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
export function dropMessage(staged: readonly StagedGraph[], stored: number, dropped: string | undefined): string {
  const names = staged.map((g) => `<${g.staging}>`).join(', ');
  if (dropped === undefined) return stored > 0 ? ` (the ${stored} triples staged in ${names} were dropped)` : '';
  return `, but the staging graph ${names} could not be dropped (${dropped}): drop it with the SPARQL update ${oneLine(dropUpdate(staged))}`;
}

const oneLine = (text: string) => text.replace(/\n/g, ' ');
