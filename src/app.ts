import { setMaxListeners } from 'node:events';
import express, { type Express } from 'express';
import helmet from 'helmet';
import { type Logger, pino } from 'pino';
import { pinoHttp } from 'pino-http';
import { cachedResponses } from './cache/cached-responses.js';
import { Freshness } from './cache/freshness.js';
import type { WindowCacheOptions } from './cache/list-windows.js';
import { rememberedBy, warmWindowCache } from './cache/remembered.js';
import { ResponseCache, type ResponseCacheOptions } from './cache/response-cache.js';
import { WindowCache } from './cache/window-cache.js';
import { type Dataset, optionsOf } from './dataset.js';
import { JsonApiError } from './errors/json-api-error.js';
import { apiDescriptionHandler } from './http/api-description.js';
import { bearerOnly } from './http/bearer.js';
import { type CorsOptions, corsHandler } from './http/cors.js';
import { docsPageHandler } from './http/docs-page.js';
import { errorHandler } from './http/error-handler.js';
import { type Handler, plainRequests } from './http/handler.js';
import { type HealthOptions, healthHandler } from './http/health.js';
import { jsonApiHandler, jsonApiPipeline } from './http/json-api-handler.js';
import { Metrics } from './http/metrics.js';
import { rootDocumentHandler } from './http/root-document.js';
import { type StaticHeaders, setHeaders, staticHeaders } from './http/static-headers.js';
import { type DeltaListenerOptions, deltaListener } from './live/delta-listener.js';
import { LiveData } from './live/live-data.js';
import { checkEngines, type EngineFindings, withFoundTextOrder } from './store/probes/engine-check.js';

export interface AppOptions {
  readonly datasets: readonly Dataset[];
  /** Name of the dataset served without the `/api/<dataset>` prefix; the first one by default. */
  readonly defaultDataset?: string;
  readonly logger?: Logger;
  /** Which origins may read responses from scripts, and which request headers they may send; any origin by default. */
  readonly cors?: CorsOptions;
  /** The response cache's memory bound (and a clock for tests); each dataset's TTL turns it on. */
  readonly responseCache?: Omit<ResponseCacheOptions, 'onLookup' | 'freshness'>;
  /** The window cache's memory bound (and a clock for tests); each dataset's `windowCacheTtlSeconds` turns it on. */
  readonly windowCache?: Omit<WindowCacheOptions, 'freshness'>;
  /**
   * Live data: the app of the delta listener (`live/delta-listener.ts`) is `app.locals.deltaListener`,
   * for the CLI (or a test) to serve on a port of its own, never this app's. The caches' TTLs stay
   * each dataset's own: the CLI turns them on without expiry when it listens for deltas.
   */
  readonly deltas?: DeltaListenerOptions;
  /**
   * The ledger of changes the caches check their entries against; a new one unless given. The CLI
   * shares one across the apps a `--watch` reload builds, so that a delta the old app hears while
   * the new one reads its lists ahead makes those lists stale too.
   */
  readonly freshness?: Freshness;
  /** Adds process metrics (CPU, memory, event loop, GC) to `/metrics`; off by default, on in the CLI. */
  readonly processMetrics?: boolean;
  /**
   * The metrics to count into, instead of a new set (then `processMetrics` is theirs to say): the CLI
   * keeps one across the apps a `--watch` reload builds, so that `/metrics` counts on.
   */
  readonly sharedMetrics?: Metrics;
  /**
   * What each dataset's engine answered to the start-up questions (`store/probes/engine-check.ts`); a new
   * map unless given. The CLI shares one across the apps a `--watch` reload builds: the engine does
   * not change with the data, so a dataset found once is not asked again.
   */
  readonly engines?: EngineFindings;
  /**
   * `/metrics`: served on this app unless `enabled` is false or `separate` is true (then the CLI
   * serves `app.locals.metrics` on a port of its own); with a `token`, only to
   * `Authorization: Bearer <token>`.
   */
  readonly metrics?: { readonly enabled?: boolean; readonly separate?: boolean; readonly token?: string };
  readonly health?: HealthOptions;
  /**
   * The hints that steer how lists are read (`cache/histogram-hints.ts`) and the query builders'
   * memo (`cache/template-memo.ts`), one of each per app; on by default. Off, every request is
   * planned and written as by a server that just started: the same answers, more work.
   */
  readonly hints?: boolean;
  /** Aborted when the server stops: requests still running are stopped and answered 503. */
  readonly shutdown?: AbortSignal;
  /** Share of requests written to the access log (0, the default, writes none). */
  readonly accessLogSample?: number;
  /** Longest request URL accepted; longer ones get 414. 8192 by default. */
  readonly maxUrlLength?: number;
}

