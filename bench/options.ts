import { parseArgs } from 'node:util';
import { PEER_ENV } from './peer.js';

export const SIZES = ['10k', '100k', '1m', '10m'] as const;
export type Size = (typeof SIZES)[number];
/** The sizes run when none is named: 10M (generation and loading take many minutes) only when asked for. */
export const DEFAULT_SIZES: readonly Size[] = ['10k', '100k', '1m'];
/** Sizes too large for the embedded store (every worker holds the data): Virtuoso only. */
const VIRTUOSO_ONLY: readonly Size[] = ['10m'];
export const STORES = ['embedded', 'virtuoso'] as const;
export type StoreKind = (typeof STORES)[number];
/** How the bench puts its data into Virtuoso: the project's `load` command, as the README does, or Virtuoso's bulk loader. */
export const LOADERS = ['load', 'bulk'] as const;
export type Loader = (typeof LOADERS)[number];
/** The load generators of the shapes' concurrent runs. */
export const CLIENTS = ['keep-alive', 'autocannon'] as const;
export type ClientKind = (typeof CLIENTS)[number];

/** The keep-alive client's protocol per shape (issue 40): one warm-up pass, then sequential requests, then a closed loop. */
export interface KeepAliveProtocol {
  /** Sequential requests per server after the warm-up pass (p50). */
  readonly sequential: number;
  /** Connections of the closed loop. */
  readonly connections: number;
  /** The closed loop's least duration. */
  readonly seconds: number;
}

export interface BenchOptions {
  readonly sizes: readonly Size[];
  readonly stores: readonly StoreKind[];
  /** A store asked for by name (`--store virtuoso`) must run; one only defaulted to may be skipped. */
  readonly storesExplicit: boolean;
  readonly smoke: boolean;
  /** Seconds of each concurrent (autocannon) run. */
  readonly durationSeconds: number;
  /** Concurrent connections of the throughput runs. */
  readonly connections: readonly number[];
  /** Sequential requests measured per shape (after the warm-up), each for the server and for the floor. */
  readonly iterations: number;
  /** Upper bound on the sequential phase of one shape, in seconds (slow shapes stop earlier). */
  readonly sequentialBudgetSeconds: number;
  /** Most URLs a shape rotates through (the smoke run records fewer). */
  readonly maxRotation: number;
  /**
   * `windowCacheTtlSeconds` of the server's dataset (0: off); undefined leaves the server's
   * default (embedded store: on, no expiry; an endpoint: off).
   */
  readonly windowCacheTtlSeconds?: number;
  /** Run the sort corpus (`sort-corpus.ts`) instead of the shapes. */
  readonly sortCorpus: boolean;
  /** The collections the sort corpus sorts; undefined: every type of the mapping. */
  readonly corpusTypes?: readonly string[];
  /** Run the shapes under a steady stream of deltas (`run-deltas.ts`) instead of the cold shapes. */
  readonly deltas: boolean;
  /** Delta messages a second of the stream, and the trade activities each changes (at most). */
  readonly deltaRate: number;
  /** How the data goes into Virtuoso: `load` (the README's way, the default) or Virtuoso's bulk loader. */
  readonly loader: Loader;
  /** The load generators that measure each shape's throughput. */
  readonly clients: readonly ClientKind[];
  readonly keepAlive: KeepAliveProtocol;
  /** The peer's start command (`$BENCH_PEER`, `peer.ts`); undefined: no peer, the dated figures instead. */
  readonly peer?: string;
}

/** `--scaling-chart`: no run, a chart drawn from result files already written. */
export interface ScalingChartCommand {
  /** The result files (bench/results/*.json), one per size. */
  readonly scalingChart: readonly string[];
  /** The store whose figures are drawn. */
  readonly store: StoreKind;
}

