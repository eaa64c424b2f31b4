/**
 * The stall scenario of the "Bounded cost" issue: `npm run soak -- [--duration 60] [--minutes 10]
 * [--store embedded,virtuoso] [--slow N] [--drain 30]`.
 *
 * On the generated 100k dataset (7,000 activities, ~94k triples; bench/datasets.ts), for the
 * embedded store and, when `virtuoso-t` is on PATH, for Virtuoso: the server runs as a child
 * process (bench/server-process.ts) with its default deadline, while
 * - N slow clients each send a slow sort (embedded: `/trade-activities?sort=concerns.label`;
 *   Virtuoso: 40 clients of `sort=-concerns.label,origin.country.name`), drop it after 3 s, and
 *   send it again;
 * - cheap requests (`/concepts/0101` and `/health`, alternating) go out at a steady pace, one
 *   every 100 ms whatever the answers take (an open loop, so a stalled server shows as latency).
 * It prints the cheap requests' p50/p95 before, during and after the slow ones, the count of
 * each status (503, 504, 502…), how long after the last slow client hung up the processes' CPU
 * use falls back (the server's; Virtuoso's too), and the server's RSS over the run.
 *
 * Phases: 5 s of cheap requests alone (the baseline), the stall (the rest of `--duration`, 60 s
 * by default; `--minutes` for a soak), then every slow client hangs up at once and the cheap
 * requests go on for up to `--drain` seconds (30) while the CPU is watched. Loopback only; it
 * stops by itself. The markdown report goes to stdout, progress to stderr.
 */

import { execFileSync } from 'node:child_process';
import { setMaxListeners } from 'node:events';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { type BenchDataset, benchDataset } from './datasets.js';
import { MAPPING } from './run-store.js';
import { type ServerProcess, startServer } from './server-process.js';
import { percentile } from './stats.js';
import { type BenchStore, EMBEDDED_WORKERS, virtuosoStore, virtuosoTools } from './stores.js';

const USAGE = `usage: npm run soak -- [options]
  --duration SEC   length of one store's run, baseline and stall (default 60); the drain comes after
  --minutes MIN    the same in minutes, for a soak (--minutes 10)
  --store S        embedded, virtuoso, or both comma-separated (default: embedded, and virtuoso when
                   virtuoso-t is on PATH)
  --slow N         concurrent slow clients (default: 8 on the embedded store, 40 on Virtuoso)
  --drain SEC      how long to watch the CPU after the slow clients hang up (default 30)`;

const SLOW_URL = {
  embedded: '/trade-activities?sort=concerns.label',
  virtuoso: '/trade-activities?sort=-concerns.label,origin.country.name',
} as const;
const SLOW_CLIENTS = { embedded: 8, virtuoso: 40 } as const;
const CHEAP_URLS = ['/concepts/0101', '/health'] as const;
/** A slow client hangs up after this long. */
const DROP_AFTER_MS = 3000;
/** One cheap request goes out every this many ms, whatever the answers take. */
const CHEAP_EVERY_MS = 100;
/** A cheap request without an answer after this long counts as a timeout. */
const CHEAP_TIMEOUT_MS = 15_000;
/** At most this many cheap requests in flight: past it one is counted as skipped rather than sent. */
const CHEAP_MAX_IN_FLIGHT = 300;
const BASELINE_MS = 5000;
const CPU_SAMPLE_MS = 250;

type StoreKind = 'embedded' | 'virtuoso';

interface Options {
  durationMs: number;
  drainMs: number;
  stores: StoreKind[];
  slow?: number;
}

