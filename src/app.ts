import express, { type Express } from 'express';
import { pino, type Logger } from 'pino';
import { errorHandler, toJsonApiError } from './http/error-handler.js';
import type { Dataset } from './http/dataset.js';
import { jsonApiHandler } from './http/json-api-handler.js';
import { send } from './http/send.js';
import { errorDocument } from './shape/documents.js';

export interface AppOptions {
  readonly datasets: readonly Dataset[];
  /** Name of the dataset served without the `/api/<dataset>` prefix; the first one by default. */
  readonly defaultDataset?: string;
  readonly logger?: Logger;
}

/**
 * Builds the HTTP application; it never listens (the CLI and the tests do that).
 *
 * @example createApp({ datasets: [{ name: 'sample', mapping, store, linkBase: '' }] }).listen(3000)
 */
export function createApp({ datasets, defaultDataset, logger = pino({ level: 'silent' }) }: AppOptions): Express {
  const byName = new Map(datasets.map((dataset) => [dataset.name, dataset]));
  const fallback = byName.get(defaultDataset ?? datasets[0]?.name ?? '');
  if (!fallback) throw new Error(`The default dataset '${defaultDataset}' is not among the datasets (${[...byName.keys()].join(', ')}).`);
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', false); // parse-query.ts reads the raw query string itself
  app.set('etag', false);

  // Liveness of every store: 200 once all answer, 503 with an error document otherwise.
  app.get('/health', async (_req, res) => {
    try {
      await Promise.all(datasets.map((dataset) => dataset.store.ping()));
      send(res, 200, { jsonapi: { version: '1.1' }, meta: { status: 'ok', datasets: datasets.map((d) => ({ name: d.name, store: d.store.description })) } });
    } catch (error) {
      logger.warn({ err: error }, 'health check failed');
      const failure = toJsonApiError(error);
      send(res, 503, errorDocument([{ ...failure.errors[0]!, status: '503' }]));
    }
  });
  app.use(jsonApiHandler(byName, fallback));
  app.use(errorHandler(logger));
  return app;
}