export const USAGE = `usage: npm run bench -- [--size 10k|100k|1m|10m]... [--store embedded|virtuoso]... [options]
       npm run bench -- --scaling-chart RESULT.json... [--store embedded|virtuoso]
  --size S          dataset size; repeat or comma-separate (default: 10k,100k,1m; 10m, 700,000
                    activities, runs on Virtuoso only and only when named)
  --store S         store under test; repeat or comma-separate (default: embedded, and virtuoso
                    when virtuoso-t is on PATH)
  --smoke           10k only, few iterations, short runs (< 1 minute): checks the harness works
  --duration SEC    seconds of each concurrent run (default 10; smoke 0.3)
  --connections N   concurrent connections, comma-separated (default 10,50; smoke 10)
  --iterations N    sequential requests per shape after warm-up (default 200; smoke 5)
  --window-cache S  the server's window cache TTL in seconds, 0 for off (default: the server's
                    own: on without expiry for the embedded store, off for Virtuoso)
  --sort-corpus     instead of the shapes: every sortable path of the mapping up to two hops,
                    both directions, first page and page 100 of each collection; per order the
                    first read and the median of 3 more, flagging any over 1 s per page
                    (Virtuoso) or a 504 or a first read over 5 s (embedded)
  --types T         the sort corpus's collections, comma-separated (default: every type)
  --deltas          instead of the cold shapes: the server with a delta listener (both caches on,
                    no expiry) while a driver changes a few trade activities on Virtuoso and posts
                    each change's delta, --delta-rate messages a second; per shape req/s and p50
                    at the first --connections (default 10) for --duration s (default 5), beside
                    mu-cl-resources, with the cache hit ratios and delta-to-2xx times (Virtuoso only)
  --delta-rate N    delta messages a second of the --deltas stream (default 10)
  --loader L        how the data goes into Virtuoso: load (default: the project's own
                    \`sparql-jsonapi load\` through /sparql-auth as dba, as the README does) or
                    bulk (Virtuoso's ld_dir + rdf_loader_run, then a checkpoint); also for
                    --sort-corpus and --deltas; the result file records which. The shapes' data
                    gets one mu:uuid per resource that has none (concepts, schemes, countries),
                    so that a peer can serve the same graph
  --clients C       load generators, comma-separated (default keep-alive,autocannon):
                    keep-alive is a front-end's client (Node http, keep-alive Agent, maxSockets
                    10, Accept: application/vnd.api+json, bodies read whole): per shape one
                    warm-up pass over its URLs, 30 sequential requests (p50; alternating with
                    the peer), then 10 closed-loop connections for --keep-alive-seconds (req/s),
                    with the CPU time per request of the server, the store, the peer and the
                    client (from /proc/<pid>/stat); autocannon is --connections for --duration
  --keep-alive-seconds SEC
                    the keep-alive closed loop's least duration (default 4; smoke 0.3)
  env ${PEER_ENV}        the peer's start command, run with /bin/sh beside the server on the
                    same Virtuoso and graph, its placeholders {port} (required), {endpoint} (the
                    store's /sparql) and {graph} replaced; e.g. for mu-cl-resources built as
                    /work/shared/mu-peer/README.md says:
                    ${PEER_ENV}='MU_DOMAIN=DIR/domain.lisp DIR/start {port} {endpoint} {graph}'.
                    The two servers alternate shape by shape under the keep-alive client and the
                    report gives this ÷ peer per shape; without it the report says "no peer"
                    and compares with mu-cl-resources' dated figures (bench/reference.ts)
  --scaling-chart   no run: p50 per shape against the dataset's size, both axes log, drawn from
                    result files already written (bench/results/*.json, one per size, two or
                    more) into bench/results/scaling.svg; --store names whose figures (default
                    virtuoso, the one store of 10M)`;

const list = (values: readonly string[] | undefined) =>
  (values ?? [])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim().toLowerCase())
    .filter((v) => v !== '');

/**
 * Reads the bench's command line; a string is an error message (print it with {@link USAGE}).
 *
 * @example parseBenchOptions(['--size', '100k', '--store', 'virtuoso']) // { sizes: ['100k'], stores: ['virtuoso'], … }
 */
