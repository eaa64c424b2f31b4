import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import express, { type Express } from 'express';
import { type Logger, pino } from 'pino';
import pretty from 'pino-pretty';
import { createApp, type WarmedDataset } from '../app.js';
import { Freshness } from '../cache/freshness.js';
import type { Dataset } from '../dataset.js';
import type { Handler } from '../http/handler.js';
import { Metrics } from '../http/metrics.js';
import { createApiServer, stopGracefully } from '../http/server.js';
import { MappingError } from '../mapping/load-mapping.js';
import { warnEmptyTypes } from '../store/probes/empty-types.js';
import type { EngineFindings } from '../store/probes/engine-check.js';
import {
  applyEnvironment,
  ConfigError,
  configFromFlags,
  readConfigFile,
  type ServerConfig,
  withSwitches,
} from './config.js';
import { runImportMu } from './import-mu-command.js';
import { type CliIo, line } from './io.js';
import { runLoad } from './load-command.js';
import { openDatasets } from './open-datasets.js';
import { runOpenapi } from './openapi-command.js';
import { serveOptions } from './options.js';
import { runScaffold } from './scaffold-command.js';
import { watchFiles } from './watch-files.js';

export const USAGE = `Usage:
  sparql-jsonapi serve [--mapping FILE] (--data FILE... | --endpoint URL) [--graph IRI] [options]
  sparql-jsonapi serve --config FILE
  sparql-jsonapi load --endpoint URL [--graph IRI] FILE...     (load --help for its options)
  sparql-jsonapi scaffold (--data FILE... | --endpoint URL [--graph IRI]) [--out FILE]   (a starter mapping)
  sparql-jsonapi openapi --mapping FILE [--dataset NAME] [--link-base URL]   (OpenAPI 3.1, for client generation)
  sparql-jsonapi import-mu FILE [--out FILE]  (a mapping from mu-cl-resources' domain.json)

serve options:
  --mapping FILE     mapping file (YAML or JSON); without it, one is scaffolded from the data,
                     served, and written beside the first --data file (docs/scaffold.md)
  --data FILE        RDF file for the embedded store (.ttl .nt .nq .trig); repeat for more
  --endpoint URL     SPARQL 1.1 query endpoint instead of the embedded store
  --graph IRI        named graph to serve: the endpoint's, or one of the files' (default:
                     the endpoint's default graph; with --data, the union of the files' graphs)
  --user U, --password P   credentials for the endpoint (Basic auth)
  --dataset NAME     dataset name in /api/<NAME>/... (default: default)
  --port N           port (default 3000; env PORT)
  --host H           interface to listen on (default 127.0.0.1; env HOST)
  --link-base URL    prefix for every link in responses (default: none, links are /<type>/...)
  --workers N        embedded store worker threads (default 3: a light, a heavy and a spare)
  --cors-origin O    origin whose scripts may read responses; repeat for more (default: any)
  --cache-ttl S      keep 200 responses in memory for S seconds (default 0: no response cache)
  --window-cache-ttl S  keep whole ordered lists (every page cut from them) S seconds, 0 for
                     off (default: no expiry with --data, off with --endpoint)
  --cache-control V  Cache-Control of 200 and 304 responses (default no-cache)
  --filter-syntax mu-cl-resources   also accept mu-cl-resources' filters (filter[:exact:name]=…,
                     filter[relationship][attribute]=…), for its front-ends (docs/mu-cl-resources.md)
  --delta-listen HOST:PORT   a second listener for mu delta-notifier's POST /.mu/delta
                     (resourceFormat v0.0.1); with it, the response and window caches are on
                     without expiry and each delta drops what it changes (docs/live-data.md)
  --delta-token T    the listener only hears Authorization: Bearer T
  --watch            reload a dataset whose --data file or --mapping file changes (in the
                     background; a file that fails to load keeps the old one, logged)
  --watch-debounce MS   with --watch: quiet time after a file's last change before it is
                     reloaded (default 200: editors write in steps)
  --explain          answer ?explain-plan: the plan and each SPARQL query in meta.explain
                     (docs/api.md#explain); LOG_LEVEL=debug logs each query too
  --log-requests     log every request (method, URL, status, time)
  --config FILE      several datasets from a YAML/JSON file (see docs/operations.md)
Environment: PORT, HOST, SPARQL_ENDPOINT, SPARQL_GRAPH, SPARQL_USER, SPARQL_PASSWORD, LOG_LEVEL.`;

