import { parseArgs } from 'node:util';
import { MappingError } from '../mapping/load-mapping.js';
import { applyEnvironment, ConfigError, readConfigFile, withSwitches } from './config.js';
import { configFromFlags } from './config-flags.js';
import { runImportMu } from './import-mu-command.js';
import { type CliIo, line } from './io.js';
import { runLoad } from './load-command.js';
import { runOpenapi } from './openapi-command.js';
import { serveOptions } from './options.js';
import { runScaffold } from './scaffold-command.js';
import { serve } from './serve.js';

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
  --public-base URL  the URL at which clients reach this server's / (env PUBLIC_BASE_URL): every
                     link of every document, the root document's and /openapi.json's included,
                     is absolute (https://data.example.org/concepts/...); default: paths
  --trust-proxy      behind a proxy that sets them: links follow Forwarded (or X-Forwarded-Proto,
                     -Host, -Prefix) where a request has them well-formed; else --public-base
  --workers N        embedded store worker threads (default 3: a light, a heavy and a spare)
  --cors-origin O    origin whose scripts may read responses; repeat for more (default: any)
  --cache-ttl S      keep 200 responses in memory for S seconds (default 0: no response cache)
  --window-cache-ttl S  keep whole ordered lists (every page cut from them) S seconds, 0 for
                     off (default: no expiry with --data, off with --endpoint)
  --cache-control V  Cache-Control of 200 and 304 responses (default no-cache)
  --filter-syntax mu-cl-resources   also accept mu-cl-resources' filters (filter[:exact:name]=…,
                     filter[relationship][attribute]=…), for its front-ends (docs/mu-cl-resources.md)
  --linkage to-one   relationship objects of to-one relationships carry data (resource linkage)
                     without include, read with the attributes (env LINKAGE; default none:
                     only where the mapping says linkage: true; docs/api.md#linkage)
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
Environment: PORT, HOST, PUBLIC_BASE_URL, LINKAGE, SPARQL_ENDPOINT, SPARQL_GRAPH, SPARQL_USER, SPARQL_PASSWORD, LOG_LEVEL.`;

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