function parseOptions(argv: string[]): Options | string {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        duration: { type: 'string' },
        minutes: { type: 'string' },
        store: { type: 'string' },
        slow: { type: 'string' },
        drain: { type: 'string' },
        help: { type: 'boolean' },
      },
    }));
  } catch (error) {
    return (error as Error).message;
  }
  if (values.help) return USAGE;
  const number = (name: string, value: unknown, fallback: number, min: number, max: number): number | string => {
    if (value === undefined) return fallback;
    const n = Number(value);
    return Number.isFinite(n) && n >= min && n <= max ? n : `--${name} must be a number from ${min} to ${max}`;
  };
  const seconds = number('duration', values.duration, 60, 10, 24 * 3600);
  const minutes = number('minutes', values.minutes, Number.NaN, 0.5, 24 * 60);
  const drain = number('drain', values.drain, 30, 1, 600);
  const slow = number('slow', values.slow, Number.NaN, 1, 500);
  for (const v of [seconds, minutes, drain, slow]) if (typeof v === 'string') return v;
  const tools = virtuosoTools();
  const stores = (typeof values.store === 'string' ? values.store.split(',') : ['embedded', 'virtuoso']).map((s) =>
    s.trim(),
  );
  if (stores.some((s) => s !== 'embedded' && s !== 'virtuoso'))
    return `--store: embedded or virtuoso, got ${values.store}`;
  const explicit = typeof values.store === 'string';
  const usable = stores.filter((s) => {
    if (s === 'virtuoso' && 'missing' in tools) {
      console.error(`\n!!! ${explicit ? 'cannot run' : 'SKIPPED'} the Virtuoso part: ${tools.missing}\n`);
      if (explicit) process.exitCode = 1;
      return false;
    }
    return true;
  }) as StoreKind[];
  return {
    durationMs: (Number.isNaN(minutes as number) ? (seconds as number) : (minutes as number) * 60) * 1000,
    drainMs: (drain as number) * 1000,
    stores: usable,
    ...(!Number.isNaN(slow as number) && { slow: slow as number }),
  };
}

const log = (line: string) => console.error(`[soak ${(performance.now() / 1000).toFixed(1)}s] ${line}`);

// --- process figures from /proc (Linux) ----------------------------------------------------------

const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU seconds (user + system, every thread) a process has used, or NaN once it is gone. */
async function cpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the command: state is field 3, utime 14 and stime 15 (1-based, man 5 proc).
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/** The `virtuoso-t` this process started (bench/stores.ts spawns it as a direct child). */
async function childVirtuosoPid(): Promise<number | undefined> {
  for (const entry of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (comm.startsWith('virtuoso') && ppid === process.pid) return Number(entry);
  }
  return undefined;
}

/** Samples the CPU use of some processes every {@link CPU_SAMPLE_MS}: % of one core over each interval. */
class CpuWatch {
  readonly samples: { at: number; percent: Record<string, number> }[] = [];
  private readonly last = new Map<string, number>();
  private lastAt = performance.now();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly pids: Record<string, number>) {}

  async start(): Promise<void> {
    for (const [name, pid] of Object.entries(this.pids)) this.last.set(name, await cpuSeconds(pid));
    this.lastAt = performance.now();
    this.timer = setInterval(() => void this.sample(), CPU_SAMPLE_MS);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private async sample(): Promise<void> {
    const now = performance.now();
    const percent: Record<string, number> = {};
    for (const [name, pid] of Object.entries(this.pids)) {
      const seconds = await cpuSeconds(pid);
      percent[name] = ((seconds - this.last.get(name)!) / ((now - this.lastAt) / 1000)) * 100;
      this.last.set(name, seconds);
    }
    this.lastAt = now;
    this.samples.push({ at: now, percent });
  }

  /** Mean % of one core of `name` between two times. */
  mean(name: string, from: number, to: number): number {
    const inside = this.samples.filter((s) => s.at > from && s.at <= to).map((s) => s.percent[name]!);
    return inside.length === 0 ? Number.NaN : inside.reduce((a, b) => a + b, 0) / inside.length;
  }

  /**
   * Seconds from `from` until `name`'s CPU use stays at or below `threshold` % for a whole second;
   * undefined when it never does before the last sample.
   */
  settledAfter(name: string, from: number, threshold: number): number | undefined {
    const after = this.samples.filter((s) => s.at > from);
    const needed = Math.ceil(1000 / CPU_SAMPLE_MS);
    for (let i = 0; i + needed <= after.length; i++) {
      if (after.slice(i, i + needed).every((s) => s.percent[name]! <= threshold))
        return Math.max(0, after[i]!.at - CPU_SAMPLE_MS - from) / 1000;
    }
    return undefined;
  }
}

// --- load ------------------------------------------------------------------------------------------

interface Outcome {
  url: string;
  phase: Phase;
  sentAt: number;
  ms: number;
  /** HTTP status, or `dropped` (the slow client hung up), `timeout`, `error`. */
  status: number | 'dropped' | 'timeout' | 'error';
  /** The answer's `Retry-After`, in seconds. */
  retryAfterS?: number;
}

type Phase = 'baseline' | 'stall' | 'drain';