/**
 * Builds the HTTP application; it never listens (the CLI and the tests do that).
 *
 * @example createApp({ datasets: [{ name: 'sample', mapping, store, linkBase: '' }] }).listen(3000)
 */
export function createApp(options: AppOptions): Express {
  const logger = options.logger ?? pino({ level: 'silent' });
  const { metrics, engines, datasets, byName, fallback } = instrumentedDatasets(options);
  // One ledger of changes for both caches: what a delta or a reload marks, neither serves.
  const freshness = options.freshness ?? new Freshness();
  const cache = new ResponseCache({ ...options.responseCache, onLookup: metrics.cacheLookup, freshness });
  const windows = new WindowCache({ ...options.windowCache, freshness });
  metrics.watchWindowCache(windows);
  // With hints off and no dataset keeping lists nothing remembers for the executor: a request then
  // reaches no file of cache/ (the response cache is put around the handler only where one keeps).
  const keepsLists = datasets.some((dataset) => optionsOf(dataset).windowCacheTtlSeconds > 0);
  const remembered =
    options.hints !== false || keepsLists
      ? rememberedBy(windows, { hinted: options.hints !== false, shutdown: options.shutdown })
      : undefined;
  const live = new LiveData(options.datasets, freshness, { response: cache, window: windows }, metrics.deltas);
  // Every request in flight listens to the shutdown signal: as many listeners as requests, on purpose.
  if (options.shutdown) setMaxListeners(0, options.shutdown);
  const exposeMetrics = metricsHandler(metrics.expose(), options.metrics?.token);

  // Express routes; the handlers get Node's own request and response (http/handler.ts).
  const app = plainRequests(express());
  app.disable('x-powered-by');
  app.set('query parser', false); // parse-query.ts reads the raw query string itself
  app.set('etag', false); // conditional.ts sets the ETag of dataset responses, and only theirs
  app.locals.metrics = exposeMetrics;
  // For the CLI: `--delta-listen` serves the listener.
  if (options.deltas) app.locals.deltaListener = deltaListener(live, metrics.deltas, logger, options.deltas);
  // For the CLI, before it listens (warmWindowCache).
  app.locals.warmWindowCache = (signal: AbortSignal) => warmWindowCache(datasets, windows, signal);
  // For tests: once the lists pages started reading in the background are read (`WindowCache.settled`).
  app.locals.windowCacheSettled = () => windows.settled();
  // For the CLI, once it has opened the stores (not awaited: a store that is down is asked again later).
  app.locals.checkEngines = (signal: AbortSignal) =>
    checkEngines(
      options.datasets.filter((d) => !engines.has(d.name)),
      engines,
      logger,
      signal,
    );

  app.use(metrics.observe()); // first, so that every response is counted, errors and preflights too
  if (options.accessLogSample) app.use(accessLog(logger, options.accessLogSample));
  // Security headers, then 414, then CORS (which answers OPTIONS, preflight or not, with 204): one
  // middleware for the three, so a request walks fewer of Express's layers.
  app.use(frontDoor(SECURITY_HEADERS, options.maxUrlLength ?? 8192, corsHandler(options.cors ?? { origins: '*' })));
  if (options.metrics?.enabled !== false && !options.metrics?.separate) app.get('/metrics', exposeMetrics);
  app.get('/health', healthHandler(datasets, logger, options.health, engines));
  const apiDescription = apiDescriptionHandler(byName, fallback); // /openapi.json: each dataset's OpenAPI 3.1, built once
  app.locals.apiDescription = apiDescription.description;
  app.use(apiDescription);
  app.use(docsPageHandler(byName, fallback)); // /docs (and / for a browser): Scalar's API reference (HTML), with its own CSP
  app.use(rootDocumentHandler(byName, fallback)); // /: links to every dataset's collections, description and docs
  // 405, negotiation, plan, SPARQL, ETag/304; the response cache around it where a dataset keeps responses.
  const jsonApi = { datasets: byName, defaultDataset: fallback, logger, shutdown: options.shutdown, remembered };
  const keepsResponses = datasets.some((dataset) => optionsOf(dataset).cacheTtlSeconds > 0);
  app.use(keepsResponses ? cachedResponses(jsonApiPipeline(jsonApi), cache) : jsonApiHandler(jsonApi));
  app.use(errorHandler(logger)); // every error becomes a JSON:API error document, no-store
  return app;
}

