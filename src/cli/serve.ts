import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Express } from 'express';
import { type Logger, pino } from 'pino';
import pretty from 'pino-pretty';
import { createApp } from '../app.js';
import { Freshness } from '../cache/freshness.js';
import type { WarmedDataset } from '../cache/remembered.js';
import type { Dataset } from '../dataset.js';
import type { Handler } from '../http/handler.js';
import { Metrics } from '../http/metrics.js';
import { createApiServer, stopGracefully } from '../http/server.js';
import { warnEmptyTypes } from '../store/probes/empty-types.js';
import type { EngineFindings } from '../store/probes/engine-check.js';
import type { ServerConfig } from './config.js';
import type { CliIo } from './io.js';
import { openDatasets } from './open-datasets.js';
import { watchFiles } from './watch-files.js';

/** A listening server, and what its log line calls it. */
interface Listening {
  server: Server;
  name: string;
  host: string;
}

/** What a serve keeps for its life: its log, its signals, and how it builds an app for a set of datasets. */
interface Serving {
  config: ServerConfig;
  logger: Logger;
  /** Aborted when the engine checks and the window-cache reads should stop (the serve is ending). */
  checksQuiet: AbortController;
  warming: AbortSignal;
  build: (served: readonly Dataset[]) => Express;
}

/** Opens the datasets, listens, and closes everything once `io.signal` aborts. */
export async function serve(config: ServerConfig, io: CliIo): Promise<number> {
  // Readable on a terminal, one JSON object per line otherwise (for a log collector).
  const output = (io.stdout as { isTTY?: boolean }).isTTY ? pretty({ destination: io.stdout, sync: true }) : io.stdout;
  const logger = pino({ level: io.env.LOG_LEVEL ?? 'info' }, output);
  const datasets = await openDatasets(config, logger);
  const stopping = new AbortController();
  // Not awaited: a store that is slow or down must not hold up start-up; the check only warns.
  const checksQuiet = new AbortController();
  warnEmpty(config, datasets, logger, checksQuiet.signal);
  const warming = io.signal ? AbortSignal.any([checksQuiet.signal, io.signal]) : checksQuiet.signal;
  const serving: Serving = { config, logger, checksQuiet, warming, build: appBuilder(config, logger, stopping.signal) };
  let app = serving.build(datasets);
  const servers = await listenAll(serving, app).catch(async (error: unknown) => {
    checksQuiet.abort();
    await Promise.all(datasets.map((d) => d.store.close()));
    throw error;
  });
  for (const { server, name, host } of servers) {
    const { port } = server.address() as AddressInfo;
    const at = host.includes(':') ? `[${host}]` : host;
    const described = datasets.map((d) => `${d.name}: ${d.store.description}`);
    logger.info({ datasets: described }, `${name} http://${at}:${port}`);
  }
  if (config.watch) {
    const [api, delta] = [servers[0]!.server, servers.find((s) => s.name === 'delta listener on')?.server];
    watchFiles({
      config,
      datasets,
      logger,
      signal: checksQuiet.signal,
      ...(config.watchDebounceMs !== undefined && { debounceMs: config.watchDebounceMs }),
      // A new app (empty caches) for new requests; those in flight finish on the old one.
      serve: async (served) => {
        const next = serving.build(served);
        await prepare(next, serving);
        api.removeListener('request', app).on('request', next);
        delta?.removeListener('request', app.locals.deltaListener).on('request', next.locals.deltaListener);
        app = next;
      },
    });
  }
  if (io.signal && !io.signal.aborted) await once(io.signal, 'abort');
  checksQuiet.abort();
  const timeoutMs = config.shutdownTimeoutMs ?? 10_000;
  logger.info({ timeoutMs }, 'stopping: no new connections; in-flight requests may finish');
  const outcomes = await Promise.all(
    servers.map(({ server }) => stopGracefully(server, timeoutMs, () => stopping.abort())),
  );
  await Promise.all(datasets.map((d) => d.store.close()));
  logger.info({ inFlight: outcomes[0] === 'aborted' ? 'aborted after the deadline' : 'finished' }, 'stopped');
  return 0;
}

/** Warns of types without members, in the background (a slow store holds nothing up). */
function warnEmpty(config: ServerConfig, datasets: readonly Dataset[], logger: Logger, signal: AbortSignal): void {
  for (const d of datasets) {
    const { graph, endpoint } = config.datasets[d.name] ?? {};
    const where = graph
      ? `graph <${graph}>`
      : endpoint
        ? "the endpoint's default graph"
        : "the union of the files' graphs";
    void warnEmptyTypes(d, { logger: logger.child({ dataset: d.name }), quiet: signal, where });
  }
}

