import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { isSafeAbsoluteIri } from '../mapping/iri.js';

/** A whole number in a range, with one message for every way a value can miss it. */
const wholeNumber = (min: number, max: number, expected: string) =>
  z.number({ error: expected }).int({ error: expected }).min(min, { error: expected }).max(max, { error: expected });

/** How many queries may wait in a lane. */
const queueLength = wholeNumber(0, 100_000, 'expected a queue length from 0 to 100000');

/** A duration in seconds, 0 or more. */
const seconds = z.number({ error: 'expected a number of seconds' }).min(0, { error: 'expected a number of seconds' });

/**
 * How to reach one dataset's triples: files for the embedded store, or an endpoint. `graph` is the
 * graph queried, with either: the endpoint's `default-graph-uri`, or the one named graph of the
 * files served (without it, the files serve the union of all their graphs).
 */
const datasetSchema = z
  .strictObject({
    // Without a mapping, serve scaffolds one from the data (scaffold/serve-scaffold.ts).
    mapping: z.string().optional(),
    data: z.array(z.string()).min(1).optional(),
    workers: wholeNumber(1, 64, 'expected a number of worker threads from 1 to 64').optional(),
    endpoint: z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' }).optional(),
    graph: z
      .string()
      .refine(isSafeAbsoluteIri, { error: 'expected an absolute IRI (http://example.org/graph)' })
      .optional(),
    user: z.string().optional(),
    password: z.string().optional(),
    // Each request's deadline (default 10 000): past it the store's work stops and the answer is a 504.
    timeoutMs: wholeNumber(100, 600_000, 'expected a number of milliseconds from 100 to 600000').optional(),
    // Admission control: how many queries of each lane run at once against the store, and how
    // many may wait (per lane); past that, 503 with Retry-After. See src/store/store.ts `Lane`.
    queries: z
      .strictObject({
        light: wholeNumber(1, 256, 'expected a number of queries from 1 to 256').optional(),
        heavy: wholeNumber(1, 256, 'expected a number of queries from 1 to 256').optional(),
        // One length for both lanes, or { light, heavy }.
        queue: z
          .union([queueLength, z.strictObject({ light: queueLength.optional(), heavy: queueLength.optional() })])
          .optional(),
      })
      .optional(),
    // What one request may ask (plan/plan.ts RequestLimits); past a limit, a 400.
    limits: z
      .strictObject({
        sortFields: wholeNumber(1, 100, 'expected a number from 1 to 100').optional(),
        filters: wholeNumber(1, 1000, 'expected a number from 1 to 1000').optional(),
        includePaths: wholeNumber(1, 1000, 'expected a number from 1 to 1000').optional(),
        included: wholeNumber(1, 1_000_000, 'expected a number from 1 to 1000000').optional(),
      })
      .optional(),
    // The prefix of every link: '' (type-rooted paths), an absolute path, or an http(s) URL; no query or fragment.
    linkBase: z
      .string()
      .refine((v) => v === '' || /^\/(?!\/)[^?#\s]*$/.test(v) || /^https?:\/\/[^/?#\s]+(\/[^?#\s]*)?$/i.test(v), {
        error: 'expected an absolute path (/api/data) or an http(s) URL (https://data.example.org/api), without ? or #',
      })
      .optional(),
    page: z
      .strictObject({ defaultSize: z.number().int().min(1).optional(), maxSize: z.number().int().min(1).optional() })
      .optional(),
    count: z.boolean().optional(),
    includeDepth: z.number().int().min(1).max(10).optional(),
    // Checked here so that a value Node would refuse as a header fails at start-up, not per request.
    cacheControl: z
      .string()
      .regex(/^[\x20-\x7e]+$/, 'expected a header value in printable ASCII, e.g. "public, max-age=60"')
      .optional(),
    cacheTtlSeconds: seconds.optional(),
    // The window cache (whole ordered lists, every page cut from them): 0 turns it off. Default:
    // on without expiry for the embedded store, off for an endpoint (its data may change).
    windowCacheTtlSeconds: seconds.optional(),
    // mu-cl-resources: filters also read its syntax (filter[:exact:name]…), for its front-ends.
    filterSyntax: z.enum(['json-api', 'mu-cl-resources'], { error: 'expected json-api or mu-cl-resources' }).optional(),
    // Answer `explain-plan` (the plan and each SPARQL query in meta.explain); off by default.
    explain: z.boolean().optional(),
  })
  .refine((d) => (d.data === undefined) !== (d.endpoint === undefined), {
    error: 'give either data (files for the embedded store) or endpoint, not both',
  })
  .refine((d) => (d.page?.defaultSize ?? 20) <= (d.page?.maxSize ?? Math.max(100, d.page?.defaultSize ?? 0)), {
    error: 'page.defaultSize may not exceed page.maxSize',
    path: ['page'],
  });