/**
 * The app's metrics and engine findings (given, or new), and its datasets with every query
 * counted and timed on its way to the store, written in the text order its engine check found
 * (code point until then); by name, and the one served without a prefix.
 */
function instrumentedDatasets(options: AppOptions) {
  const { defaultDataset } = options;
  const names = options.datasets.map((dataset) => dataset.name);
  const metrics =
    options.sharedMetrics ??
    new Metrics({
      datasets: names,
      defaultDataset: defaultDataset ?? names[0] ?? '',
      processMetrics: options.processMetrics ?? false,
    });
  // What each store's engine answered to the start-up questions (store/probes/engine-check.ts).
  const engines: EngineFindings = options.engines ?? new Map();
  metrics.watchEngines(engines);
  const datasets = options.datasets.map((dataset) => ({
    ...dataset,
    store: withFoundTextOrder(metrics.instrument(dataset.name, dataset.store), () => engines.get(dataset.name)),
  }));
  const byName = new Map(datasets.map((dataset) => [dataset.name, dataset]));
  const fallback = byName.get(defaultDataset ?? names[0] ?? '');
  if (!fallback)
    throw new Error(`The default dataset '${defaultDataset}' is not among the datasets (${names.join(', ')}).`);
  return { metrics, engines, datasets, byName, fallback };
}

/** `/metrics`, open or behind a bearer token: one handler, which the CLI may serve on a port of its own. */
function metricsHandler(expose: Handler, token: string | undefined): Handler {
  const guard = bearerOnly(token, '/metrics');
  return (req, res, next) => guard(req, res, (error?: unknown) => (error ? next(error) : expose(req, res, next)));
}

/**
 * An API answers JSON, never a page: no content sniffing, no framing, no referrer, nothing loads.
 * Helmet's headers with these options depend on nothing in the request, so they are read from it
 * once ({@link staticHeaders}) and set per request without running its dozen middlewares (the one
 * header it removes, X-Powered-By, Express is told never to send).
 */
const SECURITY_HEADERS = staticHeaders(
  helmet({
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
    crossOriginResourcePolicy: { policy: 'cross-origin' }, // read by apps on other origins (CORS decides)
    referrerPolicy: { policy: 'no-referrer' },
  }),
);

/**
 * What every request passes first: the security headers; a 414 for a URL longer than `maxUrlLength`,
 * before anything reads it; then `cors`.
 */
function frontDoor(securityHeaders: StaticHeaders, maxUrlLength: number, cors: Handler): Handler {
  return (req, res, next) => {
    setHeaders(res, securityHeaders);
    if (req.originalUrl.length > maxUrlLength) {
      next(
        new JsonApiError(
          414,
          'URI Too Long',
          `The request URL has ${req.originalUrl.length} characters; at most ${maxUrlLength} are accepted.`,
        ),
      );
      return;
    }
    cors(req, res, next);
  };
}

/** One access log line for a sample of the requests (method, URL, status, time), at info. */
function accessLog(logger: Logger, sample: number): Handler {
  const log = pinoHttp({ logger, quietReqLogger: true, autoLogging: { ignore: () => Math.random() >= sample } });
  return (req, res, next) => log(req, res, next);
}