/** One GET that the client abandons after `limitMs`. */
async function timedGet(
  base: string,
  url: string,
  limitMs: number,
  signal?: AbortSignal,
): Promise<Omit<Outcome, 'phase' | 'url'>> {
  const sentAt = performance.now();
  const limit = AbortSignal.timeout(limitMs);
  try {
    const response = await fetch(base + url, {
      headers: { Accept: 'application/vnd.api+json' },
      signal: signal ? AbortSignal.any([limit, signal]) : limit,
    });
    await response.arrayBuffer();
    const retryAfter = Number(response.headers.get('retry-after') ?? Number.NaN);
    return {
      sentAt,
      ms: performance.now() - sentAt,
      status: response.status,
      ...(Number.isFinite(retryAfter) && { retryAfterS: retryAfter }),
    };
  } catch (error) {
    const name = (error as Error).name;
    return {
      sentAt,
      ms: performance.now() - sentAt,
      status:
        name === 'TimeoutError' || name === 'AbortError'
          ? limitMs === DROP_AFTER_MS
            ? 'dropped'
            : 'timeout'
          : 'error',
    };
  }
}

interface StoreRun {
  store: StoreKind;
  triples: number;
  slowClients: number;
  slowUrl: string;
  durationMs: number;
  cheap: Outcome[];
  slow: Outcome[];
  skippedCheap: number;
  cpu: { name: string; baseline: number; stall: number; settledAfterS: number | undefined; threshold: number }[];
  rss: { atS: number; mb: number }[];
  peakRssMb: number;
  loadAverage: number;
}

async function runStore(kind: StoreKind, dataset: BenchDataset, options: Options, workDir: string): Promise<StoreRun> {
  let store: BenchStore | undefined;
  let server: ServerProcess | undefined;
  try {
    if (kind === 'virtuoso') {
      const tools = virtuosoTools();
      if ('missing' in tools) throw new Error(tools.missing);
      log(`virtuoso: starting, bulk-loading ${dataset.triples} triples`);
      store = await virtuosoStore(dataset, tools, { loader: 'bulk', muUuids: false });
      log(`virtuoso: loaded in ${store.loadMs} ms`);
    }
    // The server's own defaults (deadline, admission, health): only the store differs.
    const config =
      kind === 'embedded'
        ? { mapping: MAPPING, data: [dataset.file], workers: EMBEDDED_WORKERS }
        : { mapping: MAPPING, endpoint: store!.serverConfig.endpoint, graph: store!.serverConfig.graph };
    server = await startServer(config, workDir);
    log(
      `${kind}: server pid ${server.pid} listening on ${server.url}${server.loadMs ? `, loaded in ${server.loadMs} ms` : ''}`,
    );
    const pids: Record<string, number> = { server: server.pid };
    const virtuosoPid = kind === 'virtuoso' ? await childVirtuosoPid() : undefined;
    if (virtuosoPid) pids.virtuoso = virtuosoPid;
    return await drive(kind, server, pids, dataset, options);
  } finally {
    await server?.stop();
    await store?.stop();
  }
}