/** An origin as browsers send it: scheme, host and port only (`https://app.example.org`). */
export const originSchema = z.string().refine((value) => URL.canParse(value) && new URL(value).origin === value, {
  error: 'an origin: scheme://host[:port], with no path or trailing slash',
});

/** `HOST:PORT` (an IPv6 host in brackets): where the delta listener listens. */
const listenAddress = z
  .string()
  .regex(/^(\[[0-9a-fA-F:.]+\]|[^\s:[\]]+):\d{1,5}$/, {
    error: 'expected HOST:PORT, e.g. 127.0.0.1:8081 or 0.0.0.0:8081',
  })
  .refine((v) => !/:\d+$/.test(v) || Number(v.slice(v.lastIndexOf(':') + 1)) <= 65535, {
    error: 'expected a port number up to 65535',
  });

const configSchema = z.strictObject({
  port: wholeNumber(0, 65535, 'expected a port number (0 to 65535)').optional(),
  host: z.string().optional(),
  default: z.string().optional(),
  cors: z
    .strictObject({
      origins: z.union([z.literal('*'), z.array(originSchema)]),
      // Request headers a preflight may ask for (default: Accept, Content-Type, If-None-Match, Authorization, X-Requested-With).
      allowHeaders: z.array(z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'expected a header name')).optional(),
    })
    .optional(),
  cacheMaxMegabytes: z.number().positive().optional(),
  // Memory bound of the window cache, shared by every dataset that uses it (default 256).
  windowCacheMaxMegabytes: z.number().positive().optional(),
  // /metrics: on the API's port (default), on a port of its own, behind a bearer token, or off.
  metrics: z
    .strictObject({
      enabled: z.boolean().optional(),
      port: wholeNumber(0, 65535, 'expected a port number (0 to 65535)').optional(),
      token: z.string().min(16, 'expected a token of at least 16 characters').optional(),
    })
    .optional(),
  // /health: its own deadline (default 2000 ms); `details: true` shows each store's description.
  health: z
    .strictObject({
      timeoutMs: wholeNumber(100, 60_000, 'expected a number of milliseconds from 100 to 60000').optional(),
      details: z.boolean().optional(),
    })
    .optional(),
  // SIGTERM: how long in-flight requests may finish before they are aborted (default 10 000).
  shutdownTimeoutMs: wholeNumber(0, 600_000, 'expected a number of milliseconds from 0 to 600000').optional(),
  // Share of requests written to the access log, from 0 (off, the default) to 1 (every one).
  accessLogSample: z.number().min(0).max(1).optional(),
  // Log every request (accessLogSample 1): the one switch for a log line per successful request too.
  logRequests: z.boolean().optional(),
  // Longest request URL (path and query) accepted; longer ones get 414 (default 8192).
  maxUrlLength: wholeNumber(256, 65_536, 'expected a length from 256 to 65536').optional(),
  // serve --watch: reload a dataset whose data file (embedded store) or mapping file changes.
  watch: z.boolean().optional(),
  // Quiet time after a file's last change before its reload starts (default 200: editors write in steps).
  watchDebounceMs: wholeNumber(0, 60_000, 'expected a number of milliseconds from 0 to 60000').optional(),
  // Live data: a second listener for delta-notifier's messages (docs/live-data.md); with it, every
  // dataset's caches are on without expiry unless its TTLs say otherwise.
  deltas: z
    .strictObject({
      listen: listenAddress,
      token: z.string().min(16, 'expected a token of at least 16 characters').optional(),
      maxMegabytes: z.number().positive().optional(),
    })
    .optional(),
  datasets: z.record(z.string().regex(/^[a-zA-Z0-9_-]+$/, 'dataset names: letters, digits, - and _'), datasetSchema),
});

