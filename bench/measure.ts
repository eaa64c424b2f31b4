import { spawn } from 'node:child_process';
import autocannon from 'autocannon';
import { errorDetail } from './shapes.js';
import { type LatencySummary, parseServerTiming, type SparqlTiming, summarize } from './stats.js';

/** One HTTP GET to the server under test, read to the end. */
export interface Fetched {
  readonly status: number;
  readonly ms: number;
  readonly timing?: SparqlTiming;
  readonly body: unknown;
}

/**
 * GETs `base + path` over the process's keep-alive pool (Node's fetch) and reads the whole body;
 * the time runs from the call until the last byte.
 *
 * `signal` aborts it (a time limit for requests that may never end in a useful time).
 *
 * @example const { status, ms, timing } = await get('http://127.0.0.1:3000', '/concepts', 'application/vnd.api+json');
 */
export async function get(base: string, path: string, accept: string, signal?: AbortSignal): Promise<Fetched> {
  const start = performance.now();
  // Uncompressed, as autocannon asks, so that figures compare with earlier runs; the compression
  // section (compression.ts) measures the codings apart.
  const response = await fetch(base + path, {
    headers: { accept, 'accept-encoding': 'identity' },
    ...(signal && { signal }),
  });
  const text = await response.text();
  const ms = performance.now() - start;
  const timing = parseServerTiming(response.headers.get('server-timing'));
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: response.status, ms, ...(timing && { timing }), body };
}

/** A request that was meant to succeed and did not: the run of this shape stops, with this reason. */
export class RequestFailed extends Error {
  override name = 'RequestFailed';
}

export interface SequentialResult {
  readonly server: LatencySummary;
  readonly floor: LatencySummary;
  /** Per server request, from `Server-Timing`. */
  readonly queries: { readonly min: number; readonly max: number; readonly mean: number };
  readonly storeMs: LatencySummary;
}

/**
 * Sequential latency, server and floor side by side: after a warm-up of at least `warmup` rounds
 * and `warmupMs` (but no more than a quarter of the budget), each round sends request `i` of the
 * rotation to the server and replays its SPARQL to the store, alternating which goes first so
 * neither always finds the other's warm caches. Stops after `iterations` rounds or `budgetMs`,
 * whichever comes first (but after at least 3 rounds). The warm-up's time matters for the quick
 * shapes: V8 compiles the server's hot path in tiers over its first thousand or so requests (a
 * single resource took 2.3 ms at p50 over its first 350 requests, 1.25 ms after 1,500), and a
 * front-end meets a server that has run for a while, not one just started.
 */
export async function sequential(options: {
  warmup: number;
  warmupMs: number;
  iterations: number;
  budgetMs: number;
  server: (i: number) => Promise<Fetched>;
  floor: (i: number) => Promise<void>;
}): Promise<SequentialResult> {
  const serverMs: number[] = [];
  const floorMs: number[] = [];
  const timings: SparqlTiming[] = [];
  const server = async (i: number, keep: boolean) => {
    const fetched = await options.server(i);
    if (fetched.status !== 200) throw new RequestFailed(`HTTP ${fetched.status}${errorDetail(fetched.body)}`);
    if (keep) {
      serverMs.push(fetched.ms);
      if (fetched.timing) timings.push(fetched.timing);
    }
  };
  const floor = async (i: number, keep: boolean) => {
    const start = performance.now();
    await options.floor(i);
    if (keep) floorMs.push(performance.now() - start);
  };
  // A warm-up of slow requests stops after a quarter of the budget (but after one round at least).
  const warmupStart = performance.now();
  const warmupEnd = warmupStart + options.budgetMs / 4;
  const warm = (i: number) => i >= options.warmup && performance.now() - warmupStart >= options.warmupMs;
  for (let i = 0; !warm(i) && (i === 0 || performance.now() < warmupEnd); i++) {
    await server(i, false);
    await floor(i, false);
  }
  const deadline = performance.now() + options.budgetMs;
  for (let i = 0; i < options.iterations && (i < 3 || performance.now() < deadline); i++) {
    if (i % 2 === 0) {
      await server(i, true);
      await floor(i, true);
    } else {
      await floor(i, true);
      await server(i, true);
    }
  }
  const counts = timings.map((t) => t.queries);
  return {
    server: summarize(serverMs),
    floor: summarize(floorMs),
    queries: {
      min: Math.min(...counts),
      max: Math.max(...counts),
      mean: counts.reduce((s, c) => s + c, 0) / Math.max(1, counts.length),
    },
    storeMs: summarize(timings.map((t) => t.ms)),
  };
}

