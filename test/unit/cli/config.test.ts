/**
 * The serve configuration as the CLI builds it (src/cli/main.ts):
 *   applyEnvironment(values.config ? await readConfigFile(values.config) : configFromFlags(values, env), env)
 * as a table of flags × config file × environment, with the whole ServerConfig compared. The
 * environment points the default dataset at an endpoint: `data` and `workers` give way, the
 * dataset's other options stay (README, "Command line and configuration"), other datasets are
 * untouched. Also: the flags are checked by the config file's schema and named in its messages,
 * and a set of flags gives the same ServerConfig as the equivalent file.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import {
  applyEnvironment,
  ConfigError,
  type DatasetConfig,
  readConfigFile,
  type ServerConfig,
  withSwitches,
} from '../../../src/cli/config.js';
import { configFromFlags, type ServeFlags } from '../../../src/cli/config-flags.js';
import { thrown } from '../../support/thrown.js';
import { titled } from '../../support/titled.js';

let dir: string;
/** An absolute path in the temp dir (where the config files are). */
const inDir = (...parts: string[]) => join(dir, ...parts);

/** What the CLI does with `--config FILE` or with flags, then the environment. */
async function configure(
  source: { file: string } | { flags: ServeFlags },
  env: NodeJS.ProcessEnv,
): Promise<ServerConfig> {
  return applyEnvironment(
    'file' in source ? await readConfigFile(inDir(source.file)) : configFromFlags(source.flags, env),
    env,
  );
}

// The config files, as written (relative paths: resolved against the file's directory).
const MAIN = {
  mapping: 'mappings/main.yaml',
  data: ['data/a.ttl', '../shared/b.nt'],
  workers: 3,
  graph: 'http://example.org/file-graph',
  user: 'file-user',
  password: 'file-password',
  timeoutMs: 5000,
  linkBase: 'https://data.example.org/api/main',
  page: { defaultSize: 5, maxSize: 50 },
  count: false,
  includeDepth: 2,
  cacheControl: 'public, max-age=60',
  cacheTtlSeconds: 30,
  windowCacheTtlSeconds: 600,
};
const OTHER = {
  mapping: '/srv/other/mapping.yaml',
  endpoint: 'http://other.example.org/sparql',
  graph: 'http://example.org/other-graph',
  user: 'other-user',
  password: 'other-password',
  page: { defaultSize: 7 },
  count: true,
  timeoutMs: 1000,
};
const FILES: Record<string, unknown> = {
  // `other` first, so that "the default dataset" and "the first dataset" differ.
  'full.yaml': {
    port: 8080,
    host: '0.0.0.0',
    default: 'main',
    cors: { origins: ['https://app.example.org'] },
    cacheMaxMegabytes: 16,
    windowCacheMaxMegabytes: 128,
    datasets: { other: OTHER, main: MAIN },
  },
  // No port, host or default (the first dataset is); no graph, user or password.
  'sub/bare.yaml': {
    datasets: {
      only: {
        mapping: 'm.yaml',
        data: ['d.ttl'],
        page: { defaultSize: 3, maxSize: 9 },
        count: false,
        includeDepth: 1,
        cacheControl: 'no-store',
        cacheTtlSeconds: 0,
        timeoutMs: 100,
      },
    },
  },
  // A default dataset that is an endpoint already; JSON is YAML too.
  'remote.json': {
    default: 'remote',
    datasets: {
      remote: {
        mapping: './m.yaml',
        endpoint: 'http://file.example.org/sparql',
        graph: 'http://example.org/file-graph',
        timeoutMs: 2500,
        linkBase: '/api/remote',
        page: { maxSize: 500 },
      },
    },
  },
};