async function drive(
  kind: StoreKind,
  server: ServerProcess,
  pids: Record<string, number>,
  dataset: BenchDataset,
  options: Options,
): Promise<StoreRun> {
  const base = server.url;
  const slowClients = options.slow ?? SLOW_CLIENTS[kind];
  const slowUrl = SLOW_URL[kind];
  // Warm up: one of each, so that the first figures are not the server's start.
  for (const url of CHEAP_URLS) await timedGet(base, url, CHEAP_TIMEOUT_MS);

  const cheap: Outcome[] = [];
  const slow: Outcome[] = [];
  let phase: Phase = 'baseline';
  let skippedCheap = 0;
  let inFlight = 0;
  let tick = 0;
  const cheapPending = new Set<Promise<void>>();
  const cheapTimer = setInterval(() => {
    if (inFlight >= CHEAP_MAX_IN_FLIGHT) {
      skippedCheap += 1;
      return;
    }
    const url = CHEAP_URLS[tick++ % CHEAP_URLS.length]!;
    const at = phase;
    inFlight += 1;
    const pending = timedGet(base, url, CHEAP_TIMEOUT_MS).then((o) => {
      inFlight -= 1;
      cheap.push({ ...o, url, phase: at });
    });
    cheapPending.add(pending);
    void pending.finally(() => cheapPending.delete(pending));
  }, CHEAP_EVERY_MS);

  const cpu = new CpuWatch(pids);
  await cpu.start();
  const rss: { atS: number; mb: number }[] = [];
  const started = performance.now();
  let lastReport = started;
  const rssTimer = setInterval(() => {
    void server.memory().then(({ rss: bytes }) => {
      rss.push({ atS: (performance.now() - started) / 1000, mb: bytes / 2 ** 20 });
      if (performance.now() - lastReport >= 60_000) {
        lastReport = performance.now();
        const recent = cheap.filter((o) => o.sentAt > lastReport - 60_000 && typeof o.status === 'number');
        log(
          `${kind}: ${Math.round((lastReport - started) / 1000)} s, RSS ${Math.round(bytes / 2 ** 20)} MB, cheap p95 ${Math.round(
            percentile(
              recent.map((o) => o.ms),
              95,
            ),
          )} ms over the last minute, slow sent ${slow.length}`,
        );
      }
    });
  }, 1000);

  log(`${kind}: baseline, ${BASELINE_MS / 1000} s of cheap requests alone`);
  await sleep(BASELINE_MS);
  const stallStart = performance.now();
  phase = 'stall';
  const stallMs = Math.max(1000, options.durationMs - BASELINE_MS);
  log(
    `${kind}: stall, ${slowClients} clients of ${slowUrl}, each dropped after ${DROP_AFTER_MS / 1000} s, for ${Math.round(stallMs / 1000)} s`,
  );
  const hangUp = new AbortController();
  // Every slow client listens to it: as many listeners as clients, on purpose.
  setMaxListeners(0, hangUp.signal);
  const stallEnd = stallStart + stallMs;
  const slowLoops = Array.from({ length: slowClients }, async (_, i) => {
    // Spread the clients' starts over the first drop interval, so that disconnects are spread too.
    await sleep((DROP_AFTER_MS / slowClients) * i);
    while (performance.now() < stallEnd && !hangUp.signal.aborted) {
      const outcome = await timedGet(base, slowUrl, DROP_AFTER_MS, hangUp.signal);
      slow.push({ ...outcome, url: slowUrl, phase: 'stall' });
      // A well-behaved client waits as long as a 503 asks (1 s without a Retry-After) before it asks again.
      if (outcome.status === 503)
        await sleep(Math.min(60, outcome.retryAfterS ?? 1) * 1000, undefined, { signal: hangUp.signal }).catch(
          () => undefined,
        );
    }
  });
  await sleep(Math.max(0, stallEnd - performance.now()));
  // Every slow client hangs up now: the last disconnect.
  hangUp.abort();
  const lastDisconnect = performance.now();
  phase = 'drain';
  await Promise.all(slowLoops);
  log(`${kind}: every slow client hung up; watching the CPU for up to ${options.drainMs / 1000} s`);
  const baselineCpu = Object.fromEntries(Object.keys(pids).map((name) => [name, cpu.mean(name, started, stallStart)]));
  const thresholds = Object.fromEntries(
    Object.keys(pids).map((name) => [name, Math.max(10, (baselineCpu[name] ?? 0) + 10)]),
  );
  const drainEnd = lastDisconnect + options.drainMs;
  while (performance.now() < drainEnd) {
    await sleep(500);
    const settled = Object.keys(pids).every(
      (name) => cpu.settledAfter(name, lastDisconnect, thresholds[name]!) !== undefined,
    );
    // A few seconds of cheap requests after the CPU has settled, for the "after" latency.
    if (settled && performance.now() - lastDisconnect > 5000) break;
  }
  clearInterval(cheapTimer);
  await Promise.all(cheapPending);
  cpu.stop();
  clearInterval(rssTimer);
  const memory = await server.memory();
  return {
    store: kind,
    triples: dataset.triples,
    slowClients,
    slowUrl,
    durationMs: options.durationMs,
    cheap,
    slow,
    skippedCheap,
    cpu: Object.keys(pids).map((name) => ({
      name,
      baseline: baselineCpu[name]!,
      stall: cpu.mean(name, stallStart, lastDisconnect),
      settledAfterS: cpu.settledAfter(name, lastDisconnect, thresholds[name]!),
      threshold: thresholds[name]!,
    })),
    rss,
    peakRssMb: memory.peakRss / 2 ** 20,
    loadAverage: loadavg()[0]!,
  };
}

// --- report ----------------------------------------------------------------------------------------

const ms = (v: number) => (Number.isNaN(v) ? 'n/a' : `${v < 10 ? v.toFixed(1) : Math.round(v)} ms`);

function statusCounts(outcomes: readonly Outcome[]): string {
  const counts = new Map<string, number>();
  for (const o of outcomes) counts.set(String(o.status), (counts.get(String(o.status)) ?? 0) + 1);
  return (
    [...counts]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([status, n]) => `${status}: ${n}`)
      .join(', ') || 'none'
  );
}

