import express, { type Express } from 'express';
import { type Logger, pino } from 'pino';
import type { Dataset } from './dataset.js';
import { type CorsOptions, corsHandler } from './http/cors.js';
import { errorHandler, toJsonApiError } from './http/error-handler.js';
import { jsonApiHandler } from './http/json-api-handler.js';
import { Metrics } from './http/metrics.js';
import { ResponseCache, type ResponseCacheOptions } from './http/response-cache.js';
import { send } from './http/send.js';
import { errorDocument } from './shape/documents.js';

export interface AppOptions {
  readonly datasets: readonly Dataset[];
  /** Name of the dataset served without the `/api/<dataset>` prefix; the first one by default. */
  readonly defaultDataset?: string;
  readonly logger?: Logger;
  /** Which origins may read responses from scripts; any origin by default. */
  readonly cors?: CorsOptions;
  /** The response cache's memory bound (and a clock for tests); each dataset's TTL turns it on. */
  readonly responseCache?: Omit<ResponseCacheOptions, 'onLookup'>;
  /** Adds process metrics (CPU, memory, event loop, GC) to `/metrics`; off by default, on in the CLI. */
  readonly processMetrics?: boolean;
}

/**
 * Builds the HTTP application; it never listens (the CLI and the tests do that).
 *
 * @example createApp({ datasets: [{ name: 'sample', mapping, store, linkBase: '' }] }).listen(3000)
 */
export function createApp(options: AppOptions): Express {
  const { defaultDataset, logger = pino({ level: 'silent' }) } = options;
  const names = options.datasets.map((dataset) => dataset.name);
  const metrics = new Metrics({
    datasets: names,
    defaultDataset: defaultDataset ?? names[0] ?? '',
    processMetrics: options.processMetrics ?? false,
  });
  // Every query of every dataset is counted and timed on its way to the store.
  const datasets = options.datasets.map((dataset) => ({
    ...dataset,
    store: metrics.instrument(dataset.name, dataset.store),
  }));
  const byName = new Map(datasets.map((dataset) => [dataset.name, dataset]));
  const fallback = byName.get(defaultDataset ?? names[0] ?? '');
  if (!fallback)
    throw new Error(`The default dataset '${defaultDataset}' is not among the datasets (${names.join(', ')}).`);
  const cache = new ResponseCache({ ...options.responseCache, onLookup: metrics.cacheLookup });

  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', false); // parse-query.ts reads the raw query string itself
  app.set('etag', false); // conditional.ts sets the ETag of dataset responses, and only theirs

  app.use(metrics.observe()); // first, so that every response is counted, errors and preflights too
  app.use(corsHandler(options.cors ?? { origins: '*' })); // answers OPTIONS (preflight or not) with 204
  app.get('/metrics', metrics.expose());
  // Liveness of every store: 200 once all answer, 503 with an error document otherwise.
  app.get('/health', async (_req, res) => {
    try {
      await Promise.all(datasets.map((dataset) => dataset.store.ping()));
      send(res, 200, {
        jsonapi: { version: '1.1' },
        meta: { status: 'ok', datasets: datasets.map((d) => ({ name: d.name, store: d.store.description })) },
      });
    } catch (error) {
      logger.warn({ err: error }, 'health check failed');
      const failure = toJsonApiError(error);
      send(res, 503, errorDocument([{ ...failure.errors[0]!, status: '503' }]));
    }
  });
  app.use(jsonApiHandler(byName, fallback, cache)); // 405, negotiation, cache, plan, SPARQL, ETag/304
  app.use(errorHandler(logger)); // every error becomes a JSON:API error document, no-store
  return app;
}