/** The file's `main` after reading: relative paths resolved against the file's directory, nothing else changed. */
const mainRead = () => ({
  ...MAIN,
  mapping: inDir('mappings/main.yaml'),
  data: [inDir('data/a.ttl'), resolve(dir, '../shared/b.nt')],
});
/** What the environment must leave of `main` when it points it at an endpoint. */
const MAIN_KEPT = {
  timeoutMs: 5000,
  linkBase: 'https://data.example.org/api/main',
  page: { defaultSize: 5, maxSize: 50 },
  count: false,
  includeDepth: 2,
  cacheControl: 'public, max-age=60',
  cacheTtlSeconds: 30,
  windowCacheTtlSeconds: 600,
};
const fullRead = (main: DatasetConfig, top: Partial<ServerConfig> = {}): ServerConfig => ({
  port: 8080,
  host: '0.0.0.0',
  default: 'main',
  datasets: { other: OTHER, main },
  cors: { origins: ['https://app.example.org'] },
  cacheMaxMegabytes: 16,
  windowCacheMaxMegabytes: 128,
  ...top,
});
const BARE_KEPT = {
  page: { defaultSize: 3, maxSize: 9 },
  count: false,
  includeDepth: 1,
  cacheControl: 'no-store',
  cacheTtlSeconds: 0,
  timeoutMs: 100,
};

