import { execFile } from 'node:child_process';
import { copyFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import SimpleClient from 'sparql-http-client/SimpleClient.js';
import { Agent, fetch as undiciFetch } from 'undici';
import { findExecutable, startLocalVirtuoso } from '../scripts/virtuoso-local.js';
import { retryStaleSocket } from '../src/store/fetch-retry.js';
import { createHttpStore } from '../src/store/http-store.js';
import { LargeAnswers } from '../src/store/large-answers.js';
import { createOxigraphStore } from '../src/store/oxigraph-store.js';
import { MAX_GET_QUERY_LENGTH } from '../src/store/protocol-request.js';
import type { Lane, Store } from '../src/store/store.js';
import type { BenchDataset } from './datasets.js';
import type { Loader, StoreKind } from './options.js';

export const BENCH_GRAPH = 'http://linkedeconomy.org/graph/bench';
/** Threads of the embedded store, in the server and in the floor's copy alike (the server's default). */
export const EMBEDDED_WORKERS = 3;

/** A store loaded with one dataset: what the server's config needs, and the floor's direct line to it. */
export interface BenchStore {
  readonly kind: StoreKind;
  /** The dataset entry of the server's config file (without the mapping). */
  readonly serverConfig: Record<string, unknown>;
  /** The store the recording app runs on: the same adapter and settings as the server's. */
  readonly store: Store;
  /**
   * Sends one query straight to the store and waits for the whole answer: the floor. As the server
   * did: an embedded store in its lane; over loopback, a kind of query (`label`) whose last answer
   * was large on a connection of its own (`src/store/large-answers.ts`).
   */
  readonly send: (query: string, lane: Lane, label?: string) => Promise<unknown>;
  /** Load time (Virtuoso); the embedded store's load time comes from the server's log. */
  readonly loadMs?: number;
  /** How the data went in (Virtuoso). */
  readonly loader?: Loader;
  /** `mu:uuid` triples added beside the data (Virtuoso: for the peer). */
  readonly muUuids?: number;
  /** The store's own process (Virtuoso), for its CPU time; the embedded store runs inside the server. */
  readonly pid?: number;
  readonly version?: string;
  /** The tuned settings in force, for the report. */
  readonly settings?: Record<string, string>;
  stop(): Promise<void>;
}

/** Where `virtuoso-t` and `isql` are, or why the Virtuoso part can't run. */
export function virtuosoTools(): { binary: string; isql: string } | { missing: string } {
  const binary = process.env.VIRTUOSO_T || findExecutable('virtuoso-t');
  const isql = findExecutable('isql-vt') ?? findExecutable('isql');
  if (!binary || !isql) return { missing: 'no virtuoso-t/isql-vt on PATH (apt-get install virtuoso-opensource-7-bin)' };
  return { binary, isql };
}

/**
 * The window cache key of the server's dataset entry: `--window-cache` as given, or nothing, which
 * leaves the server's default.
 */
export const windowCacheConfig = (ttlSeconds: number | undefined) =>
  ttlSeconds === undefined ? {} : { windowCacheTtlSeconds: ttlSeconds };

/** The server's dataset entry for the embedded store: the generated file, the default worker count. */
export const embeddedServerConfig = (dataset: BenchDataset, windowCacheTtlSeconds?: number) => ({
  data: [dataset.file],
  workers: EMBEDDED_WORKERS,
  ...windowCacheConfig(windowCacheTtlSeconds),
});

/**
 * The floor's copy of the embedded store: the same files and worker count as the server's, in
 * this process. Its floor is `Store.select` (worker hop, Oxigraph, result parsing): an in-process
 * store has no wire to stop at.
 */
export async function embeddedStore(dataset: BenchDataset, windowCacheTtlSeconds?: number): Promise<BenchStore> {
  const store = await createOxigraphStore({ files: [dataset.file], workers: EMBEDDED_WORKERS });
  return {
    kind: 'embedded',
    serverConfig: embeddedServerConfig(dataset, windowCacheTtlSeconds),
    store,
    send: (query, lane) => store.select(query, { lane }),
    stop: () => store.close(),
  };
}

/** How {@link virtuosoStore} fills its Virtuoso. */
export interface VirtuosoLoad {
  readonly loader: Loader;
  /** Add the dataset's `mu:uuid` supplement (`datasets.ts`), so that a peer can serve the graph too. */
  readonly muUuids: boolean;
  readonly windowCacheTtlSeconds?: number;
}

/**
 * A fresh local Virtuoso (scripts/virtuoso-local.ts: the tuned ini of the Virtuoso issue) with
 * `dataset` (and its `mu:uuid` supplement when asked) in {@link BENCH_GRAPH}, put there by
 * `load.loader` ({@link loadFiles}). The floor sends each query as the server's http-store does
 * (same client, method, headers and `default-graph-uri`) and reads the body without parsing it.
 */
export async function virtuosoStore(
  dataset: BenchDataset,
  tools: { binary: string; isql: string },
  load: VirtuosoLoad,
): Promise<BenchStore> {
  const local = await startLocalVirtuoso(tools.binary, tools.isql);
  try {
    const endpointUrl = `http://127.0.0.1:${local.httpPort}/sparql`;
    const uuids = load.muUuids ? dataset.muUuids : undefined;
    if (load.muUuids && uuids === undefined) throw new Error(`the ${dataset.size} dataset has no mu:uuid supplement`);
    const files = [dataset.file, ...(uuids ? [uuids.file] : [])];
    const expected = dataset.triples + (uuids?.triples ?? 0);
    const started = performance.now();
    await loadFiles(load.loader, files, { ...local, isqlPath: tools.isql });
    const loadMs = Math.round(performance.now() - started);
    const store = createHttpStore({ endpointUrl, graph: BENCH_GRAPH, timeoutMs: 300_000 });
    const [row] = await store.select('SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }');
    const loaded = Number(row?.n?.value);
    if (loaded !== expected)
      throw new Error(`Virtuoso holds ${loaded} triples after loading (${load.loader}), expected ${expected}`);
    // The floor's client: sparql-http-client on Node's fetch, as a plain script would send the server's
    // SPARQL (the server itself sends on an undici pool with `request()`, which costs less CPU). The
    // kinds of query that answered large last time go on connections that close after their answer,
    // as the server sends them (undici's fetch with keep-alive off), so that neither waits 40 ms for a
    // delayed acknowledgement (large-answers.ts).
    const kept = new SimpleClient({ endpointUrl, fetch: (input, init) => fetch(input, init) });
    const closing = new Agent({ pipelining: 0 });
    const own = new SimpleClient({
      endpointUrl,
      fetch: ((input: string, init: object) =>
        undiciFetch(input, { ...init, dispatcher: closing })) as unknown as typeof fetch,
    });
    const largeAnswers = new LargeAnswers({ loopback: true }); // the bench's Virtuoso listens on 127.0.0.1
    const send = async (query: string, _lane: Lane, label?: string) => {
      const client = largeAnswers.ownConnection(label) ? own : kept;
      // Once more on a keep-alive socket Virtuoso had closed, as the server does (fetch-retry.ts).
      const response = await retryStaleSocket(() =>
        client.query.select(query, {
          operation: query.length > MAX_GET_QUERY_LENGTH ? 'postUrlencoded' : 'get',
          defaultGraph: BENCH_GRAPH,
        }),
      );
      const body = await response.text();
      largeAnswers.answered(label, body.length);
      if (!response.ok) throw new Error(`Virtuoso answered HTTP ${response.status}: ${body.slice(0, 200)}`);
      return body;
    };
    const version = await promisify(execFile)(tools.binary, ['-?']).then(
      ({ stdout, stderr }) => versionOf(stdout + stderr),
      (e: { stdout?: string; stderr?: string }) => versionOf(`${e.stdout ?? ''}${e.stderr ?? ''}`),
    );
    return {
      kind: 'virtuoso',
      serverConfig: {
        endpoint: endpointUrl,
        graph: BENCH_GRAPH,
        timeoutMs: 300_000,
        ...windowCacheConfig(load.windowCacheTtlSeconds),
      },
      store,
      send,
      loadMs,
      loader: load.loader,
      muUuids: uuids?.triples ?? 0,
      ...(local.pid !== undefined && { pid: local.pid }),
      version,
      settings: await virtuosoSettings(tools.isql, local.sqlPort),
      stop: async () => {
        await closing.close();
        await local.stop();
      },
    };
  } catch (error) {
    await local.stop();
    throw error;
  }
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Puts `files` into {@link BENCH_GRAPH}. `load`: this project's `load` command from the sources
 * (as the server runs: no stale build), as the README has users do it, through `/sparql-auth` as
 * dba, with its defaults (staging graph, the Graph Store endpoint it guesses for Virtuoso); no
 * checkpoint after, as a user makes none. `bulk`: Virtuoso's bulk loader (`ld_dir` +
 * `rdf_loader_run`) from copies inside the database folder, which DirsAllowed lists, then a
 * checkpoint.
 */
async function loadFiles(
  loader: Loader,
  files: readonly string[],
  local: { readonly httpPort: number; readonly sqlPort: number; readonly dir: string; readonly isqlPath: string },
): Promise<void> {
  if (loader === 'load') {
    const endpoint = `http://127.0.0.1:${local.httpPort}/sparql-auth`;
    const args = ['--import', 'tsx', 'src/cli/bin.ts', 'load', '--endpoint', endpoint, '--user', 'dba'];
    await promisify(execFile)(process.execPath, [...args, '--password', 'dba', '--graph', BENCH_GRAPH, ...files], {
      cwd: ROOT,
      maxBuffer: 64 * 1024 * 1024,
    }).catch((error: { stderr?: string; message: string }) => {
      throw new Error(`sparql-jsonapi load failed: ${(error.stderr ?? error.message).trim().slice(-800)}`);
    });
    return;
  }
  const dirs: string[] = [];
  for (const file of files) {
    await copyFile(file, join(local.dir, basename(file)));
    dirs.push(`ld_dir('${local.dir}', '${basename(file)}', '${BENCH_GRAPH}');`);
  }
  await isql(local.isqlPath, local.sqlPort, `${dirs.join(' ')} rdf_loader_run(); checkpoint;`);
  const failed = await isql(
    local.isqlPath,
    local.sqlPort,
    'SELECT ll_file, ll_error FROM DB.DBA.LOAD_LIST WHERE ll_error IS NOT NULL;',
  );
  if (/\.nt/.test(failed)) throw new Error(`Virtuoso's bulk loader failed: ${failed.trim()}`);
}

function versionOf(text: string): string {
  return /Version (\S+)/.exec(text)?.[1] ?? 'unknown version';
}

/** The ini settings that matter for speed, as the running server reads them. */
async function virtuosoSettings(isqlPath: string, port: number): Promise<Record<string, string>> {
  const keys = [
    ['Parameters', 'NumberOfBuffers'],
    ['Parameters', 'MaxDirtyBuffers'],
    ['Parameters', 'MaxSortedTopRows'],
    ['Parameters', 'VectorSize'],
    ['Parameters', 'ThreadsPerQuery'],
    ['Parameters', 'MaxQueryMem'],
    ['HTTPServer', 'ServerThreads'],
    ['SPARQL', 'ResultSetMaxRows'],
  ];
  const settings: Record<string, string> = {};
  for (const [section, key] of keys) {
    const output = await isql(isqlPath, port, `SELECT cfg_item_value(virtuoso_ini_path(), '${section}', '${key}');`);
    settings[`${section}.${key}`] = /\n\s*([^\s\n]+)\s*\n\s*1 Rows/.exec(output)?.[1] ?? '?';
  }
  return settings;
}

/** Runs SQL through isql; isql exits 0 even when a statement fails, so its output is checked. */
async function isql(isqlPath: string, port: number, sql: string): Promise<string> {
  const { stdout, stderr } = await promisify(execFile)(isqlPath, [`127.0.0.1:${port}`, 'dba', 'dba', `exec=${sql}`], {
    maxBuffer: 16 * 1024 * 1024,
  });
  const output = stdout + stderr;
  if (/\*\*\* Error/.test(output)) throw new Error(`isql: ${sql}: ${output.trim().slice(0, 500)}`);
  return output;
}