export type DatasetConfig = z.infer<typeof datasetSchema>;
type ConfigFile = z.infer<typeof configSchema>;
export interface ServerConfig {
  readonly port: number;
  readonly host: string;
  readonly default: string;
  readonly datasets: Readonly<Record<string, DatasetConfig>>;
  /** Origins whose scripts may read responses (any origin when absent), and the request headers a preflight may ask for. */
  readonly cors?: { readonly origins: '*' | readonly string[]; readonly allowHeaders?: readonly string[] };
  /** Memory bound of the response cache, shared by the datasets that give it a TTL; 64 when absent. */
  readonly cacheMaxMegabytes?: number;
  /** Memory bound of the window cache, shared by the datasets that use it; 256 when absent. */
  readonly windowCacheMaxMegabytes?: number;
  /** `/metrics`: on by default, on the API's port and without a token. */
  readonly metrics?: { readonly enabled?: boolean; readonly port?: number; readonly token?: string };
  /** `/health`: its own deadline (2000 ms by default), and whether it names each store. */
  readonly health?: { readonly timeoutMs?: number; readonly details?: boolean };
  /** How long in-flight requests may finish after SIGTERM; 10 000 ms when absent. */
  readonly shutdownTimeoutMs?: number;
  /** Share of requests written to the access log; 0 (off) when absent. */
  readonly accessLogSample?: number;
  /** Longest request URL accepted (414 beyond); 8192 when absent. */
  readonly maxUrlLength?: number;
  /** Reload a dataset whose data or mapping file changes (`cli/watch-files.ts`). */
  readonly watch?: boolean;
  /** With `watch`: quiet time after a file's last change before its reload starts; 200 ms when absent. */
  readonly watchDebounceMs?: number;
  /** The delta listener: where, its bearer token, its body limit. Absent: no listener. */
  readonly deltas?: DeltasConfig;
}

/** Where and how the delta listener listens (`live/delta-listener.ts`). */
export interface DeltasConfig {
  readonly host: string;
  readonly port: number;
  readonly token?: string;
  readonly maxBytes?: number;
}

/** A configuration that can't be used; the CLI prints the message and exits with code 2. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Reads a `--config` file (YAML or JSON); relative paths in it are relative to the file. */
export async function readConfigFile(file: string): Promise<ServerConfig> {
  let raw: unknown;
  try {
    raw = parseYaml(await readFile(file, 'utf8'));
  } catch (error) {
    throw new ConfigError(`${file}: cannot read the configuration: ${(error as Error).message}`);
  }
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) {
    throw new ConfigError(
      `${file}: invalid configuration\n${parsed.error.issues.map((i) => `  ${file}: ${i.path.join('.') || '(top level)'}: ${i.message}`).join('\n')}`,
    );
  }
  return compileConfig(parsed.data, dirname(file), file);
}

/** A checked configuration → ServerConfig: the default dataset chosen, relative paths resolved against `base`. */
function compileConfig(config: ConfigFile, base: string, source: string): ServerConfig {
  const names = Object.keys(config.datasets);
  const defaultName = config.default ?? names[0];
  if (defaultName === undefined || !names.includes(defaultName))
    throw new ConfigError(`${source}: default: '${defaultName}' is not one of the datasets (${names.join(', ')})`);
  const datasets = Object.fromEntries(
    Object.entries(config.datasets).map(([name, d]) => [
      name,
      {
        ...d,
        ...(d.mapping !== undefined && { mapping: resolve(base, d.mapping) }),
        ...(d.data && { data: d.data.map((f) => resolve(base, f)) }),
      },
    ]),
  );
  return {
    port: config.port ?? 3000,
    host: config.host ?? '127.0.0.1',
    default: defaultName,
    datasets,
    ...(config.cors && { cors: config.cors }),
    ...(config.cacheMaxMegabytes !== undefined && { cacheMaxMegabytes: config.cacheMaxMegabytes }),
    ...(config.windowCacheMaxMegabytes !== undefined && { windowCacheMaxMegabytes: config.windowCacheMaxMegabytes }),
    ...(config.metrics && { metrics: config.metrics }),
    ...(config.health && { health: config.health }),
    ...(config.shutdownTimeoutMs !== undefined && { shutdownTimeoutMs: config.shutdownTimeoutMs }),
    ...(config.accessLogSample !== undefined && { accessLogSample: config.accessLogSample }),
    ...(config.logRequests && { accessLogSample: 1 }),
    ...(config.maxUrlLength !== undefined && { maxUrlLength: config.maxUrlLength }),
    ...(config.deltas && { deltas: deltasConfig(config.deltas) }),
    ...(config.watch && { watch: true }),
    ...(config.watchDebounceMs !== undefined && { watchDebounceMs: config.watchDebounceMs }),
  };
}

