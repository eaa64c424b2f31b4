import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { type ConfigFile, configSchema, type DatasetConfig, datasetSchema, numeric } from './config-schema.js';

export type { DatasetConfig } from './config-schema.js';

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
  /** The URL at which clients reach `/`, without a trailing slash: links start with it. */
  readonly publicBase?: string;
  /** Links follow `Forwarded` / `X-Forwarded-*` where a request has them well-formed. */
  readonly trustProxy?: boolean;
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
export function compileConfig(config: ConfigFile, base: string, source: string): ServerConfig {
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
    ...(config.publicBase !== undefined && { publicBase: config.publicBase }),
    ...(config.trustProxy && { trustProxy: true }),
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

/** Keys of a dataset that only the embedded store reads. */
const EMBEDDED_ONLY = ['data', 'workers'] as const;

/**
 * The environment's overrides: `PORT`, `HOST`, `PUBLIC_BASE_URL`, `LINKAGE` (the default
 * dataset's), and `SPARQL_ENDPOINT` / `SPARQL_GRAPH` /
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
  const publicBase = env.PUBLIC_BASE_URL ? checkedPublicBase(env.PUBLIC_BASE_URL) : config.publicBase;
  if (env.LINKAGE) dataset = { ...dataset, linkage: checkedLinkage(env.LINKAGE) };
  return {
    ...config,
    port,
    host: env.HOST ?? config.host,
    datasets: { ...config.datasets, [config.default]: dataset },
    ...(publicBase !== undefined && { publicBase }),
  };
}

/** `PUBLIC_BASE_URL` checked as the configuration key is. */
function checkedPublicBase(value: string): string {
  const parsed = configSchema.shape.publicBase.safeParse(value);
  if (!parsed.success) throw new ConfigError(`PUBLIC_BASE_URL: ${parsed.error.issues[0]?.message}, got '${value}'`);
  return parsed.data!;
}

/** `LINKAGE` (the default dataset's `linkage`) checked as the configuration key is. */
function checkedLinkage(value: string): NonNullable<DatasetConfig['linkage']> {
  const parsed = datasetSchema.shape.linkage.safeParse(value);
  if (!parsed.success) throw new ConfigError(`LINKAGE: ${parsed.error.issues[0]?.message}, got '${value}'`);
  return parsed.data!;
}
