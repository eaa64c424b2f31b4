import type { Logger } from 'pino';
import type { Dataset } from '../dataset.js';
import { errorDocument } from '../shape/documents.js';
import type { EngineFindings } from '../store/probes/engine-check.js';
import { StoreError } from '../store/store.js';
import type { Handler } from './handler.js';
import { send } from './send.js';

export interface HealthOptions {
  /** How long each store has to answer the health query; 2000 ms by default. */
  readonly timeoutMs?: number;
  /**
   * Show each store's description (its kind, endpoint and graph) and what its engine answered to
   * the start-up check to anyone; off by default, since it names internal hosts.
   */
  readonly details?: boolean;
}

/**
 * A dataset's health: `ok`, `degraded` (the store answers, but slowly: past half the deadline, or
 * its lane is full so the check could not run), or `down` (no answer within the deadline, or an error).
 */
export type DatasetHealth = 'ok' | 'degraded' | 'down';

/**
 * `/health`: pings every store on the light lane with its own short deadline, so it neither
 * queues behind client queries nor waits a client's deadline. 200 while no store is down (the
 * body says `ok` or `degraded` per dataset), 503 with an error document otherwise. Store
 * addresses stay in the logs unless `details` is on.
 *
 * @example app.get('/health', healthHandler(datasets, logger, { timeoutMs: 2000 }))
 */
export function healthHandler(
  datasets: readonly Dataset[],
  logger: Logger,
  options: HealthOptions = {},
  engines: EngineFindings = new Map(),
): Handler {
  const timeoutMs = options.timeoutMs ?? 2000;
  return async (_req, res) => {
    const checked = await Promise.all(
      datasets.map(async (dataset) => ({
        name: dataset.name,
        status: await check(dataset, timeoutMs, logger),
        ...(options.details && { store: dataset.store.description, engine: engineOf(engines, dataset.name) }),
      })),
    );
    const status: DatasetHealth = checked.some((d) => d.status === 'down')
      ? 'down'
      : checked.some((d) => d.status === 'degraded')
        ? 'degraded'
        : 'ok';
    const meta = { status, datasets: checked };
    if (status !== 'down') {
      send(res, 200, { jsonapi: { version: '1.1' }, meta });
      return;
    }
    const down = checked.filter((d) => d.status === 'down').map((d) => d.name);
    const detail = `The triplestore of ${down.join(', ')} did not answer within ${timeoutMs} ms.`;
    send(res, 503, { ...errorDocument([{ status: '503', title: 'Triplestore unavailable', detail }]), meta });
  };
}

/** A dataset's engine findings for `/health`: by check, what was found and whether the promise holds. */
function engineOf(engines: EngineFindings, dataset: string) {
  const found = engines.get(dataset);
  if (!found) return 'not checked yet';
  return Object.fromEntries(found.map((f) => [f.check, { found: f.found, severity: f.severity }]));
}

async function check(dataset: Dataset, timeoutMs: number, logger: Logger): Promise<DatasetHealth> {
  const start = performance.now();
  try {
    await dataset.store.ping({ lane: 'light', signal: AbortSignal.timeout(timeoutMs) });
    return performance.now() - start > timeoutMs / 2 ? 'degraded' : 'ok';
  } catch (error) {
    if (error instanceof StoreError && error.kind === 'overloaded') return 'degraded';
    logger.warn(
      { dataset: dataset.name, store: dataset.store.description, err: error instanceof Error ? error.message : error },
      'health check failed',
    );
    return 'down';
  }
}