function deltasConfig({ listen, token, maxMegabytes }: NonNullable<ConfigFile['deltas']>): DeltasConfig {
  const colon = listen.lastIndexOf(':');
  return {
    host: listen.slice(0, colon).replace(/^\[(.*)\]$/, '$1'),
    port: Number(listen.slice(colon + 1)),
    ...(token !== undefined && { token }),
    ...(maxMegabytes !== undefined && { maxBytes: Math.round(maxMegabytes * 2 ** 20) }),
  };
}

/**
 * The `serve` switches that hold whatever the configuration says: `--explain` turns explain on
 * for every dataset, `--log-requests` logs every request.
 *
 * @example withSwitches(config, { explain: true }).datasets.default.explain // true
 */
export function withSwitches(config: ServerConfig, flags: ServeSwitches): ServerConfig {
  const datasets = flags.explain
    ? Object.fromEntries(Object.entries(config.datasets).map(([name, d]) => [name, { ...d, explain: true }]))
    : config.datasets;
  return {
    ...config,
    datasets,
    ...(flags['log-requests'] && { accessLogSample: 1 }),
    ...(flags.watch && { watch: true }),
  };
}

/** The `serve` flags that take no value. */
export interface ServeSwitches {
  readonly explain?: boolean;
  readonly 'log-requests'?: boolean;
  readonly watch?: boolean;
}

/** The `serve` flags, as node:util parseArgs gives them (every value a string). */
export type ServeFlags = Partial<
  Record<
    | 'mapping'
    | 'endpoint'
    | 'graph'
    | 'dataset'
    | 'port'
    | 'host'
    | 'user'
    | 'password'
    | 'link-base'
    | 'workers'
    | 'cache-ttl'
    | 'window-cache-ttl'
    | 'cache-control'
    | 'filter-syntax'
    | 'delta-listen'
    | 'delta-token'
    | 'watch-debounce',
    string
  >
> & {
  readonly data?: readonly string[];
  readonly 'cors-origin'?: readonly string[];
};

/** Where each configuration key comes from on the command line, for messages. */
const FLAG_OF: Readonly<Record<string, string>> = {
  port: '--port',
  host: '--host',
  cors: '--cors-origin',
  mapping: '--mapping',
  data: '--data',
  endpoint: '--endpoint',
  graph: '--graph',
  user: '--user',
  password: '--password',
  linkBase: '--link-base',
  workers: '--workers',
  cacheTtlSeconds: '--cache-ttl',
  windowCacheTtlSeconds: '--window-cache-ttl',
  cacheControl: '--cache-control',
  filterSyntax: '--filter-syntax',
  'deltas.listen': '--delta-listen',
  'deltas.token': '--delta-token',
  watchDebounceMs: '--watch-debounce',
};

/**
 * The configuration `serve` flags describe: one dataset, checked by the same schema as a
 * configuration file, with every problem named by its flag (`--port: expected a port number (0 to
 * 65535), got 'http'`). `env` supplies SPARQL_ENDPOINT when neither --data nor --endpoint is given.
 *
 * @example configFromFlags({ mapping: 'mappings/sample.yaml', data: ['data/sample.ttl'], port: '0' }, {})
 */