/**
 * The `sparql-jsonapi` command, without touching `process`: it reads `io.env`, writes to
 * `io.stdout`/`io.stderr`, and resolves its exit code: 0 done, 1 a runtime failure (a store or a
 * file), 2 bad usage, mapping or configuration (printed without a stack trace). `serve` resolves
 * once `io.signal` aborts and the server has closed.
 *
 * @example await main(['serve', '--mapping', 'mappings/sample.yaml', '--data', 'data/sample.ttl'], { stdout: process.stdout, stderr: process.stderr, env: process.env, signal })
 */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    return await command(argv, io);
  } catch (error) {
    if (error instanceof MappingError || error instanceof ConfigError) {
      line(io.stderr, error.message);
      return 2;
    }
    if (error instanceof TypeError && (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      line(io.stderr, `${error.message}\n\n${USAGE}`);
      return 2;
    }
    line(io.stderr, `sparql-jsonapi: ${(error as Error).message ?? error}`);
    return 1;
  }
}

async function command([name, ...rest]: readonly string[], io: CliIo): Promise<number> {
  if (name === 'load') return runLoad(rest, io);
  if (name === 'scaffold') return runScaffold(rest, io);
  if (name === 'openapi') return runOpenapi(rest, io);
  if (name === 'import-mu') return runImportMu(rest, io);
  if (name === '--help') {
    line(io.stdout, USAGE);
    return 0;
  }
  if (name !== 'serve') {
    line(io.stderr, name === undefined ? USAGE : `Unknown command '${name}'.\n\n${USAGE}`);
    return 2;
  }
  const { values } = parseArgs({ args: [...rest], options: serveOptions, strict: true });
  if (values.help) {
    line(io.stdout, USAGE);
    return 0;
  }
  if (values['delta-token'] !== undefined && values['delta-listen'] === undefined)
    throw new ConfigError('--delta-token: give --delta-listen HOST:PORT too');
  if (values['watch-debounce'] !== undefined && !values.watch)
    throw new ConfigError('--watch-debounce: give --watch too');
  const config = values.config ? await readConfigFile(values.config) : configFromFlags(values, io.env);
  return serve(withSwitches(applyEnvironment(config, io.env), values), io);
}

