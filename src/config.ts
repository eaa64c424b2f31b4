import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';

/** How to reach one dataset's triples: files for the embedded store, or an endpoint. */
const datasetSchema = z
  .strictObject({
    mapping: z.string(),
    data: z.array(z.string()).min(1).optional(),
    workers: z.number().int().min(1).max(64).optional(),
    endpoint: z.url().optional(),
    graph: z.string().optional(),
    user: z.string().optional(),
    password: z.string().optional(),
    timeoutMs: z.number().int().positive().optional(),
    linkBase: z.string().optional(),
    page: z.strictObject({ defaultSize: z.number().int().min(1).optional(), maxSize: z.number().int().min(1).optional() }).optional(),
    count: z.boolean().optional(),
    includeDepth: z.number().int().min(1).max(10).optional(),
    // Checked here so that a value Node would refuse as a header fails at start-up, not per request.
    cacheControl: z.string().regex(/^[\x20-\x7e]+$/, 'printable ASCII, e.g. "public, max-age=60"').optional(),
    cacheTtlSeconds: z.number().min(0).optional(),
  })
  .refine((d) => (d.data === undefined) !== (d.endpoint === undefined), { error: 'give either data (files for the embedded store) or endpoint, not both' })
  .refine((d) => (d.page?.defaultSize ?? 20) <= (d.page?.maxSize ?? Math.max(100, d.page?.defaultSize ?? 0)), { error: 'page.defaultSize may not exceed page.maxSize', path: ['page'] });

/** An origin as browsers send it: scheme, host and port only (`https://app.example.org`). */
export const originSchema = z.string().refine((value) => URL.canParse(value) && new URL(value).origin === value, {
  error: 'an origin: scheme://host[:port], with no path or trailing slash',
});

const configSchema = z.strictObject({
  port: z.number().int().min(0).max(65535).optional(),
  host: z.string().optional(),
  default: z.string().optional(),
  cors: z.strictObject({ origins: z.union([z.literal('*'), z.array(originSchema)]) }).optional(),
  cacheMaxMegabytes: z.number().positive().optional(),
  datasets: z.record(z.string().regex(/^[a-zA-Z0-9_-]+$/, 'dataset names: letters, digits, - and _'), datasetSchema),
});

export type DatasetConfig = z.infer<typeof datasetSchema>;
export interface ServerConfig {
  readonly port: number;
  readonly host: string;
  readonly default: string;
  readonly datasets: Readonly<Record<string, DatasetConfig>>;
  /** Origins whose scripts may read responses; any origin when absent. */
  readonly cors?: { readonly origins: '*' | readonly string[] };
  /** Memory bound of the response cache, shared by the datasets that give it a TTL; 64 when absent. */
  readonly cacheMaxMegabytes?: number;
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
    throw new ConfigError(`${file}: invalid configuration\n${parsed.error.issues.map((i) => `  ${file}: ${i.path.join('.') || '(top level)'}: ${i.message}`).join('\n')}`);
  }
  const base = dirname(file);
  const names = Object.keys(parsed.data.datasets);
  const defaultName = parsed.data.default ?? names[0];
  if (defaultName === undefined || !names.includes(defaultName)) throw new ConfigError(`${file}: default: '${defaultName}' is not one of the datasets (${names.join(', ')})`);
  const datasets = Object.fromEntries(
    Object.entries(parsed.data.datasets).map(([name, d]) => [name, { ...d, mapping: resolve(base, d.mapping), ...(d.data && { data: d.data.map((f) => resolve(base, f)) }) }]),
  );
  return {
    port: parsed.data.port ?? 3000,
    host: parsed.data.host ?? '127.0.0.1',
    default: defaultName,
    datasets,
    ...(parsed.data.cors && { cors: parsed.data.cors }),
    ...(parsed.data.cacheMaxMegabytes !== undefined && { cacheMaxMegabytes: parsed.data.cacheMaxMegabytes }),
  };
}

/**
 * The environment's overrides: `PORT`, `HOST`, and `SPARQL_ENDPOINT` / `SPARQL_GRAPH` /
 * `SPARQL_USER` / `SPARQL_PASSWORD`, which point the default dataset at an endpoint.
 */
export function applyEnvironment(config: ServerConfig, env: NodeJS.ProcessEnv): ServerConfig {
  const port = env.PORT === undefined ? config.port : Number(env.PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`PORT: expected a port number, got '${env.PORT}'`);
  const current = config.datasets[config.default]!;
  const dataset: DatasetConfig = env.SPARQL_ENDPOINT
    ? {
        mapping: current.mapping,
        endpoint: env.SPARQL_ENDPOINT,
        ...((env.SPARQL_GRAPH ?? current.graph) && { graph: env.SPARQL_GRAPH ?? current.graph }),
        ...((env.SPARQL_USER ?? current.user) && { user: env.SPARQL_USER ?? current.user }),
        ...((env.SPARQL_PASSWORD ?? current.password) && { password: env.SPARQL_PASSWORD ?? current.password }),
        ...(current.linkBase !== undefined && { linkBase: current.linkBase }),
      }
    : current;
  return { ...config, port, host: env.HOST ?? config.host, datasets: { ...config.datasets, [config.default]: dataset } };
}
