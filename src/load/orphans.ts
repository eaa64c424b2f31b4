import { hostname } from 'node:os';
import { selectRows } from './count.js';
import type { LoadRun } from './load-run.js';
import { dropStaging } from './move.js';
import { graphName, STAGING_PREFIX, type StagedGraph, stagingOwner } from './staging.js';

/** This process, as staging graph IRIs name their load. */
export const THIS_LOAD = { host: hostname(), pid: process.pid };

/**
 * Drops the staging graphs that earlier loads of the same targets left behind (a load killed
 * with SIGKILL, or on a machine that went down, cannot drop its own), each logged. A graph is
 * left behind when the load its IRI names ran on this host and its process is gone; a live
 * process's graph belongs to a concurrent load and is left alone; a graph of another host cannot
 * be checked from here, nor one of an earlier version (which names no target): both are only
 * reported, and dropped with `cleanStaging`. A store that does not answer the query is skipped.
 */
export async function dropLeftStaging(run: LoadRun, targets: readonly string[]): Promise<void> {
  const found = await stagingGraphs(run);
  if (found === undefined) return;
  const forced = run.options.cleanStaging === true;
  const drop: StagedGraph[] = [];
  for (const iri of found) {
    const owner = stagingOwner(iri);
    if (owner && !targets.includes(owner.target)) continue;
    const why = owner === undefined ? 'names no target (an earlier version)' : liveness(owner);
    if (why === 'left' || forced) drop.push({ target: owner?.target ?? '', staging: iri, triples: 0 });
    else run.notice(`staging graph <${iri}> left alone: ${why}; drop it with load --clean-staging`);
  }
  if (drop.length === 0) return;
  const failed = await dropStaging(run.client, run.endpointUrl, drop, run.timeoutMs);
  for (const g of drop)
    run.notice(
      failed === undefined
        ? `dropped the staging graph <${g.staging}>, left by an earlier load of ${graphName(g.target)}`
        : `could not drop the staging graph <${g.staging}>: ${failed}`,
    );
}

/** `left` when the load that made it has ended, else why it may still be in use. */
function liveness(owner: { host: string; pid: number }): string {
  if (owner.host !== THIS_LOAD.host) return `made by a load on host ${owner.host}, which cannot be checked from here`;
  if (owner.pid === THIS_LOAD.pid) return 'in use by this process';
  try {
    process.kill(owner.pid, 0);
    return `in use by a load still running (pid ${owner.pid})`;
  } catch (error) {
    // EPERM: the process exists (another user's).
    return (error as NodeJS.ErrnoException).code === 'ESRCH'
      ? 'left'
      : `in use by a load still running (pid ${owner.pid})`;
  }
}

/** The named graphs whose IRI starts with {@link STAGING_PREFIX}; undefined if the store does not answer. */
async function stagingGraphs(run: LoadRun): Promise<string[] | undefined> {
  const query = `SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } FILTER(STRSTARTS(STR(?g), "${STAGING_PREFIX}")) }`;
  const rows = await selectRows(run, query);
  return rows?.flatMap((row) => (row.g?.value ? [row.g.value] : []));
}
