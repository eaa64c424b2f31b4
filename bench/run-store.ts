import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../src/app.js';
import type { DatasetConfig } from '../src/cli/config.js';
import { datasetOptions } from '../src/cli/open-datasets.js';
import { loadMapping } from '../src/mapping/load-mapping.js';
import type { Lane } from '../src/store/store.js';
import { compressionCosts, pageByCoding } from './compression.js';
import type { BenchDataset } from './datasets.js';
import { type KeepAliveClient, keepAliveClient } from './keep-alive-client.js';
import { type KeepAliveTarget, keepAliveShape } from './keep-alive-shape.js';
import {
  bareHop,
  type ConcurrentResult,
  concurrencyFits,
  concurrentFloor,
  concurrentServer,
  get,
  interference,
  type SkippedRun,
  sequential,
  waitIdle,
} from './measure.js';
import type { BenchOptions, StoreKind } from './options.js';
import { type PeerProcess, startPeer } from './peer.js';
import { groupWaves, type RecordedQuery, recordingStore, type Wave } from './recording-store.js';
import type { NotApplicable, ShapeResult, StoreResult } from './results.js';
import { type ServerProcess, ServerRefused, startServer } from './server-process.js';
import {
  errorDetail,
  NotAvailable,
  peerPathOf,
  SHAPES,
  type Shape,
  type ShapeContext,
  sequence,
  spread,
} from './shapes.js';
import { percentile } from './stats.js';
import { BENCH_GRAPH, type BenchStore, embeddedServerConfig, embeddedStore, virtuosoStore } from './stores.js';

export const MAPPING = new URL('../mappings/sample.yaml', import.meta.url).pathname;
/** The 100-item page of the compression figures: 64 KB uncompressed at every size. */
const PAGE_OF_100 = '/trade-activities?page%5Bsize%5D=100';
/** Each shape's sequential warm-up lasts at least this long (`sequential`): the server's hot path compiled. */
const WARMUP_MS = 2_000;
/**
 * The response cache's dataset option. The cache is built on another branch; until it is merged
 * the server refuses the key and the cache figure is reported as n/a with the server's message.
 */
export const CACHE_OPTION = { cacheTtlSeconds: 60 };

const log = (line: string) => console.error(`[bench ${(performance.now() / 1000).toFixed(1)}s] ${line}`);

/**
 * Every figure for one store at one size: starts the store and the server (a child process),
 * learns each shape's SPARQL through a recording app on the same store, then measures the
 * server and the floor side by side, and the store-specific figures.
 */