const ENDPOINT = 'http://env.example.org:8890/sparql';
const GRAPH = 'http://example.org/env-graph';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'config-test-'));
  await mkdir(inDir('sub'));
  for (const [name, content] of Object.entries(FILES))
    await writeFile(inDir(name), name.endsWith('.json') ? JSON.stringify(content) : stringify(content));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('config file × environment', () => {
  it.each(
    titled<{ name: string; file: string; env: NodeJS.ProcessEnv; expected: () => ServerConfig }>(
      [
        {
          name: 'no environment: the file as written, relative paths resolved against its directory',
          file: 'full.yaml',
          env: {},
          expected: () => fullRead(mainRead()),
        },
        {
          name: 'PORT and HOST only: the default dataset keeps its data and workers',
          file: 'full.yaml',
          env: { PORT: '0', HOST: '::' },
          expected: () => fullRead(mainRead(), { port: 0, host: '::' }),
        },
        {
          name: 'SPARQL_GRAPH without SPARQL_ENDPOINT: an embedded default dataset is left alone',
          file: 'full.yaml',
          env: { SPARQL_GRAPH: GRAPH, SPARQL_USER: 'env-user' },
          expected: () => fullRead(mainRead()),
        },
        {
          name: "SPARQL_ENDPOINT: endpoint replaces data and workers; the file's options, graph, user and password stay",
          file: 'full.yaml',
          env: { SPARQL_ENDPOINT: ENDPOINT },
          expected: () =>
            fullRead({
              mapping: inDir('mappings/main.yaml'),
              ...MAIN_KEPT,
              endpoint: ENDPOINT,
              graph: MAIN.graph,
              user: MAIN.user,
              password: MAIN.password,
            }),
        },
        {
          name: "SPARQL_ENDPOINT + SPARQL_GRAPH: the graph is the environment's, user and password the file's",
          file: 'full.yaml',
          env: { SPARQL_ENDPOINT: ENDPOINT, SPARQL_GRAPH: GRAPH },
          expected: () =>
            fullRead({
              mapping: inDir('mappings/main.yaml'),
              ...MAIN_KEPT,
              endpoint: ENDPOINT,
              graph: GRAPH,
              user: MAIN.user,
              password: MAIN.password,
            }),
        },
        {
          name: "SPARQL_ENDPOINT + SPARQL_USER + SPARQL_PASSWORD + HOST: credentials and host the environment's, graph the file's",
          file: 'full.yaml',
          env: { SPARQL_ENDPOINT: ENDPOINT, SPARQL_USER: 'env-user', SPARQL_PASSWORD: 'env-password', HOST: '0.0.0.0' },
          expected: () =>
            fullRead({
              mapping: inDir('mappings/main.yaml'),
              ...MAIN_KEPT,
              endpoint: ENDPOINT,
              graph: MAIN.graph,
              user: 'env-user',
              password: 'env-password',
            }),
        },
        {
          name: 'every variable: all four SPARQL_* and PORT and HOST',
          file: 'full.yaml',
          env: {
            SPARQL_ENDPOINT: ENDPOINT,
            SPARQL_GRAPH: GRAPH,
            SPARQL_USER: 'env-user',
            SPARQL_PASSWORD: 'env-password',
            PORT: '9090',
            HOST: '10.0.0.1',
          },
          expected: () =>
            fullRead(
              {
                mapping: inDir('mappings/main.yaml'),
                ...MAIN_KEPT,
                endpoint: ENDPOINT,
                graph: GRAPH,
                user: 'env-user',
                password: 'env-password',
              },
              { port: 9090, host: '10.0.0.1' },
            ),
        },
        {
          name: 'a file with no port, host, default, graph or credentials: defaults, the first dataset, paths against the subdirectory',
          file: 'sub/bare.yaml',
          env: {},
          expected: () => ({
            port: 3000,
            host: '127.0.0.1',
            default: 'only',
            datasets: { only: { mapping: inDir('sub', 'm.yaml'), data: [inDir('sub', 'd.ttl')], ...BARE_KEPT } },
          }),
        },
        {
          name: 'the same + SPARQL_ENDPOINT + SPARQL_GRAPH + PORT: a graph appears, no user or password keys; the options stay',
          file: 'sub/bare.yaml',
          env: { SPARQL_ENDPOINT: ENDPOINT, SPARQL_GRAPH: GRAPH, PORT: '65535' },
          expected: () => ({
            port: 65535,
            host: '127.0.0.1',
            default: 'only',
            datasets: { only: { mapping: inDir('sub', 'm.yaml'), ...BARE_KEPT, endpoint: ENDPOINT, graph: GRAPH } },
          }),
        },
        {
          name: 'a JSON file whose default dataset is an endpoint: SPARQL_ENDPOINT and SPARQL_PASSWORD replace its endpoint and add a password; the graph and options stay',
          file: 'remote.json',
          env: { SPARQL_ENDPOINT: ENDPOINT, SPARQL_PASSWORD: 'env-password' },
          expected: () => ({
            port: 3000,
            host: '127.0.0.1',
            default: 'remote',
            datasets: {
              remote: {
                mapping: inDir('m.yaml'),
                endpoint: ENDPOINT,
                graph: 'http://example.org/file-graph',
                timeoutMs: 2500,
                linkBase: '/api/remote',
                page: { maxSize: 500 },
                password: 'env-password',
              },
            },
          }),
        },
      ],
      (row) => `${row.file}, env ${Object.keys(row.env).join(' ') || '(none)'}: ${row.name}`,
    ),
  )('%s', async (_, { file, env, expected }) => {
    expect(await configure({ file }, env)).toStrictEqual(expected());
  });

  it.each([
    'timeoutMs',
    'linkBase',
    'page',
    'count',
    'includeDepth',
    'cacheControl',
    'cacheTtlSeconds',
    'windowCacheTtlSeconds',
  ] as const)("SPARQL_ENDPOINT keeps the default dataset's %s as the file sets it", async (key) => {
    const config = await configure({ file: 'full.yaml' }, { SPARQL_ENDPOINT: ENDPOINT });
    expect(config.datasets.main![key], key).toStrictEqual(MAIN[key]);
  });

  it.each(
    titled<NodeJS.ProcessEnv>(
      [
        {},
        { SPARQL_ENDPOINT: ENDPOINT },
        {
          SPARQL_ENDPOINT: ENDPOINT,
          SPARQL_GRAPH: GRAPH,
          SPARQL_USER: 'u',
          SPARQL_PASSWORD: 'p',
          PORT: '1',
          HOST: 'h',
        },
      ],
      (env) => `env ${Object.keys(env).join(' ') || '(none)'} never touches a dataset that is not the default`,
    ),
  )('%s', async (_, env) => {
    expect((await configure({ file: 'full.yaml' }, env)).datasets.other).toStrictEqual(OTHER);
  });

  it('the environment does not change the config it is given', async () => {
    const read = await readConfigFile(inDir('full.yaml'));
    const before = structuredClone(read);
    applyEnvironment(read, { SPARQL_ENDPOINT: ENDPOINT, SPARQL_GRAPH: GRAPH, PORT: '1' });
    expect(read).toStrictEqual(before);
  });

  it.each(['http', '65536', '-1', '3.5', '80abc'])(
    'PORT=%s is a ConfigError naming PORT and the value',
    async (port) => {
      const config = await readConfigFile(inDir('full.yaml'));
      const error = thrown(ConfigError, () => applyEnvironment(config, { PORT: port }));
      expect(error.message).toMatch(/^PORT: expected a port number/);
      expect(error.message).toContain(`'${port}'`);
    },
  );

  it('PORT= (set but empty) is a ConfigError too, as --port with an empty value is, not port 0', async () => {
    const config = await readConfigFile(inDir('full.yaml'));
    const error = thrown(ConfigError, () => applyEnvironment(config, { PORT: '' }));
    expect(error.message).toMatch(/^PORT: expected a port number/);
    expect(
      thrown(ConfigError, () => configFromFlags({ mapping: 'm.yaml', data: ['d.ttl'], port: '' }, {})).message,
    ).toMatch(/^--port: expected a port number/);
  });
});

