import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { TextOrder } from '../../rdf/text-order.js';
import { toText } from '../../sparql/to-text.js';
import { decorateStore } from '../decorate-store.js';
import type { Store } from '../store.js';
import type { EngineCheckName } from './engine-question.js';
import { CHECKS, type EngineFinding } from './engine-questions.js';

export type { EngineFinding } from './engine-questions.js';

/** The questions on text: the server owns their answer on an engine that orders text by UTF-16 code unit. */
const TEXT_CHECKS: readonly EngineCheckName[] = ['text-order', 'text-compare'];
const UTF16: TextOrder = 'UTF-16 code units';

/**
 * Asks the store each question of {@link CHECKS} at once, on the light lane (they read no data).
 * When the engine orders and compares text by UTF-16 code unit, asks the text questions again
 * with their text keys written for it (`sparql/text-key.ts`); if they then answer by code point,
 * the server owns text order there: those findings are `ok`, with how in `owned`, and
 * {@link textOrderOf} tells the store's queries to be written so. Rejects when the store cannot
 * answer (it is down, or past its deadline): nothing was learnt.
 *
 * @example const findings = await checkEngine(store); findings.filter((f) => f.severity === 'warning')
 */
export async function checkEngine(store: Store): Promise<EngineFinding[]> {
  const ask = (checks: typeof CHECKS, order: TextOrder) =>
    Promise.all(
      checks.map(async ({ check, query, read }) =>
        read(await store.select(toText(query(), order), { lane: 'light', label: `engine check ${check}` })),
      ),
    );
  const found = await ask(CHECKS, 'code point');
  const text = found.filter((f) => TEXT_CHECKS.includes(f.check));
  if (!text.every((f) => f.found === UTF16)) return found;
  const written = await ask(
    CHECKS.filter((c) => TEXT_CHECKS.includes(c.check)),
    UTF16,
  );
  if (!written.every((f) => f.holds)) return found;
  const owned = 'the server writes its text keys in code point order for this engine';
  return found.map((f) =>
    TEXT_CHECKS.includes(f.check) ? { check: f.check, holds: true, found: f.found, severity: 'ok', owned } : f,
  );
}

/**
 * The text order the store's queries are written in, from what its engine check found: UTF-16
 * code units where the server owns it ({@link checkEngine}), else unset (code point).
 */
export function textOrderOf(findings: readonly EngineFinding[] | undefined): TextOrder | undefined {
  return findings?.some((f) => f.check === 'text-order' && f.owned !== undefined) ? UTF16 : undefined;
}

/**
 * `store`, with the text order its engine check found ({@link textOrderOf} of `findings()`, read at
 * each query): every query the server sends it is then written for that order (`execute/run-query.ts`).
 *
 * @example withFoundTextOrder(store, () => engines.get('default'))
 */
export function withFoundTextOrder(store: Store, findings: () => readonly EngineFinding[] | undefined): Store {
  return decorateStore(store, { textOrder: () => textOrderOf(findings()) });
}

/** What each dataset's store answered, by dataset name: filled in as the checks come back. */
export type EngineFindings = Map<string, readonly EngineFinding[]>;

/** How long to wait before asking a store that did not answer again. */
const RETRY_MS = 30_000;

/**
 * Checks each dataset's store ({@link checkEngine}) and records what it found in `findings`: one
 * info line per dataset, one warning per promise that does not hold, one info line per limit.
 * Resolves once every store has answered or failed once, so that a server that waits for it
 * writes its first queries in the text order found. A store that could not answer (down at
 * start-up) is asked again every 30 s, in the background, until it does, or until `signal` aborts
 * (the server is stopping); nothing is logged after that. It never rejects.
 *
 * @example await checkEngines(datasets, findings, logger, stopping.signal)
 */
export async function checkEngines(
  datasets: readonly { readonly name: string; readonly store: Store }[],
  findings: EngineFindings,
  logger: Pick<Logger, 'info' | 'warn'>,
  signal: AbortSignal,
): Promise<void> {
  // One attempt: true when the store answered (or the server is stopping), false to ask again,
  // after telling `failed` why.
  const attempt = async (name: string, store: Store, failed?: (error: unknown) => void): Promise<boolean> => {
    try {
      const found = await checkEngine(store);
      if (signal.aborted) return true;
      findings.set(name, found);
      report(name, found, logger);
      return true;
    } catch (error) {
      if (!signal.aborted) failed?.(error);
      return signal.aborted;
    }
  };
  // Info, not a warning: the empty-types check (empty-types.ts) already warns that the store is down.
  const notYet = (name: string) => (error: unknown) =>
    logger.info(
      { dataset: name, err: (error as Error).message ?? error },
      `could not check the engine of dataset ${name} yet (asking again every ${RETRY_MS / 1000} s): ${(error as Error).message ?? error}`,
    );
  const again = async (name: string, store: Store) => {
    do await sleep(RETRY_MS, undefined, { signal, ref: false }).catch(() => undefined);
    while (!signal.aborted && !(await attempt(name, store)));
  };
  await Promise.all(
    datasets.map(async ({ name, store }) => {
      if (!signal.aborted && !(await attempt(name, store, notYet(name)))) void again(name, store);
    }),
  );
}

function report(dataset: string, found: readonly EngineFinding[], logger: Pick<Logger, 'info' | 'warn'>): void {
  const summary = found.map((f) => `${f.check}: ${f.found}${f.owned ? ` (owned: ${f.owned})` : ''}`).join('; ');
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