export async function benchStore(
  kind: StoreKind,
  dataset: BenchDataset,
  options: BenchOptions,
  workDir: string,
  virtuosoTools?: { binary: string; isql: string },
): Promise<StoreResult> {
  const mapping = await loadMapping(MAPPING);
  let store: BenchStore | undefined;
  let server: ServerProcess | undefined;
  let recorder: Server | undefined;
  let peer: PeerProcess | undefined;
  const client = options.clients.includes('keep-alive') ? keepAliveClient() : undefined;
  try {
    const windowCache = options.windowCacheTtlSeconds;
    if (kind === 'virtuoso') {
      log(
        `${dataset.size} virtuoso: starting, loading ${dataset.triples} + ${dataset.muUuids?.triples ?? 0} mu:uuid triples (${options.loader})`,
      );
      store = await virtuosoStore(dataset, virtuosoTools!, {
        loader: options.loader,
        muUuids: true,
        ...(windowCache !== undefined && { windowCacheTtlSeconds: windowCache }),
      });
      log(`${dataset.size} virtuoso: loaded in ${store.loadMs} ms`);
    }
    // The embedded server loads alone, so its load time and memory are its own.
    server = await startServer(
      { mapping: MAPPING, ...(store?.serverConfig ?? embeddedServerConfig(dataset, windowCache)) },
      workDir,
    );
    const afterLoad = await server.memory();
    const embeddedLoadMs = server.loadMs;
    log(
      `${dataset.size} ${kind}: server ${server.url} ready${server.loadMs === undefined ? '' : `, store loaded in ${server.loadMs} ms`}, RSS ${mb(afterLoad.rss)}`,
    );
    store ??= await embeddedStore(dataset, windowCache);
    let peerInfo: { command: string } | NotApplicable | undefined;
    if (client) {
      ({ peer, peerInfo } = await startPeerBeside(store, options, workDir));
      log(
        `${dataset.size} ${kind}: ${peer ? `peer ${peer.url} (pid ${peer.pid})` : `no peer (${(peerInfo as NotApplicable).na})`}`,
      );
    }

    // The recording app has the server's options (its window cache too), so it sends what the server sends.
    const serverOptions = datasetOptions({ mapping: MAPPING, ...store.serverConfig } as DatasetConfig);
    const queries: RecordedQuery[] = [];
    const app = createApp({
      datasets: [
        { name: 'bench', mapping, store: recordingStore(store.store, queries), linkBase: '', options: serverOptions },
      ],
    });
    recorder = await new Promise<Server>((resolve) => {
      const listening: Server = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    const recorderUrl = `http://127.0.0.1:${(recorder.address() as AddressInfo).port}`;
    const base = server.url;
    const context: ShapeContext = {
      dataset,
      get: (path, accept = 'application/vnd.api+json') => get(base, path, accept),
    };

    // The idle time of a quick request, to tell when the backlog of a concurrent run is gone.
    const probePath = `/trade-activities/${dataset.activityIds[0]}`;
    const probe = async () => (await get(base, probePath, 'application/vnd.api+json')).ms;
    for (let i = 0; i < 5; i++) await probe();
    const idle: number[] = [];
    for (let i = 0; i < 5; i++) idle.push(await probe());
    const idleMs = percentile(idle, 50);
    const settle = async () => {
      const waited = await waitIdle(probe, idleMs);
      if (waited > 1000)
        log(
          `${dataset.size} ${kind}: waited ${(waited / 1000).toFixed(1)} s for the server to finish abandoned requests`,
        );
    };

    const shapes: ShapeResult[] = [];
    const urlsByShape = new Map<string, string[]>();
    let abandoned = false;
    const ordered = [...SHAPES].sort((a, b) => Number(a.last ?? false) - Number(b.last ?? false));
    for (const [index, shape] of ordered.entries()) {
      const { result, urls, timedOut } = await benchShape(shape, context, {
        base,
        recorderUrl,
        queries,
        send: store.send,
        options,
        settle,
        ...(client && {
          keepAlive: { client, serverPid: server.pid, storePid: store.pid, peer, peerFirst: index % 2 === 1 },
        }),
      });
      abandoned ||= timedOut ?? false;
      if (urls) urlsByShape.set(shape.key, urls);
      log(
        `${dataset.size} ${kind}: ${shape.label}: ${result.status === 'ok' ? `p50 ${result.sequential.server.p50.toFixed(1)} ms, floor ${result.sequential.floor.p50.toFixed(1)} ms` : `n/a (${result.reason})`}`,
      );
      shapes.push(result);
    }
    shapes.sort((a, b) => SHAPES.findIndex((s) => s.key === a.key) - SHAPES.findIndex((s) => s.key === b.key));

    // The 100-item page compressed and not, and what compressing each shape's body costs.
    log(`${dataset.size} ${kind}: the 100-item page by Accept-Encoding; compression's CPU per shape`);
    const compression = await pageByCoding(
      server.url,
      PAGE_OF_100,
      options.smoke ? 5 : 50,
      options.connections[0] ?? 10,
      options.durationSeconds,
    );
    const firstUrls = new Map([
      ...SHAPES.filter((s) => urlsByShape.has(s.key)).map((s) => [s.label, urlsByShape.get(s.key)![0]!] as const),
      ['100-item page', PAGE_OF_100] as const,
    ]);
    const compressionCost = await compressionCosts(server.url, firstUrls, options.smoke ? 5 : 50);

    let peakRss = (await server.memory()).peakRss;
    if (abandoned) {
      // A request that outlasted its limit still runs in the server: start afresh, so the
      // interference figure sees one slow sort, not a leftover besides.
      log(`${dataset.size} ${kind}: restarting the server to drop a request that outlasted its limit`);
      await server.stop();
      server = await startServer({ mapping: MAPPING, ...store.serverConfig }, workDir);
    }
    const serverUrl = server.url;
    const single = urlsByShape.get('single');
    // The sort runs beside the single requests even when it is too slow to measure on its own.
    const slow = await SHAPES.find((s) => s.key === 'sorted-to-many')!.urls(context);
    const interferenceResult = single
      ? await interference(
          async (i) => (await get(serverUrl, single[i % single.length]!, 'application/vnd.api+json')).ms,
          async (i, signal) => void (await get(serverUrl, slow[i % slow.length]!, 'application/vnd.api+json', signal)),
          options.smoke ? 5 : 100,
        )
      : { na: 'needs the single-resource shape' };
    peakRss = Math.max(peakRss, (await server.memory()).peakRss);
    const memory = { afterLoad: afterLoad.rss, peak: peakRss };
    await server.stop();
    server = undefined;

    log(`${dataset.size} ${kind}: interference measured; cache run`);
    const cache = single
      ? await cachedRequest(store, single[0]!, workDir, options)
      : { na: 'needs the single-resource shape' };
    const hop = await bareHop(options.smoke ? 20 : 500);
    return {
      store: kind,
      size: dataset.size,
      triples: dataset.triples,
      description: store.store.description,
      loadMs: (kind === 'virtuoso' ? store.loadMs : embeddedLoadMs) ?? Number.NaN,
      ...(store.loader && { loader: store.loader }),
      ...(store.muUuids !== undefined && { muUuids: store.muUuids }),
      ...(peerInfo && { peer: peerInfo }),
      memory,
      ...(store.version && { version: store.version }),
      ...(store.settings && { settings: store.settings }),
      windowCache: windowCacheSetting(serverOptions.windowCacheTtlSeconds),
      shapes,
      interference: interferenceResult,
      hop,
      cache,
      compression,
      compressionCost,
    };
  } finally {
    client?.close();
    await peer?.stop();
    await server?.stop();
    await new Promise((resolve) => (recorder ? recorder.close(resolve) : resolve(undefined)));
    await store?.stop();
  }
}

/**
 * The peer beside the server on the same store and graph (`$BENCH_PEER`), or why there is none:
 * not asked for, no SPARQL endpoint (the embedded store), or it would not start (the run goes on
 * without it, and the exit code says so).
 */
async function startPeerBeside(
  store: BenchStore,
  options: BenchOptions,
  workDir: string,
): Promise<{ peer?: PeerProcess; peerInfo: { command: string } | NotApplicable }> {
  if (options.peer === undefined) return { peerInfo: { na: 'no peer: BENCH_PEER is not set' } };
  const endpoint = store.serverConfig.endpoint;
  if (typeof endpoint !== 'string') return { peerInfo: { na: 'no peer: the peer needs a SPARQL endpoint (Virtuoso)' } };
  try {
    const peer = await startPeer(options.peer, {
      endpoint,
      graph: BENCH_GRAPH,
      readyPath: '/trade-activities?page%5Bsize%5D=1',
      logFile: `${workDir}/peer-${Date.now()}.log`,
      timeoutMs: 120_000,
    });
    return { peer, peerInfo: { command: peer.command } };
  } catch (error) {
    process.exitCode = 1;
    console.error(`\n!!! the peer did not start: ${(error as Error).message}\n`);
    return { peerInfo: { na: `no peer: it did not start: ${(error as Error).message.split('\n')[0]}` } };
  }
}

interface ShapeRun {
  readonly base: string;
  readonly recorderUrl: string;
  readonly queries: RecordedQuery[];
  readonly send: (query: string, lane: Lane, label?: string) => Promise<unknown>;
  readonly options: BenchOptions;
  /** Waits until the server is idle again after a concurrent run. */
  readonly settle: () => Promise<void>;
  /** The keep-alive client's run of the shape, when `--clients` has it. */
  readonly keepAlive?: {
    readonly client: KeepAliveClient;
    readonly serverPid: number;
    readonly storePid: number | undefined;
    readonly peer: PeerProcess | undefined;
    readonly peerFirst: boolean;
  };
}

/** One shape on one store: n/a when the server refuses it, otherwise sequential, concurrent and floor figures. */
async function benchShape(
  shape: Shape,
  context: ShapeContext,
  run: ShapeRun,
): Promise<{ result: ShapeResult; urls?: string[]; timedOut?: boolean }> {
  const { key, label } = shape;
  const na = (reason: string) => ({ result: { key, label, status: 'n/a' as const, reason } });
  let all: string[];
  try {
    all = await shape.urls(context);
  } catch (error) {
    return na(error instanceof NotAvailable ? error.message : `could not build its URLs: ${causes(error)}`);
  }
  // A fresh shape's requests each take the next URL, one never sent before; the rotation (what
  // the floor replays) is a sample spread over them. Other shapes cycle through the rotation.
  const urls = shape.fresh ? spread(all, run.options.maxRotation) : all.slice(0, run.options.maxRotation);
  const next = shape.fresh ? sequence(all) : undefined;
  const serverPath = (i: number) => next?.() ?? urls[i % urls.length]!;
  let first: Awaited<ReturnType<typeof get>>;
  try {
    first = await get(run.base, serverPath(0), shape.accept, AbortSignal.timeout(REQUEST_LIMIT_MS));
  } catch (error) {
    const timedOut = (error as Error).name === 'TimeoutError';
    return {
      ...na(
        timedOut ? `one request took more than ${REQUEST_LIMIT_MS / 1000} s` : `the request failed: ${causes(error)}`,
      ),
      timedOut,
    };
  }
  if (first.status !== 200) return na(`HTTP ${first.status}${errorDetail(first.body)}`);
  const lack = shape.lacks?.(first.body);
  if (lack) return na(lack);

  // An offset page counts in meta.count, a cursor page in meta.page.total.
  const meta = (first.body as { meta?: { count?: unknown; page?: { total?: unknown } } }).meta;
  const hasCount = typeof meta?.count === 'number' || typeof meta?.page?.total === 'number';
  const { options } = run;
  try {
    // The exact SPARQL of every URL of the rotation, and which queries went out together.
    // Each recorded after one read of it, as the measured server sends them once warm: with the
    // list cached (window cache), or its last histogram placing the page (execute/histogram-window.ts).
    const waves: Wave[][] = [];
    for (const url of urls) {
      await get(run.recorderUrl, url, shape.accept, AbortSignal.timeout(REQUEST_LIMIT_MS));
      run.queries.length = 0;
      const recorded = await get(run.recorderUrl, url, shape.accept, AbortSignal.timeout(REQUEST_LIMIT_MS));
      if (recorded.status !== 200) return na(`recording ${url}: HTTP ${recorded.status}${errorDetail(recorded.body)}`);
      waves.push(groupWaves(run.queries));
    }
    // A fresh shape's server sends text the store has never seen, which Virtuoso compiles anew
    // (about 0.8 ms for a single resource's query at 100k; a text it has seen is planned from its
    // cache). The floor's texts were seen when they were recorded, so each replay of a fresh shape
    // ends in a comment of its own: the same query, new to the store, as the server's are.
    let replays = 0;
    const sent = (query: string) => (shape.fresh ? `${query}\n# floor ${++replays}` : query);
    const replay = async (i: number) => {
      for (const wave of waves[i % waves.length]!)
        await Promise.all(wave.map(({ query, lane, label }) => run.send(sent(query), lane, label)));
    };
    const seq = await sequential({
      warmup: Math.min(urls.length, options.smoke ? 1 : 10),
      warmupMs: options.smoke ? 0 : WARMUP_MS,
      iterations: options.iterations,
      budgetMs: options.sequentialBudgetSeconds * 1000,
      server: (i) => get(run.base, serverPath(i), shape.accept),
      floor: replay,
    });
    const seconds = options.durationSeconds;
    const p50 = seq.server.p50;
    const skip = (connections: number): SkippedRun => ({
      connections,
      skipped: `p50 ${(p50 / 1000).toFixed(1)} s × ${connections} connections is more than a ${seconds} s run can measure`,
    });
    const concurrent: (ConcurrentResult | SkippedRun)[] = [];
    const autocannonRuns = options.clients.includes('autocannon') ? options.connections : [];
    for (const connections of autocannonRuns) {
      if (!concurrencyFits(p50, connections, seconds)) {
        concurrent.push(skip(connections));
        continue;
      }
      concurrent.push(await concurrentServer(run.base, next ?? sequence(urls), shape.accept, connections, seconds));
      await run.settle();
    }
    const floorConnections = options.connections[0]!;
    const floorConcurrent =
      autocannonRuns.length === 0
        ? { connections: floorConnections, skipped: 'no autocannon run (--clients)' }
        : concurrencyFits(seq.floor.p50, floorConnections, seconds)
          ? await concurrentFloor(replay, urls.length, floorConnections, seconds)
          : skip(floorConnections);
    const keepAlive = run.keepAlive && (await keepAliveOf(shape, { urls, all, next }, run));
    const result: ShapeResult = {
      key,
      label,
      status: 'ok',
      rotation: next ? all.length : urls.length,
      example: urls[0]!,
      waves: waves[0]!.map((wave) => wave.length),
      queryBudget: 2 + (hasCount ? 1 : 0) + shape.includeLevels,
      sequential: seq,
      concurrent,
      floorConcurrent,
      ...(keepAlive && { keepAlive }),
    };
    return { result, urls };
  } catch (error) {
    return na(`failed while measuring: ${causes(error)}`);
  }
}

/**
 * The shape under the keep-alive client (`keep-alive-shape.ts`), beside the peer when one runs:
 * the rotation's URLs, or for a fresh shape the next ones never sent (the peer has a sequence of
 * its own from the start, so that it too meets each page the first time). n/a, with the reason,
 * when it fails.
 */
async function keepAliveOf(
  shape: Shape,
  paths: { readonly urls: readonly string[]; readonly all: readonly string[]; readonly next?: () => string },
  run: ShapeRun,
): Promise<NonNullable<Extract<ShapeResult, { status: 'ok' }>['keepAlive']>> {
  const keepAlive = run.keepAlive!;
  const server: KeepAliveTarget = {
    base: run.base,
    pid: keepAlive.serverPid,
    path: paths.next ?? ((i) => paths.urls[i % paths.urls.length]!),
  };
  const peerExample = peerPathOf(shape, paths.urls[0]!);
  const peerNext = shape.fresh ? sequence(paths.all) : undefined;
  const peerPath = (i: number) => peerPathOf(shape, peerNext?.() ?? paths.urls[i % paths.urls.length]!) as string;
  const peer: KeepAliveTarget | NotApplicable =
    keepAlive.peer === undefined
      ? { na: 'no peer' }
      : typeof peerExample !== 'string'
        ? peerExample
        : { base: keepAlive.peer.url, pid: keepAlive.peer.pid, path: peerPath };
  try {
    return await keepAliveShape({
      client: keepAlive.client,
      protocol: run.options.keepAlive,
      accept: shape.accept,
      warmup: paths.urls.length,
      server,
      peer,
      storePid: keepAlive.storePid,
      peerFirst: keepAlive.peerFirst,
    });
  } catch (error) {
    return { na: `the keep-alive run failed: ${causes(error)}` };
  }
}

/**
 * The repeated identical request with the response cache on: a server started with the cache
 * option (n/a when this server doesn't know it yet), one URL, the first connection count.
 */
async function cachedRequest(
  store: BenchStore,
  path: string,
  workDir: string,
  options: BenchOptions,
): Promise<StoreResult['cache']> {
  let server: ServerProcess;
  try {
    server = await startServer({ mapping: MAPPING, ...store.serverConfig, ...CACHE_OPTION }, workDir);
  } catch (error) {
    if (error instanceof ServerRefused)
      return { na: `the server refused ${JSON.stringify(CACHE_OPTION)}: ${error.message}` };
    throw error;
  }
  try {
    const warm = await get(server.url, path, 'application/vnd.api+json');
    if (warm.status !== 200) return { na: `HTTP ${warm.status}${errorDetail(warm.body)}` };
    const { connections, requestsPerSecond, p50, p99, failed } = await concurrentServer(
      server.url,
      () => path,
      'application/vnd.api+json',
      options.connections[0]!,
      options.durationSeconds,
    );
    return { connections, requestsPerSecond, p50, p99, failed };
  } finally {
    await server.stop();
  }
}

/** A shape whose first request takes longer is n/a: its figures would take hours to gather. */
const REQUEST_LIMIT_MS = 120_000;

/** `fetch failed` says nothing: the messages of the error and its causes. */
const causes = (error: unknown): string => {
  const parts: string[] = [];
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) parts.push(e.message);
  return parts.join(': ');
};

const mb = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MB`;

/** The server's window cache as the report states it. */
const windowCacheSetting = (ttlSeconds: number): string =>
  ttlSeconds <= 0 ? 'off' : Number.isFinite(ttlSeconds) ? `on, ${ttlSeconds} s TTL` : 'on, no expiry';