describe('flags × environment', () => {
  it.each(
    titled<{ name: string; flags: ServeFlags; env: NodeJS.ProcessEnv; expected: () => ServerConfig }>(
      [
        {
          name: 'flags only: one dataset named default, paths against the working directory, default port and host',
          flags: { mapping: 'mappings/sample.yaml', data: ['data/sample.ttl', '/abs/more.nt'] },
          env: {},
          expected: () => ({
            port: 3000,
            host: '127.0.0.1',
            default: 'default',
            datasets: {
              default: { mapping: resolve('mappings/sample.yaml'), data: [resolve('data/sample.ttl'), '/abs/more.nt'] },
            },
          }),
        },
        {
          name: 'no --data or --endpoint: SPARQL_ENDPOINT supplies the endpoint',
          flags: { mapping: 'mappings/sample.yaml', port: '0' },
          env: { SPARQL_ENDPOINT: ENDPOINT },
          expected: () => ({
            port: 0,
            host: '127.0.0.1',
            default: 'default',
            datasets: { default: { mapping: resolve('mappings/sample.yaml'), endpoint: ENDPOINT } },
          }),
        },
        {
          name: '--data, --workers and the options + SPARQL_ENDPOINT, SPARQL_GRAPH, PORT: the endpoint replaces data and workers, the options stay',
          flags: {
            mapping: 'mappings/sample.yaml',
            data: ['data/sample.ttl'],
            workers: '4',
            graph: 'http://example.org/flag-graph',
            'link-base': '/api/x',
            'cache-ttl': '12',
            'cache-control': 'private',
            port: '1234',
          },
          env: { SPARQL_ENDPOINT: ENDPOINT, SPARQL_GRAPH: GRAPH, PORT: '4321' },
          expected: () => ({
            port: 4321,
            host: '127.0.0.1',
            default: 'default',
            datasets: {
              default: {
                mapping: resolve('mappings/sample.yaml'),
                linkBase: '/api/x',
                cacheTtlSeconds: 12,
                cacheControl: 'private',
                endpoint: ENDPOINT,
                graph: GRAPH,
              },
            },
          }),
        },
        {
          name: "--endpoint, --graph, --user, --password + SPARQL_ENDPOINT and SPARQL_USER: those two replaced, graph and password the flags'",
          flags: {
            mapping: 'mappings/sample.yaml',
            endpoint: 'http://flag.example.org/sparql',
            graph: 'http://example.org/flag-graph',
            user: 'flag-user',
            password: 'flag-password',
          },
          env: { SPARQL_ENDPOINT: ENDPOINT, SPARQL_USER: 'env-user' },
          expected: () => ({
            port: 3000,
            host: '127.0.0.1',
            default: 'default',
            datasets: {
              default: {
                mapping: resolve('mappings/sample.yaml'),
                endpoint: ENDPOINT,
                graph: 'http://example.org/flag-graph',
                user: 'env-user',
                password: 'flag-password',
              },
            },
          }),
        },
        {
          name: '--dataset, --host, --cors-origin * + HOST: the dataset takes the name, HOST beats --host, any origin',
          flags: {
            mapping: 'mappings/sample.yaml',
            data: ['data/sample.ttl'],
            dataset: 'trade',
            host: '0.0.0.0',
            'cors-origin': ['https://a.example.org', '*'],
          },
          env: { HOST: '::1' },
          expected: () => ({
            port: 3000,
            host: '::1',
            default: 'trade',
            cors: { origins: '*' },
            datasets: { trade: { mapping: resolve('mappings/sample.yaml'), data: [resolve('data/sample.ttl')] } },
          }),
        },
      ],
      (row) => row.name,
    ),
  )('%s', async (_, { flags, env, expected }) => {
    expect(await configure({ flags }, env)).toStrictEqual(expected());
  });

  it.each(
    titled<{ name: string; flags: ServeFlags; message: string }>(
      [
        {
          name: '--port http',
          flags: { port: 'http' },
          message: "--port: expected a port number (0 to 65535), got 'http'",
        },
        {
          name: '--port 65536',
          flags: { port: '65536' },
          message: "--port: expected a port number (0 to 65535), got '65536'",
        },
        {
          name: '--workers 65',
          flags: { workers: '65' },
          message: "--workers: expected a number of worker threads from 1 to 64, got '65'",
        },
        {
          name: '--workers 0',
          flags: { workers: '0' },
          message: "--workers: expected a number of worker threads from 1 to 64, got '0'",
        },
        {
          name: '--workers 2.5',
          flags: { workers: '2.5' },
          message: "--workers: expected a number of worker threads from 1 to 64, got '2.5'",
        },
        {
          name: '--cache-ttl -1',
          flags: { 'cache-ttl': '-1' },
          message: "--cache-ttl: expected a number of seconds, got '-1'",
        },
        {
          name: '--cache-ttl soon',
          flags: { 'cache-ttl': 'soon' },
          message: "--cache-ttl: expected a number of seconds, got 'soon'",
        },
        {
          name: '--window-cache-ttl -5',
          flags: { 'window-cache-ttl': '-5' },
          message: "--window-cache-ttl: expected a number of seconds, got '-5'",
        },
        {
          name: '--window-cache-ttl forever',
          flags: { 'window-cache-ttl': 'forever' },
          message: "--window-cache-ttl: expected a number of seconds, got 'forever'",
        },
        {
          name: '--endpoint localhost:8890 (no http(s) scheme)',
          flags: { data: undefined, endpoint: 'localhost:8890' },
          message: "--endpoint: expected an http(s) URL, got 'localhost:8890'",
        },
        {
          name: '--endpoint ftp://x.org/sparql',
          flags: { data: undefined, endpoint: 'ftp://x.org/sparql' },
          message: "--endpoint: expected an http(s) URL, got 'ftp://x.org/sparql'",
        },
        {
          name: '--cors-origin https://x.org/ (a trailing slash)',
          flags: { 'cors-origin': ['https://x.org/'] },
          message:
            "--cors-origin: an origin: scheme://host[:port], with no path or trailing slash, got 'https://x.org/'",
        },
        {
          name: '--delta-listen without a port',
          flags: { 'delta-listen': '0.0.0.0' },
          message: "--delta-listen: expected HOST:PORT, e.g. 127.0.0.1:8081 or 0.0.0.0:8081, got '0.0.0.0'",
        },
        {
          name: '--delta-listen with a port past 65535',
          flags: { 'delta-listen': '127.0.0.1:70000' },
          message: "--delta-listen: expected a port number up to 65535, got '127.0.0.1:70000'",
        },
        {
          name: '--delta-token shorter than 16 characters',
          flags: { 'delta-listen': '127.0.0.1:8081', 'delta-token': 'short' },
          message: "--delta-token: expected a token of at least 16 characters, got 'short'",
        },
        {
          name: '--graph that is not an absolute IRI',
          flags: { graph: 'graph a' },
          message: "--graph: expected an absolute IRI (http://example.org/graph), got 'graph a'",
        },
        {
          name: '--cache-control with a control character',
          flags: { 'cache-control': 'max-age=5\u0007' },
          message: '--cache-control: expected a header value in printable ASCII',
        },
      ],
      (row) => `${row.name} → ConfigError naming the flag`,
    ),
  )('%s', (_, { flags, message }) => {
    const error = thrown(ConfigError, () =>
      configFromFlags({ mapping: 'mappings/sample.yaml', data: ['data/sample.ttl'], ...flags }, {}),
    );
    expect(error.message).toContain(message);
    expect(error.message.split('\n')).toHaveLength(1);
  });

  it('every bad flag of one call is named, one per line', () => {
    const error = thrown(ConfigError, () =>
      configFromFlags({ mapping: 'm.yaml', data: ['d.ttl'], port: 'http', workers: '0', 'cache-ttl': '-1' }, {}),
    );
    expect(
      error.message
        .split('\n')
        .map((line) => line.split(':')[0])
        .sort(),
    ).toEqual(['--cache-ttl', '--port', '--workers']);
  });

  it('leaves the mapping out without --mapping: serve scaffolds one from the data', () => {
    expect(configFromFlags({ data: ['d.ttl'] }, {}).datasets.default).not.toHaveProperty('mapping');
  });

  it.each(
    titled<{ name: string; flags: ServeFlags; env: NodeJS.ProcessEnv; message: RegExp }>(
      [
        {
          name: 'neither --data nor --endpoint nor SPARQL_ENDPOINT',
          flags: { mapping: 'm.yaml' },
          env: {},
          message: /give either --data FILE\.\.\. or --endpoint URL/,
        },
        {
          name: 'both --data and --endpoint',
          flags: { mapping: 'm.yaml', data: ['d.ttl'], endpoint: 'http://x.org/sparql' },
          env: {},
          message: /give either --data FILE\.\.\. or --endpoint URL/,
        },
      ],
      (row) => `${row.name} → ConfigError`,
    ),
  )('%s', (_, { flags, env, message }) => {
    expect(thrown(ConfigError, () => configFromFlags(flags, env)).message).toMatch(message);
  });
});