/**
 * How an app is built for a set of datasets, the first and each reload's: one ledger of changes,
 * one set of metrics and one map of engine findings for all of them (see AppOptions).
 */
function appBuilder(
  config: ServerConfig,
  logger: Logger,
  shutdown: AbortSignal,
): (served: readonly Dataset[]) => Express {
  const freshness = new Freshness();
  const names = Object.keys(config.datasets);
  const metrics = new Metrics({ datasets: names, defaultDataset: config.default, processMetrics: true });
  const engines: EngineFindings = new Map();
  const separate = config.metrics?.enabled !== false && config.metrics?.port !== undefined;
  const megabytes = (mb: number) => ({ maxBytes: Math.round(mb * 2 ** 20) });
  const { deltas } = config;
  return (served) =>
    createApp({
      datasets: served,
      defaultDataset: config.default,
      logger,
      ...(config.cors && { cors: config.cors }),
      ...(config.cacheMaxMegabytes !== undefined && { responseCache: megabytes(config.cacheMaxMegabytes) }),
      ...(config.windowCacheMaxMegabytes !== undefined && { windowCache: megabytes(config.windowCacheMaxMegabytes) }),
      sharedMetrics: metrics,
      engines,
      metrics: { ...config.metrics, separate },
      ...(config.health && { health: config.health }),
      ...(config.accessLogSample !== undefined && { accessLogSample: config.accessLogSample }),
      ...(config.maxUrlLength !== undefined && { maxUrlLength: config.maxUrlLength }),
      ...(deltas && {
        deltas: {
          ...(deltas.token !== undefined && { token: deltas.token }),
          ...(deltas.maxBytes !== undefined && { maxBytes: deltas.maxBytes }),
        },
      }),
      freshness,
      shutdown,
    });
}

/**
 * The servers, the API's first: the delta listener before the lists are read ahead (a change
 * made meanwhile is heard, and makes the lists it reaches stale), then the API, then `/metrics`
 * on its own port if it has one. A failure closes those already listening.
 */
async function listenAll(serving: Serving, app: Express): Promise<Listening[]> {
  const { config, logger } = serving;
  const servers: Listening[] = [];
  try {
    if (config.deltas) {
      const listener = createApiServer(app.locals.deltaListener as Express, logger);
      const { host, port } = config.deltas;
      servers.push({ server: await listen(listener, port, host), name: 'delta listener on', host });
    }
    await prepare(app, serving);
    const api = await listen(createApiServer(app, logger), config.port, config.host);
    servers.unshift({ server: api, name: 'listening on', host: config.host });
    if (config.metrics?.enabled !== false && config.metrics?.port !== undefined) {
      const metricsApp = express()
        .disable('x-powered-by')
        .get('/metrics', (req, res, next) => (app.locals.metrics as Handler)(req, res, next));
      const server = await listen(createApiServer(metricsApp, logger), config.metrics.port, config.host);
      servers.push({ server, name: 'metrics on', host: config.host });
    }
    return servers;
  } catch (error) {
    for (const { server } of servers) server.close();
    throw error;
  }
}

/**
 * Starts the engine check (not awaited: a store that is slow or down must not hold anything up)
 * and reads the lists kept without expiry into the window cache, before the app serves, so
 * that no collection's first page waits for its list: the embedded store's, whose files are
 * loaded by now (3 s more at 1M triples), and a fed endpoint's. A failure only warns.
 */
async function prepare(app: Express, { logger, checksQuiet, warming }: Serving): Promise<void> {
  const checks = checksQuiet.signal;
  // Before listening, so that the first request's queries are written in the text order the engine
  // check finds (sparql/text-key.ts): six VALUES-only queries per store, within its deadline.
  await (app.locals.checkEngines as (signal: AbortSignal) => Promise<void>)(checks);
  // Before listening, so that no collection's first page waits for its list. Only lists kept
  // without expiry are read: the embedded store's (3 s more at 1M triples), and an endpoint's when
  // deltas feed it; other lists expire, so a slow endpoint never holds this up. A failure only warns.
  try {
    const warmed = await (app.locals.warmWindowCache as (signal: AbortSignal) => Promise<WarmedDataset[]>)(warming);
    for (const { dataset, lists, ms } of warmed)
      logger.info({ dataset, lists, ms }, `window cache: read ${lists} lists of dataset ${dataset} in ${ms} ms`);
  } catch (error) {
    if (!warming.aborted)
      logger.warn({ err: error }, `could not read the lists into the window cache: ${(error as Error).message}`);
  }
}

async function listen(server: Server, port: number, host: string): Promise<Server> {
  server.listen(port, host);
  await once(server, 'listening');
  return server;
}