export function configFromFlags(flags: ServeFlags, env: NodeJS.ProcessEnv): ServerConfig {
  if (!flags.data?.length === !flags.endpoint && !env.SPARQL_ENDPOINT)
    throw new ConfigError('give either --data FILE... or --endpoint URL');
  const name = flags.dataset ?? 'default';
  const origins = flags['cors-origin'];
  const raw = {
    ...(flags.port !== undefined && { port: numeric(flags.port) }),
    ...(flags.host !== undefined && { host: flags.host }),
    ...(origins && { cors: { origins: origins.includes('*') ? '*' : origins } }),
    ...(flags['delta-listen'] !== undefined && {
      deltas: {
        listen: flags['delta-listen'],
        ...(flags['delta-token'] !== undefined && { token: flags['delta-token'] }),
      },
    }),
    ...(flags['watch-debounce'] !== undefined && { watchDebounceMs: numeric(flags['watch-debounce']) }),
    datasets: {
      [name]: {
        ...(flags.mapping !== undefined && { mapping: flags.mapping }),
        ...(flags.data?.length ? { data: flags.data } : { endpoint: flags.endpoint ?? env.SPARQL_ENDPOINT }),
        ...(flags.graph !== undefined && { graph: flags.graph }),
        ...(flags.user !== undefined && { user: flags.user }),
        ...(flags.password !== undefined && { password: flags.password }),
        ...(flags['link-base'] !== undefined && { linkBase: flags['link-base'] }),
        ...(flags.workers !== undefined && { workers: numeric(flags.workers) }),
        ...(flags['cache-ttl'] !== undefined && { cacheTtlSeconds: numeric(flags['cache-ttl']) }),
        ...(flags['window-cache-ttl'] !== undefined && {
          windowCacheTtlSeconds: numeric(flags['window-cache-ttl']),
        }),
        ...(flags['cache-control'] !== undefined && { cacheControl: flags['cache-control'] }),
        ...(flags['filter-syntax'] !== undefined && { filterSyntax: flags['filter-syntax'] }),
      },
    },
  };
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues
        .map((issue) => {
          const [first, second, third] = issue.path;
          const key = first === 'datasets' ? third : first === 'deltas' ? `deltas.${String(second)}` : first;
          const flag = typeof key === 'string' ? (FLAG_OF[key] ?? key) : 'serve';
          const given = valueAt(raw, issue.path);
          return `${flag}: ${issue.message}${typeof given === 'string' || typeof given === 'number' ? `, got '${given}'` : ''}`;
        })
        .join('\n'),
    );
  }
  return compileConfig(parsed.data, process.cwd(), 'serve');
}

/** A flag's value as a number when it reads as one; as it is otherwise, so the schema names the problem. */
const numeric = (value: string): number | string =>
  value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : value;

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  return path.reduce<unknown>(
    (at, key) => (at !== null && typeof at === 'object' ? (at as Record<PropertyKey, unknown>)[key] : undefined),
    value,
  );
}

/** Keys of a dataset that only the embedded store reads. */
const EMBEDDED_ONLY = ['data', 'workers'] as const;

/**
 * The environment's overrides: `PORT`, `HOST`, and `SPARQL_ENDPOINT` / `SPARQL_GRAPH` /
 * `SPARQL_USER` / `SPARQL_PASSWORD`, which point the default dataset at an endpoint. Everything
 * else the default dataset sets (page limits, count, include depth, caching, timeout, links) stays.
 *
 * @example applyEnvironment(config, { SPARQL_ENDPOINT: 'http://localhost:8890/sparql' })
 */
export function applyEnvironment(config: ServerConfig, env: NodeJS.ProcessEnv): ServerConfig {
  const port = env.PORT === undefined ? config.port : numeric(env.PORT);
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 0 || port > 65535)
    throw new ConfigError(`PORT: expected a port number (0 to 65535), got '${env.PORT}'`);
  const current = config.datasets[config.default]!;
  let dataset: DatasetConfig = current;
  if (env.SPARQL_ENDPOINT) {
    const remote: Record<string, unknown> = { ...current };
    for (const key of EMBEDDED_ONLY) delete remote[key];
    const graph = env.SPARQL_GRAPH ?? current.graph;
    const user = env.SPARQL_USER ?? current.user;
    const password = env.SPARQL_PASSWORD ?? current.password;
    dataset = {
      ...(remote as DatasetConfig),
      endpoint: env.SPARQL_ENDPOINT,
      ...(graph && { graph }),
      ...(user && { user }),
      ...(password && { password }),
    };
  }
  return {
    ...config,
    port,
    host: env.HOST ?? config.host,
    datasets: { ...config.datasets, [config.default]: dataset },
  };
}
