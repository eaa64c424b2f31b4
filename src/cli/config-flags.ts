import { ConfigError, compileConfig, type ServerConfig } from './config.js';
import { configSchema, numeric } from './config-schema.js';

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
    | 'public-base'
    | 'workers'
    | 'cache-ttl'
    | 'window-cache-ttl'
    | 'cache-control'
    | 'filter-syntax'
    | 'linkage'
    | 'delta-listen'
    | 'delta-token'
    | 'watch-debounce',
    string
  >
> & {
  readonly 'trust-proxy'?: boolean;
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
  publicBase: '--public-base',
  workers: '--workers',
  cacheTtlSeconds: '--cache-ttl',
  windowCacheTtlSeconds: '--window-cache-ttl',
  cacheControl: '--cache-control',
  filterSyntax: '--filter-syntax',
  linkage: '--linkage',
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
    ...(flags['public-base'] !== undefined && { publicBase: flags['public-base'] }),
    ...(flags['trust-proxy'] && { trustProxy: true }),
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
        ...(flags.linkage !== undefined && { linkage: flags.linkage }),
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

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  return path.reduce<unknown>(
    (at, key) => (at !== null && typeof at === 'object' ? (at as Record<PropertyKey, unknown>)[key] : undefined),
    value,
  );
}