function render(run: StoreRun, drainMs: number): string {
  const lines = [
    `## ${run.store}: ${run.triples} triples, ${run.slowClients} slow clients of \`${run.slowUrl}\` (dropped after ${DROP_AFTER_MS / 1000} s), ${Math.round(run.durationMs / 1000)} s`,
    '',
    '| cheap request | phase | sent | p50 | p95 | max | statuses |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const url of CHEAP_URLS)
    for (const phase of ['baseline', 'stall', 'drain'] as const) {
      const set = run.cheap.filter((o) => o.url === url && o.phase === phase);
      const times = set.filter((o) => o.status === 200).map((o) => o.ms);
      lines.push(
        `| \`${url}\` | ${phase} | ${set.length} | ${ms(percentile(times, 50))} | ${ms(percentile(times, 95))} | ${ms(times.length ? Math.max(...times) : Number.NaN)} | ${statusCounts(set)} |`,
      );
    }
  const answered = run.slow.filter((o) => typeof o.status === 'number').map((o) => o.ms);
  const completed = run.slow.filter((o) => o.status === 200).map((o) => o.ms);
  const count = (list: readonly Outcome[], status: number) => list.filter((o) => o.status === status).length;
  const errors = [...run.cheap, ...run.slow];
  lines.push(
    '',
    `- slow requests (a 503 is retried after its Retry-After): ${run.slow.length} sent; ${statusCounts(run.slow)}`,
    `- slow requests answered: p50 ${ms(percentile(answered, 50))}; the 200s: p50 ${ms(percentile(completed, 50))}`,
    `- 503 / 504 / 502 over the run (cheap + slow): ${count(errors, 503)} / ${count(errors, 504)} / ${count(errors, 502)}; cheap requests not sent because ${CHEAP_MAX_IN_FLIGHT} were in flight: ${run.skippedCheap}`,
  );
  for (const c of run.cpu)
    lines.push(
      `- CPU of ${c.name}: baseline ${c.baseline.toFixed(0)} %, during the stall ${c.stall.toFixed(0)} % of one core; after the last slow client hung up it fell to ≤ ${c.threshold.toFixed(0)} % ${c.settledAfterS === undefined ? `**not within ${drainMs / 1000} s**` : `after **${c.settledAfterS.toFixed(1)} s**`}`,
    );
  const mbs = run.rss.map((r) => r.mb);
  lines.push(
    `- server RSS: ${Math.round(mbs[0] ?? Number.NaN)} MB at the start, max ${Math.round(Math.max(...mbs))} MB, ${Math.round(mbs.at(-1) ?? Number.NaN)} MB at the end (peak VmHWM ${Math.round(run.peakRssMb)} MB)`,
  );
  if (run.durationMs >= 5 * 60_000) {
    const perMinute = run.rss.filter(
      (r, i) => i === 0 || Math.floor(r.atS / 60) !== Math.floor(run.rss[i - 1]!.atS / 60),
    );
    lines.push(`- RSS by minute: ${perMinute.map((r) => `${Math.round(r.mb)}`).join(' → ')} MB`);
  }
  lines.push(`- load average at the end: ${run.loadAverage.toFixed(2)}`);
  return lines.join('\n');
}

// --- main ------------------------------------------------------------------------------------------

const parsed = parseOptions(process.argv.slice(2));
if (typeof parsed === 'string') {
  const help = parsed === USAGE;
  (help ? console.log : console.error)(help ? USAGE : `${parsed}\n${USAGE}`);
  process.exit(help ? 0 : 2);
}
const options = parsed;
// Ctrl-C: exit through 'exit', whose handlers stop the server process and Virtuoso this run started.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));
// Bounded whatever happens: generation, loads and every store's run, with room to spare.
const hardLimitMs = options.stores.length * (options.durationMs + options.drainMs + 300_000);
setTimeout(() => {
  console.error(`!!! the soak ran past its limit of ${Math.round(hardLimitMs / 1000)} s; stopping`);
  process.exit(1);
}, hardLimitMs).unref();

const workDir = await mkdtemp(join(tmpdir(), 'sparql-jsonapi-soak-'));
try {
  const dataset = await benchDataset('100k');
  log(`dataset: ${dataset.triples} triples (${dataset.activities} activities) in ${dataset.file}`);
  console.log(`# Stall scenario (${new Date().toISOString()})\n`);
  for (const kind of options.stores) {
    try {
      const run = await runStore(kind, dataset, options, workDir);
      console.log(`${render(run, options.drainMs)}\n`);
    } catch (error) {
      console.error(`\n!!! ${kind} FAILED: ${(error as Error).stack ?? error}\n`);
      process.exitCode = 1;
    }
  }
} finally {
  await rm(workDir, { recursive: true, force: true });
}