/** Throughput and latency under `connections` concurrent clients. */
export interface ConcurrentResult {
  readonly connections: number;
  readonly requestsPerSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly completed: number;
  /** Non-2xx answers, socket errors and timeouts: anything but a clean 200. */
  readonly failed: number;
  /** What the failures were: answers by status code (`"502": 12`), `errors` and `timeouts`. */
  readonly failures?: Readonly<Record<string, number>>;
  /**
   * The load generator's own CPU per completed request (ms, its warm-up included): it shares the
   * machine's cores with the server and the store, which a front-end's clients don't.
   */
  readonly clientCpuMs?: number;
}

/** A concurrent run left out because the shape is too slow for it; `reason` says why. */
export interface SkippedRun {
  readonly connections: number;
  readonly skipped: string;
}

/**
 * Whether a concurrent run of `seconds` with `connections` clients is worth running for a request
 * whose sequential p50 is `p50Ms`: not when one request per connection alone is more than four
 * runs' worth of work. The store keeps working on requests the load generator abandons at the end,
 * so such a run would mostly measure, and delay, the backlog it leaves.
 *
 * @example concurrencyFits(4300, 10, 10) // false: 43 s of work for a 10 s run
 */
export function concurrencyFits(p50Ms: number, connections: number, seconds: number): boolean {
  return p50Ms * connections <= 4 * seconds * 1000;
}

/**
 * Waits until `probe` (a quick request) answers in about its idle time again: after a concurrent
 * run the server and store may still be busy with requests the load generator abandoned.
 * Resolves the time waited (ms); gives up after `limitMs`.
 */
export async function waitIdle(probe: () => Promise<number>, idleMs: number, limitMs = 600_000): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < limitMs) {
    if ((await probe()) <= Math.max(3 * idleMs, idleMs + 20)) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return performance.now() - started;
}

/** Seconds of load at the run's connection count before each concurrent run, not measured. */
const WARMUP_SECONDS = 1;

/**
 * Drives the server with autocannon's programmatic API: `connections` keep-alive connections for
 * `seconds`, after a warm-up of {@link WARMUP_SECONDS}; every request of every connection takes
 * the path `next` gives (the next of a rotation, `shapes.ts` sequence, or one never sent before),
 * so requests in flight at once ask for different resources, as a front-end's users do. (Given
 * the rotation as a list instead, autocannon sends it from its start on every connection, all in
 * step: ten connections asked for the same resource at once, which the store and the server
 * answer more cheaply than a front-end's spread of resources; `docs/performance.md`.)
 */
export async function concurrentServer(
  base: string,
  next: () => string,
  accept: string,
  connections: number,
  seconds: number,
): Promise<ConcurrentResult> {
  const cpu = process.cpuUsage();
  const result = await autocannon({
    url: base,
    connections,
    duration: seconds,
    // Not measured: the server's connections to the store open, and its code warms up.
    ...({ warmup: { connections, duration: WARMUP_SECONDS } } as object),
    // A sort over 1M triples under 50 connections can queue for many seconds: that is a figure, not a failure.
    timeout: 120,
    requests: [
      { method: 'GET' as const, headers: { accept }, setupRequest: (request) => ({ ...request, path: next() }) },
    ],
  });
  const { user, system } = process.cpuUsage(cpu);
  const completed = result['2xx'];
  const failures: Record<string, number> = {};
  for (const [code, { count = 0 } = {}] of Object.entries(result.statusCodeStats ?? {}))
    if (!code.startsWith('2') && count > 0) failures[code] = count;
  if (result.errors > 0) failures.errors = result.errors;
  if (result.timeouts > 0) failures.timeouts = result.timeouts;
  return {
    connections,
    requestsPerSecond: completed / Math.max(result.duration, 1e-9),
    p50: result.latency.p50,
    p99: result.latency.p99,
    completed,
    failed: result.non2xx + result.errors + result.timeouts,
    ...(Object.keys(failures).length > 0 && { failures }),
    ...(completed > 0 && { clientCpuMs: (user + system) / 1000 / completed }),
  };
}

/**
 * The same load on the floor: `connections` loops, each replaying the rotation's queries
 * (wave by wave) back to back for `seconds`, after the same warm-up.
 */
