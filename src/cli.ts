#!/usr/bin/env node
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { createApp } from './app.js';
import { serveOptions } from './cli-options.js';
import { applyEnvironment, ConfigError, originSchema, readConfigFile, type ServerConfig } from './config.js';
import { runLoad } from './load/run-load.js';
import { MappingError } from './mapping/load-mapping.js';
import { openDatasets } from './open-datasets.js';

const USAGE = `Usage:
  sparql-jsonapi serve --mapping FILE (--data FILE... | --endpoint URL [--graph IRI]) [options]
  sparql-jsonapi serve --config FILE
  sparql-jsonapi load --endpoint URL [--graph IRI] FILE...     (load --help for its options)

serve options:
  --mapping FILE     mapping file (YAML or JSON)
  --data FILE        RDF file for the embedded store (.ttl .nt .nq .trig); repeat for more
  --endpoint URL     SPARQL 1.1 query endpoint instead of the embedded store
  --graph IRI        named graph to query at the endpoint
  --user U, --password P   credentials for the endpoint (Basic auth)
  --dataset NAME     dataset name in /api/<NAME>/... (default: default)
  --port N           port (default 3000; env PORT)
  --host H           interface to listen on (default 127.0.0.1; env HOST)
  --link-base URL    prefix for every link in responses (default: none, links are /<type>/...)
  --workers N        embedded store worker threads (default 2)
  --cors-origin O    origin whose scripts may read responses; repeat for more (default: any)
  --cache-ttl S      keep 200 responses in memory for S seconds (default 0: no response cache)
  --cache-control V  Cache-Control of 200 and 304 responses (default no-cache)
  --config FILE      several datasets from a YAML/JSON file (see README)
Environment: PORT, HOST, SPARQL_ENDPOINT, SPARQL_GRAPH, SPARQL_USER, SPARQL_PASSWORD, LOG_LEVEL.`;

/** Exit codes: 0 ok, 1 runtime failure (a store or file), 2 bad usage, mapping or configuration. */
async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'load') return runLoad(rest);
  if (command !== 'serve') {
    (command === '--help' ? console.log : console.error)(command === undefined || command === '--help' ? USAGE : `Unknown command '${command}'.\n\n${USAGE}`);
    return command === '--help' ? 0 : 2;
  }
  const { values } = parseArgs({ args: rest, options: serveOptions, strict: true });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const config = applyEnvironment(values.config ? await readConfigFile(values.config) : configFromFlags(values), process.env);
  const logger = pino({ level: process.env.LOG_LEVEL ?? 'info' });
  const datasets = await openDatasets(config, logger);
  const app = createApp({
    datasets,
    defaultDataset: config.default,
    logger,
    ...(config.cors && { cors: config.cors }),
    ...(config.cacheMaxMegabytes !== undefined && { responseCache: { maxBytes: Math.round(config.cacheMaxMegabytes * 2 ** 20) } }),
    processMetrics: true,
  });
  const server = app.listen(config.port, config.host);
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const { port } = server.address() as AddressInfo;
  logger.info({ datasets: datasets.map((d) => `${d.name}: ${d.store.description}`) }, `listening on http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`);
  const stop = () => server.close(() => void Promise.all(datasets.map((d) => d.store.close())).then(() => process.exit(0)));
  process.once('SIGINT', stop).once('SIGTERM', stop);
  return -1; // keep running
}

function configFromFlags(values: ReturnType<typeof parseArgs<{ options: typeof serveOptions }>>['values']): ServerConfig {
  if (!values.mapping) throw new ConfigError('--mapping is required (or --config)');
  if (!values.data?.length === !values.endpoint && !process.env.SPARQL_ENDPOINT) throw new ConfigError('give either --data FILE... or --endpoint URL');
  const name = values.dataset ?? 'default';
  const workers = values.workers === undefined ? undefined : Number(values.workers);
  if (workers !== undefined && !(Number.isInteger(workers) && workers > 0)) throw new ConfigError('--workers must be a positive integer');
  const port = values.port === undefined ? 3000 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`--port: expected a port number, got '${values.port}'`);
  const cacheTtl = values['cache-ttl'] === undefined ? undefined : Number(values['cache-ttl']);
  if (cacheTtl !== undefined && !(Number.isFinite(cacheTtl) && cacheTtl >= 0)) throw new ConfigError(`--cache-ttl: expected a number of seconds, got '${values['cache-ttl']}'`);
  const cacheControl = values['cache-control'];
  if (cacheControl !== undefined && !/^[\x20-\x7e]+$/.test(cacheControl)) throw new ConfigError(`--cache-control: expected a header value in printable ASCII, got '${cacheControl}'`);
  const origins = values['cors-origin'];
  const badOrigin = origins?.find((origin) => origin !== '*' && !originSchema.safeParse(origin).success);
  if (badOrigin !== undefined) throw new ConfigError(`--cors-origin: expected '*' or an origin such as https://app.example.org (no path, no trailing slash), got '${badOrigin}'`);
  return {
    port,
    host: values.host ?? '127.0.0.1',
    default: name,
    ...(origins && { cors: { origins: origins.includes('*') ? '*' : origins } }),
    datasets: {
      [name]: {
        mapping: values.mapping,
        ...(values.data?.length ? { data: values.data } : { endpoint: values.endpoint ?? process.env.SPARQL_ENDPOINT! }),
        ...(values.graph && { graph: values.graph }),
        ...(values.user && { user: values.user }),
        ...(values.password && { password: values.password }),
        ...(values['link-base'] !== undefined && { linkBase: values['link-base'] }),
        ...(workers && { workers }),
        ...(cacheTtl !== undefined && { cacheTtlSeconds: cacheTtl }),
        ...(cacheControl !== undefined && { cacheControl }),
      },
    },
  };
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (error: unknown) => {
    // Problems a user can fix are printed as they are, without a stack trace.
    if (error instanceof MappingError || error instanceof ConfigError) {
      console.error(error.message);
      process.exitCode = 2;
    } else if (error instanceof TypeError && (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      console.error(`${error.message}\n\n${USAGE}`);
      process.exitCode = 2;
    } else {
      console.error(`sparql-jsonapi: ${(error as Error).message ?? error}`);
      process.exitCode = 1;
    }
  },
);