export function parseBenchOptions(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
): BenchOptions | ScalingChartCommand | { help: true } | string {
  const parse = () =>
    parseArgs({
      args: [...argv],
      options: {
        size: { type: 'string', multiple: true },
        store: { type: 'string', multiple: true },
        smoke: { type: 'boolean' },
        duration: { type: 'string' },
        connections: { type: 'string' },
        iterations: { type: 'string' },
        'window-cache': { type: 'string' },
        'sort-corpus': { type: 'boolean' },
        types: { type: 'string' },
        deltas: { type: 'boolean' },
        'delta-rate': { type: 'string' },
        loader: { type: 'string' },
        clients: { type: 'string' },
        'keep-alive-seconds': { type: 'string' },
        'scaling-chart': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      // Result files, for --scaling-chart only (checked below).
      allowPositionals: true,
    });
  let values: ReturnType<typeof parse>['values'];
  let positionals: string[];
  try {
    ({ values, positionals } = parse());
  } catch (error) {
    return (error as Error).message;
  }
  if (values.help) return { help: true };
  if (values['scaling-chart']) return scalingChartCommand(values, positionals);
  if (positionals.length > 0) return `unexpected argument '${positionals[0]}' (result files go after --scaling-chart)`;
  const smoke = values.smoke ?? false;
  const sizes = [...new Set(list(values.size))];
  const badSize = sizes.find((s) => !(SIZES as readonly string[]).includes(s));
  if (badSize !== undefined) return `--size: expected one of ${SIZES.join(', ')}, got '${badSize}'`;
  if (smoke && sizes.some((s) => s !== '10k')) return '--smoke runs the 10k dataset only';
  const stores = [...new Set(list(values.store))];
  const badStore = stores.find((s) => !(STORES as readonly string[]).includes(s));
  if (badStore !== undefined) return `--store: expected one of ${STORES.join(', ')}, got '${badStore}'`;
  const deltas = values.deltas ?? false;
  const virtuosoOnly = deltas ? '--deltas' : sizes.find((s) => (VIRTUOSO_ONLY as readonly string[]).includes(s));
  if (virtuosoOnly !== undefined && stores.some((s) => s !== 'virtuoso'))
    return `${virtuosoOnly === '--deltas' ? '--deltas' : `--size ${virtuosoOnly}`} runs on Virtuoso only (--store virtuoso)`;
  const deltaRate = values['delta-rate'] === undefined ? 10 : Number(values['delta-rate']);
  if (!(deltaRate > 0 && deltaRate <= 100))
    return `--delta-rate: expected messages a second in (0, 100], got '${values['delta-rate']}'`;

  const durationSeconds = values.duration === undefined ? (smoke ? 0.3 : deltas ? 5 : 10) : Number(values.duration);
  if (!(durationSeconds > 0 && durationSeconds <= 600))
    return `--duration: expected seconds in (0, 600], got '${values.duration}'`;
  const connections =
    values.connections === undefined ? (smoke || deltas ? [10] : [10, 50]) : list([values.connections]).map(Number);
  if (connections.length === 0 || connections.some((c) => !Number.isInteger(c) || c < 1 || c > 1000))
    return `--connections: expected integers in 1..1000, got '${values.connections}'`;
  const iterations = values.iterations === undefined ? (smoke ? 5 : deltas ? 30 : 200) : Number(values.iterations);
  if (!Number.isInteger(iterations) || iterations < 1)
    return `--iterations: expected a positive integer, got '${values.iterations}'`;

  const windowCache = values['window-cache'];
  const windowCacheTtlSeconds = windowCache === undefined ? undefined : Number(windowCache);
  if (windowCacheTtlSeconds !== undefined && !(windowCache!.trim() !== '' && windowCacheTtlSeconds >= 0))
    return `--window-cache: expected seconds (0 turns the cache off), got '${windowCache}'`;

  const loader = (values.loader ?? 'load').trim().toLowerCase();
  if (!(LOADERS as readonly string[]).includes(loader))
    return `--loader: expected one of ${LOADERS.join(', ')}, got '${values.loader}'`;
  const clients = values.clients === undefined ? [...CLIENTS] : [...new Set(list([values.clients]))];
  const badClient = clients.find((c) => !(CLIENTS as readonly string[]).includes(c));
  if (badClient !== undefined || clients.length === 0)
    return `--clients: expected one or more of ${CLIENTS.join(', ')}, got '${values.clients}'`;
  const keepAliveSeconds =
    values['keep-alive-seconds'] === undefined ? (smoke ? 0.3 : 4) : Number(values['keep-alive-seconds']);
  if (!(keepAliveSeconds > 0 && keepAliveSeconds <= 600))
    return `--keep-alive-seconds: expected seconds in (0, 600], got '${values['keep-alive-seconds']}'`;
  const peer = env[PEER_ENV]?.trim() || undefined;

  return {
    sizes: sizes.length > 0 ? (sizes as Size[]) : smoke ? ['10k'] : [...DEFAULT_SIZES],
    stores: stores.length > 0 ? (stores as StoreKind[]) : virtuosoOnly !== undefined ? ['virtuoso'] : [...STORES],
    storesExplicit: stores.length > 0 || virtuosoOnly !== undefined,
    smoke,
    durationSeconds,
    connections,
    iterations,
    sequentialBudgetSeconds: smoke ? 1 : 30,
    maxRotation: smoke ? 5 : 50,
    ...(windowCacheTtlSeconds !== undefined && { windowCacheTtlSeconds }),
    sortCorpus: values['sort-corpus'] ?? false,
    ...(values.types !== undefined && { corpusTypes: list([values.types]) }),
    deltas,
    deltaRate,
    loader: loader as Loader,
    clients: clients as ClientKind[],
    keepAlive: { sequential: smoke ? 5 : 30, connections: 10, seconds: keepAliveSeconds },
    ...(peer !== undefined && { peer }),
  };
}

/** `--scaling-chart FILE...`: it draws and does not run, so every option of a run is refused rather than ignored. */
function scalingChartCommand(
  values: Readonly<Record<string, string | boolean | (string | boolean)[] | undefined>>,
  files: readonly string[],
): ScalingChartCommand | string {
  const runOption = Object.keys(values).find((name) => name !== 'scaling-chart' && name !== 'store');
  if (runOption !== undefined)
    return `--scaling-chart draws from result files and runs nothing: it takes no --${runOption}`;
  if (files.length < 2) return `--scaling-chart: expected two result files or more (one per size), got ${files.length}`;
  const notJson = files.find((f) => !f.endsWith('.json'));
  if (notJson !== undefined) return `--scaling-chart: expected result files (.json), got '${notJson}'`;
  const stores = [...new Set(list(values.store as string[] | undefined))];
  if (stores.length > 1) return `--scaling-chart draws one store: got --store ${stores.join(',')}`;
  const store = stores[0] ?? 'virtuoso';
  if (!(STORES as readonly string[]).includes(store))
    return `--store: expected one of ${STORES.join(', ')}, got '${store}'`;
  return { scalingChart: [...files], store: store as StoreKind };
}