export async function concurrentFloor(
  replay: (i: number) => Promise<void>,
  rotation: number,
  connections: number,
  seconds: number,
): Promise<ConcurrentResult> {
  const latencies: number[] = [];
  let failed = 0;
  // By what failed: the error's code (ECONNRESET, UND_ERR_SOCKET, …), else its name and message.
  const failures: Record<string, number> = {};
  const loops = (until: number, keep: boolean) =>
    Promise.all(
      Array.from({ length: connections }, async (_, loop) => {
        for (let i = loop; performance.now() < until; i++) {
          const start = performance.now();
          try {
            await replay(i % rotation);
            if (keep) latencies.push(performance.now() - start);
          } catch (error) {
            if (!keep) continue;
            failed++;
            const what = failureKind(error);
            failures[what] = (failures[what] ?? 0) + 1;
          }
        }
      }),
    );
  await loops(performance.now() + WARMUP_SECONDS * 1000, false); // as for the server
  const started = performance.now();
  await loops(started + seconds * 1000, true);
  const elapsed = (performance.now() - started) / 1000;
  const summary = summarize(latencies);
  return {
    connections,
    requestsPerSecond: latencies.length / elapsed,
    p50: summary.p50,
    p99: summary.p99,
    completed: latencies.length,
    failed,
    ...(failed > 0 && { failures }),
  };
}

/** What a failed replay was, for the report: its cause's or its own code, else its name and message. */
function failureKind(error: unknown): string {
  const { code, name, message, cause } = error as { code?: string; name?: string; message?: string; cause?: unknown };
  const causeCode = (cause as { code?: string } | undefined)?.code;
  return causeCode ?? code ?? `${name ?? 'Error'}: ${(message ?? String(error)).slice(0, 80)}`;
}

/** Single-resource latency alone, and while another client sends a slow request in a loop. */
export interface InterferenceResult {
  readonly alone: LatencySummary;
  readonly withSlow: LatencySummary;
  /** Slow requests that completed while the single requests were measured. */
  readonly slowCompleted: number;
  readonly delayP50: number;
  readonly delayP95: number;
}

/**
 * Measures how much a slow request running in a loop delays a quick one. When the quick
 * requests are measured, the slow request in flight is aborted (it may take minutes); the caller
 * stops the server afterwards, so no abandoned work reaches later figures.
 */
export async function interference(
  quick: (i: number) => Promise<number>,
  slow: (i: number, signal: AbortSignal) => Promise<void>,
  iterations: number,
): Promise<InterferenceResult> {
  // Bounded in time too: queued behind slow requests, each quick one may wait long.
  const measure = async () => {
    const ms: number[] = [];
    const deadline = performance.now() + 60_000;
    for (let i = 0; i < iterations && (i === 0 || performance.now() < deadline); i++) ms.push(await quick(i));
    return summarize(ms);
  };
  for (let i = 0; i < 5; i++) await quick(i);
  const alone = await measure();
  const stop = new AbortController();
  let slowCompleted = 0;
  const loop = (async () => {
    for (let i = 0; !stop.signal.aborted; i++) {
      await slow(i, stop.signal).then(
        () => slowCompleted++,
        () => undefined, // aborted at the end, or failed: the figure is the quick requests' latency
      );
    }
  })();
  // Let the first slow request reach the store before measuring.
  await new Promise((resolve) => setTimeout(resolve, 20));
  const withSlow = await measure();
  stop.abort();
  await loop;
  return { alone, withSlow, slowCompleted, delayP50: withSlow.p50 - alone.p50, delayP95: withSlow.p95 - alone.p95 };
}

/** A bare node:http server answering every request with a constant JSON:API document; prints its port. */
const BARE_SERVER = `const server = require('node:http').createServer((_, res) => {
  res.setHeader('content-type', 'application/vnd.api+json');
  res.end('{"data":null}');
}).listen(0, '127.0.0.1', () => console.log(server.address().port));`;

/**
 * The HTTP hop alone: sequential requests from the bench's client to a bare node:http server in a
 * process of its own, the least that any server between a client and the store adds to the floor.
 *
 * @example const { p50 } = await bareHop(500)
 */
export async function bareHop(iterations: number): Promise<LatencySummary> {
  const child = spawn(process.execPath, ['-e', BARE_SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
      child.once('exit', (code) => reject(new Error(`the bare server exited (${code}) before it listened`)));
    });
    const base = `http://127.0.0.1:${port}`;
    const ms: number[] = [];
    for (let i = 0; i < iterations + 50; i++) {
      const fetched = await get(base, '/', 'application/vnd.api+json');
      if (i >= 50) ms.push(fetched.ms);
    }
    return summarize(ms);
  } finally {
    child.kill();
  }
}