describe('flags and the equivalent config file give the same ServerConfig', () => {
  /** A config file in its own subdirectory whose relative paths name the same files as the flags do from the working directory. */
  async function equivalentFile(
    name: string,
    top: Record<string, unknown>,
    dataset: Record<string, unknown>,
  ): Promise<string> {
    const fileDir = inDir('equivalent', name);
    await mkdir(fileDir, { recursive: true });
    const relativePaths = (p: string) => relative(fileDir, resolve(p));
    const content = {
      ...top,
      datasets: {
        sample: {
          ...dataset,
          mapping: relativePaths(dataset.mapping as string),
          ...(dataset.data !== undefined && { data: (dataset.data as string[]).map(relativePaths) }),
        },
      },
    };
    const file = join(fileDir, 'config.yaml');
    await writeFile(file, stringify(content));
    expect(relativePaths('mappings/sample.yaml')).toMatch(/^\.\.\//); // really relative, and not to the working directory
    return file;
  }

  it('embedded: every serve flag that a file also has', async () => {
    const flags: ServeFlags = {
      mapping: 'mappings/sample.yaml',
      data: ['data/sample.ttl', 'test/fixtures/load/other.nt'],
      graph: 'http://example.org/graph/a',
      dataset: 'sample',
      port: '8081',
      host: '0.0.0.0',
      'link-base': 'https://data.example.org/api/sample',
      workers: '3',
      'cache-ttl': '15',
      'window-cache-ttl': '0',
      'cache-control': 'public, max-age=5',
      'cors-origin': ['https://a.example.org', 'https://b.example.org:8443'],
    };
    const file = await equivalentFile(
      'embedded',
      { port: 8081, host: '0.0.0.0', cors: { origins: ['https://a.example.org', 'https://b.example.org:8443'] } },
      {
        mapping: 'mappings/sample.yaml',
        data: ['data/sample.ttl', 'test/fixtures/load/other.nt'],
        graph: 'http://example.org/graph/a',
        linkBase: 'https://data.example.org/api/sample',
        workers: 3,
        cacheTtlSeconds: 15,
        windowCacheTtlSeconds: 0,
        cacheControl: 'public, max-age=5',
      },
    );
    const fromFlags = configFromFlags(flags, {});
    const fromFile = await readConfigFile(file);
    expect(fromFlags).toStrictEqual(fromFile);
    expect(fromFile.datasets.sample!.mapping).toBe(resolve('mappings/sample.yaml'));
    expect(fromFile.datasets.sample!.data).toEqual([
      resolve('data/sample.ttl'),
      resolve('test/fixtures/load/other.nt'),
    ]);
    // And after the same environment, still the same.
    const env = { SPARQL_ENDPOINT: ENDPOINT, PORT: '7000' };
    expect(applyEnvironment(configFromFlags(flags, env), env)).toStrictEqual(applyEnvironment(fromFile, env));
  });

  it('endpoint: --endpoint, --graph, --user, --password', async () => {
    const flags: ServeFlags = {
      mapping: 'mappings/sample.yaml',
      endpoint: 'https://query.example.org/sparql',
      graph: 'http://example.org/g',
      user: 'u',
      password: 'p',
      dataset: 'sample',
    };
    const file = await equivalentFile(
      'endpoint',
      {},
      {
        mapping: 'mappings/sample.yaml',
        endpoint: 'https://query.example.org/sparql',
        graph: 'http://example.org/g',
        user: 'u',
        password: 'p',
      },
    );
    expect(configFromFlags(flags, {})).toStrictEqual(await readConfigFile(file));
  });
});

describe('the serve switches: --explain and --log-requests', () => {
  it('turn explain on for every dataset and log every request, as explain: true and logRequests: true do', async () => {
    const flags: ServeFlags = { mapping: 'mappings/sample.yaml', data: ['data/sample.ttl'], dataset: 'sample' };
    const switched = withSwitches(configFromFlags(flags, {}), { explain: true, 'log-requests': true });
    expect(switched.datasets.sample!.explain).toBe(true);
    expect(switched.accessLogSample).toBe(1);
    const fileDir = inDir('switches');
    await mkdir(fileDir, { recursive: true });
    const file = join(fileDir, 'config.yaml');
    const mapping = relative(fileDir, resolve('mappings/sample.yaml'));
    const data = [relative(fileDir, resolve('data/sample.ttl'))];
    await writeFile(file, stringify({ logRequests: true, datasets: { sample: { mapping, data, explain: true } } }));
    expect(await readConfigFile(file)).toStrictEqual(switched);
  });

  it('leave the configuration as it is when not given', () => {
    const config = configFromFlags({ mapping: 'mappings/sample.yaml', data: ['data/sample.ttl'] }, {});
    expect(withSwitches(config, {})).toStrictEqual(config);
    expect(config.datasets.default!.explain).toBeUndefined();
    expect(config.accessLogSample).toBeUndefined();
  });
});

describe('queries.queue', () => {
  const write = async (name: string, queries: unknown) => {
    await writeFile(inDir(name), stringify({ datasets: { d: { mapping: 'm.yaml', data: ['d.ttl'], queries } } }));
    return inDir(name);
  };

  it('is one length for both lanes, or a length per lane', async () => {
    const one = await readConfigFile(await write('queue-one.yaml', { queue: 8 }));
    expect(one.datasets.d!.queries).toEqual({ queue: 8 });
    const each = await readConfigFile(await write('queue-each.yaml', { light: 2, queue: { light: 100, heavy: 4 } }));
    expect(each.datasets.d!.queries).toEqual({ light: 2, queue: { light: 100, heavy: 4 } });
  });

  it.each([{ queue: { lite: 1 } }, { queue: { light: -1 } }, { queue: 'many' }])('refuses %o', async (queries) => {
    const error = await readConfigFile(await write('queue-bad.yaml', queries)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/queries/);
  });
});

describe('live data: --delta-listen, --delta-token, --watch and their config keys', () => {
  const base = { mapping: 'mappings/sample.yaml', endpoint: 'http://x.org/sparql' };

  it.each([
    ['127.0.0.1:8081', { host: '127.0.0.1', port: 8081 }],
    ['0.0.0.0:0', { host: '0.0.0.0', port: 0 }],
    ['[::1]:9000', { host: '::1', port: 9000 }],
    ['resource:8081', { host: 'resource', port: 8081 }],
  ])('--delta-listen %s', (listen, expected) => {
    expect(configFromFlags({ ...base, 'delta-listen': listen }, {}).deltas).toEqual(expected);
  });

  it('a token and a size limit from a config file, as from flags', async () => {
    const token = 'a-token-of-at-least-16-characters';
    await writeFile(
      inDir('deltas.yaml'),
      stringify({ deltas: { listen: '0.0.0.0:8081', token, maxMegabytes: 2 }, watch: true, datasets: { main: base } }),
    );
    const fromFile = await readConfigFile(inDir('deltas.yaml'));
    expect(fromFile.deltas).toEqual({ host: '0.0.0.0', port: 8081, token, maxBytes: 2 * 2 ** 20 });
    expect(fromFile.watch).toBe(true);
    expect(configFromFlags({ ...base, 'delta-listen': '0.0.0.0:8081', 'delta-token': token }, {}).deltas).toEqual({
      host: '0.0.0.0',
      port: 8081,
      token,
    });
  });

  it('--watch is a switch', () => {
    const config = configFromFlags(base, {});
    expect(config.watch).toBeUndefined();
    expect(withSwitches(config, { watch: true }).watch).toBe(true);
  });

  it('--watch-debounce MS and watchDebounceMs: how long a file must be quiet before its reload', async () => {
    expect(configFromFlags({ ...base, 'watch-debounce': '0' }, {}).watchDebounceMs).toBe(0);
    expect(configFromFlags({ ...base, 'watch-debounce': '1500' }, {}).watchDebounceMs).toBe(1500);
    expect(configFromFlags(base, {}).watchDebounceMs).toBeUndefined();
    await writeFile(inDir('debounce.yaml'), stringify({ watch: true, watchDebounceMs: 50, datasets: { main: base } }));
    expect((await readConfigFile(inDir('debounce.yaml'))).watchDebounceMs).toBe(50);
  });

  it.each(['-1', '1.5', 'soon', '60001'])('--watch-debounce %s is refused, naming the flag', (value) => {
    expect(() => configFromFlags({ ...base, 'watch-debounce': value }, {})).toThrow(
      new ConfigError(`--watch-debounce: expected a number of milliseconds from 0 to 60000, got '${value}'`),
    );
  });
});