/** Opens the datasets, listens, and closes everything once `io.signal` aborts. */
async function serve(config: ServerConfig, io: CliIo): Promise<number> {
  // Readable on a terminal, one JSON object per line otherwise (for a log collector).
  const output = (io.stdout as { isTTY?: boolean }).isTTY ? pretty({ destination: io.stdout, sync: true }) : io.stdout;
  const logger = pino({ level: io.env.LOG_LEVEL ?? 'info' }, output);
  const datasets = await openDatasets(config, logger);
  const stopping = new AbortController();
  // Not awaited: a store that is slow or down must not hold up start-up; the check only warns.
  const checksQuiet = new AbortController();
  for (const d of datasets) {
    const { graph, endpoint } = config.datasets[d.name] ?? {};
    const where = graph
      ? `graph <${graph}>`
      : endpoint
        ? "the endpoint's default graph"
        : "the union of the files' graphs";
    void warnEmptyTypes(d.name, d.mapping, d.store, logger.child({ dataset: d.name }), checksQuiet.signal, where);
  }
  const separateMetrics = config.metrics?.enabled !== false && config.metrics?.port !== undefined;
  const build = (served: readonly Dataset[]) =>
    createApp({
      datasets: served,
      defaultDataset: config.default,
      logger,
      ...(config.cors && { cors: config.cors }),
      ...(config.cacheMaxMegabytes !== undefined && {
        responseCache: { maxBytes: Math.round(config.cacheMaxMegabytes * 2 ** 20) },
      }),
      ...(config.windowCacheMaxMegabytes !== undefined && {
        windowCache: { maxBytes: Math.round(config.windowCacheMaxMegabytes * 2 ** 20) },
      }),
      sharedMetrics: metrics,
      engines,
      metrics: { ...config.metrics, separate: separateMetrics },
      ...(config.health && { health: config.health }),
      ...(config.accessLogSample !== undefined && { accessLogSample: config.accessLogSample }),
      ...(config.maxUrlLength !== undefined && { maxUrlLength: config.maxUrlLength }),
      ...(config.deltas && {
        deltas: {
          ...(config.deltas.token !== undefined && { token: config.deltas.token }),
          ...(config.deltas.maxBytes !== undefined && { maxBytes: config.deltas.maxBytes }),
        },
      }),
      freshness,
      shutdown: stopping.signal,
    });
  // One ledger of changes and one set of metrics for every app a reload builds (see AppOptions).
  const freshness = new Freshness();
  const names = datasets.map((d) => d.name);
  const metrics = new Metrics({ datasets: names, defaultDataset: config.default, processMetrics: true });
  const engines: EngineFindings = new Map();
  let app = build(datasets);
  const warming = io.signal ? AbortSignal.any([checksQuiet.signal, io.signal]) : checksQuiet.signal;
  const servers: { server: Server; name: string }[] = [];
  let delta: Server | undefined;
  try {
    // The delta listener first: a change made while the lists are read ahead is heard, and makes
    // the lists it reaches stale (they are kept without expiry when deltas feed the dataset).
    if (config.deltas) {
      const listener = createApiServer(app.locals.deltaListener as Express, logger);
      delta = await listen(listener, config.deltas.port, config.deltas.host);
      servers.push({ server: delta, name: 'delta listener on' });
    }
    await prepare(app, logger, checksQuiet.signal, warming);
    servers.unshift({
      server: await listen(createApiServer(app, logger), config.port, config.host),
      name: 'listening on',
    });
    if (separateMetrics) {
      const metricsApp = express()
        .disable('x-powered-by')
        .get('/metrics', (req, res, next) => (app.locals.metrics as Handler)(req, res, next));
      servers.push({
        server: await listen(createApiServer(metricsApp, logger), config.metrics!.port!, config.host),
        name: 'metrics on',
      });
    }
  } catch (error) {
    checksQuiet.abort();
    for (const { server } of servers) server.close();
    await Promise.all(datasets.map((d) => d.store.close()));
    throw error;
  }
  for (const { server, name } of servers) {
    const { port } = server.address() as AddressInfo;
    const named = server === delta ? config.deltas!.host : config.host;
    const host = named.includes(':') ? `[${named}]` : named;
    logger.info(
      { datasets: datasets.map((d) => `${d.name}: ${d.store.description}`) },
      `${name} http://${host}:${port}`,
    );
  }
  if (config.watch) {
    watchFiles({
      config,
      datasets,
      logger,
      signal: checksQuiet.signal,
      ...(config.watchDebounceMs !== undefined && { debounceMs: config.watchDebounceMs }),
      // A new app (empty caches) for new requests; those in flight finish on the old one.
      serve: async (served) => {
        const next = build(served);
        await prepare(next, logger, checksQuiet.signal, warming);
        servers[0]!.server.removeListener('request', app).on('request', next);
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

/**
 * Starts the engine check (not awaited: a store that is slow or down must not hold anything up)
 * and reads the lists kept without expiry into the window cache, before the app serves, so
 * that no collection's first page waits for its list: the embedded store's, whose files are
 * loaded by now (3 s more at 1M triples), and a fed endpoint's. A failure only warns.
 */
async function prepare(app: Express, logger: Logger, checks: AbortSignal, warming: AbortSignal): Promise<void> {
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
