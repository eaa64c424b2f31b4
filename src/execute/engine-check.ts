import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { Store } from '../store/store.js';
import { CHECKS, type EngineFinding } from './engine-questions.js';
import { runQuery } from './run-query.js';

export type { EngineFinding } from './engine-questions.js';

/**
 * Asks the store each question of {@link CHECKS} at once, on the light lane (they read no data).
 * Rejects when the store cannot answer (it is down, or past its deadline): nothing was learnt.
 *
 * @example const findings = await checkEngine(store); findings.filter((f) => f.severity === 'warning')
 */
export async function checkEngine(store: Store): Promise<EngineFinding[]> {
  return Promise.all(
    CHECKS.map(async ({ check, query, read }) =>
      read(await runQuery(store, query(), 'light', `engine check ${check}`)),
    ),
  );
}

/** What each dataset's store answered, by dataset name: filled in as the checks come back. */
export type EngineFindings = Map<string, readonly EngineFinding[]>;

/** How long to wait before asking a store that did not answer again. */
const RETRY_MS = 30_000;

/**
 * Checks each dataset's store ({@link checkEngine}) and records what it found in `findings`: one
 * info line per dataset, one warning per promise that does not hold, one info line per limit. A
 * store that cannot answer (down at start-up) is asked again every 30 s until it does, or until
 * `signal` aborts (the server is stopping); nothing is logged after that. It never rejects.
 *
 * @example void checkEngines(datasets, findings, logger, stopping.signal)
 */
export async function checkEngines(
  datasets: readonly { readonly name: string; readonly store: Store }[],
  findings: EngineFindings,
  logger: Pick<Logger, 'info' | 'warn'>,
  signal: AbortSignal,
): Promise<void> {
  await Promise.all(
    datasets.map(async ({ name, store }) => {
      for (let attempt = 1; !signal.aborted; attempt++) {
        try {
          const found = await checkEngine(store);
          if (signal.aborted) return;
          findings.set(name, found);
          report(name, found, logger);
          return;
        } catch (error) {
          if (signal.aborted) return;
          // Info, not a warning: the empty-types check (empty-types.ts) already warns that the store is down.
          if (attempt === 1)
            logger.info(
              { dataset: name, err: (error as Error).message ?? error },
              `could not check the engine of dataset ${name} yet (asking again every ${RETRY_MS / 1000} s): ${(error as Error).message ?? error}`,
            );
          await sleep(RETRY_MS, undefined, { signal, ref: false }).catch(() => undefined);
        }
      }
    }),
  );
}

function report(dataset: string, found: readonly EngineFinding[], logger: Pick<Logger, 'info' | 'warn'>): void {
  const summary = found.map((f) => `${f.check}: ${f.found}`).join('; ');
  logger.info(
    { dataset, engine: Object.fromEntries(found.map((f) => [f.check, f.found])) },
    `engine of dataset ${dataset}: ${summary}`,
  );
  for (const f of found) {
    if (f.severity === 'ok') continue;
    const line = `dataset ${dataset}: ${f.consequence} (engine check ${f.check}: ${f.found})`;
    if (f.severity === 'warning') logger.warn({ dataset, check: f.check, found: f.found }, line);
    else logger.info({ dataset, check: f.check, found: f.found }, line);
  }
}
