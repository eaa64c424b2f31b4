import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs, promisify } from 'node:util';
import { Parser as SparqlParser } from 'sparqljs';
import { afterAll, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { findExecutable, type LocalVirtuoso, startLocalVirtuoso } from '../../scripts/virtuoso-local.js';
import { runLoad } from '../../src/cli/load-command.js';
import { loadOptions, serveOptions } from '../../src/cli/options.js';
import { parseDeltaBody } from '../../src/live/delta-body.js';
import { captureIo } from '../support/cli-io.js';

// docker-compose.yml and the Dockerfile cannot be run here (no Docker engine): this keeps them
// honest by construction. Paths are relative to the repository root, where vitest runs.
interface Service {
  image?: string;
  build?: unknown;
  command?: string[];
  depends_on?: Record<string, { condition: string }>;
  volumes?: string[];
  profiles?: string[];
  restart?: string;
  healthcheck?: { test: string[] };
}
const compose = parse(readFileSync('docker-compose.yml', 'utf8')) as {
  services: Record<string, Service>;
  volumes?: Record<string, unknown>;
};
const services = compose.services;
const dockerfile = readFileSync('Dockerfile', 'utf8');
const dockerignore = readFileSync('.dockerignore', 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'));

/** Checks one `node dist/cli/bin.js SUBCOMMAND ...` command line against the CLI's real option definitions. */
function checkCli(argv: string[]) {
  expect(argv.slice(0, 2)).toEqual(['node', 'dist/cli/bin.js']);
  expect(JSON.parse(readFileSync('package.json', 'utf8')).bin['sparql-jsonapi']).toBe('dist/cli/bin.js');
  expect(existsSync('src/cli/bin.ts'), 'dist/cli/bin.js is built from src/cli/bin.ts').toBe(true);
  const [command, ...args] = argv.slice(2);
  expect(['serve', 'load']).toContain(command);
  const options = command === 'serve' ? serveOptions : loadOptions;
  // strict: an option the CLI does not define throws here, as it would in the container.
  const parsed = parseArgs({ args, options, strict: true, allowPositionals: command === 'load' });
  const values = parsed.values as { mapping?: string; data?: string[] } & Record<string, unknown>;
  const files = [...parsed.positionals, ...(values.mapping ? [values.mapping] : []), ...(values.data ?? [])];
  for (const file of files) expect(existsSync(file), `${file} exists`).toBe(true);
  return { command, values, positionals: parsed.positionals };
}

const host = (url: unknown) => new URL(String(url)).hostname;

describe('docker-compose.yml', () => {
  test('services and their order: store healthy -> loader done -> api', () => {
    expect(Object.keys(services)).toEqual(expect.arrayContaining(['triplestore', 'loader', 'api', 'fuseki']));
    expect(services.triplestore!.image).toMatch(/^openlink\/virtuoso-opensource-7/);
    expect(services.triplestore!.healthcheck?.test.join(' ')).toContain('/sparql?query=');
    expect(services.loader!.depends_on).toEqual({ triplestore: { condition: 'service_healthy' } });
    expect(services.loader!.restart).toBe('no');
    expect(services.api!.depends_on).toEqual({ loader: { condition: 'service_completed_successfully' } });
    expect(services.fuseki!.profiles).toEqual(['fuseki']);
  });

  test.each(Object.entries(services).filter(([, s]) => s.command))(
    '%s: its command is a real CLI command with existing files',
    (_name, service) => {
      checkCli(service.command!);
      expect(service.build, 'built from the repository Dockerfile').toBe('.');
    },
  );

  test.each([
    ['loader', 'api', 'triplestore'],
    ['fuseki-loader', 'fuseki-api', 'fuseki'],
  ])('%s loads the graph and the store that %s serves', (loaderName, apiName, storeName) => {
    const loader = checkCli(services[loaderName]!.command!);
    const api = checkCli(services[apiName]!.command!);
    expect(loader.command).toBe('load');
    expect(api.command).toBe('serve');
    expect(loader.values.graph).toBe(api.values.graph);
    for (const url of [loader.values.endpoint, loader.values['graph-store'], api.values.endpoint])
      expect(host(url)).toBe(storeName);
    expect(api.values.host).toBe('0.0.0.0');
  });

  test('bind-mounted files exist; named volumes are declared', () => {
    for (const volume of Object.values(services).flatMap((s) => s.volumes ?? [])) {
      const source = volume.split(':')[0]!;
      if (source.startsWith('.')) expect(existsSync(source), `${source} exists`).toBe(true);
      else expect(Object.keys(compose.volumes ?? {})).toContain(source);
    }
  });
});

/** The fenced blocks of `lang` in a Markdown text (indented ones too, as in a list item). */
const fenced = (markdown: string, lang: string) =>
  [...markdown.matchAll(new RegExp(`^ *\`\`\`${lang}\n([\\s\\S]*?)^ *\`\`\``, 'gm'))].map((m) => m[1]!);

describe("the mu wiring of docs/live-data.md and the README's Live data section", () => {
  const docs = readFileSync('docs/live-data.md', 'utf8');
  const readme = readFileSync('README.md', 'utf8');

  test('the resource service serves this image with a delta listener that the rule calls', () => {
    const fragment = parse(fenced(docs, 'yaml').find((block) => block.includes('delta-notifier'))!) as {
      services: Record<string, Service>;
    };
    const { resource, 'delta-notifier': notifier } = fragment.services;
    expect(resource!.image).toBe(services.api!.image);
    expect(notifier!.image).toBe('semtech/mu-delta-notifier');
    const [node, bin, command, ...args] = resource!.command!;
    expect([node, bin, command]).toEqual(['node', 'dist/cli/bin.js', 'serve']);
    // strict: an option the CLI does not define throws here, as it would in the container.
    const { values } = parseArgs({ args, options: serveOptions, strict: true });
    const mounted = resource!.volumes![0]!.split(':')[1]!;
    expect(values.mapping?.startsWith(`${mounted}/`), 'the mapping is in the mounted folder').toBe(true);
    const listenPort = values['delta-listen']!.split(':').at(-1);
    const rules = [...fenced(docs, 'js'), ...fenced(readme, 'js')];
    expect(rules).toHaveLength(2);
    for (const rule of rules) {
      const callback = new URL(/url: "([^"]+)"/.exec(rule)![1]!);
      expect([callback.hostname, callback.port, callback.pathname]).toEqual(['resource', listenPort, '/.mu/delta']);
      expect(rule).toContain('method: "POST"');
      expect(rule).toContain('resourceFormat: "v0.0.1"');
    }
  });

  test("the README's delta is a v0.0.1 body the listener reads, and its update is SPARQL", () => {
    const commands = fenced(readme.slice(readme.indexOf('## Live data')), 'sh').join('\n');
    const body = /\.mu\/delta .* -d '([^']+)'/.exec(commands)![1]!;
    const parsed = parseDeltaBody(body);
    expect(parsed).not.toHaveProperty('problem');
    const update = /--data-urlencode 'update=([^']+)'/.exec(commands)![1]!;
    expect(() => new SparqlParser().parse(update)).not.toThrow();
  });
});

describe('Dockerfile', () => {
  const instructions = dockerfile
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));

  test('node:20-slim, npm ci then prune, a non-root user', () => {
    expect(instructions.filter((l) => l.startsWith('FROM ')).every((l) => /^FROM node:20-slim\b/.test(l))).toBe(true);
    expect(dockerfile).toMatch(/npm ci\b[\s\S]*npm prune --omit=dev/);
    expect(instructions.find((l) => l.startsWith('USER '))).toMatch(/^USER (?!root\b)\S+/);
  });

  test('every COPY source exists and is not excluded by .dockerignore', () => {
    const copies = instructions.filter((l) => l.startsWith('COPY ') && !l.includes('--from='));
    expect(copies.length).toBeGreaterThan(0);
    for (const copy of copies) {
      const sources = copy.split(/\s+/).slice(1, -1);
      for (const source of sources) {
        expect(existsSync(source), `${source} exists`).toBe(true);
        expect(dockerignore, `${source} is sent to the build`).not.toContain(source.replace(/\/$/, ''));
      }
    }
  });

  test('CMD serves the sample with options the CLI accepts', () => {
    const cmd = instructions.find((l) => l.startsWith('CMD '))!;
    const { command, values } = checkCli(JSON.parse(cmd.slice(4)) as string[]);
    expect(command).toBe('serve');
    expect(values.host).toBe('0.0.0.0');
  });
});

// The parts that talk to Virtuoso, run against the local binary: the init script, the
// healthcheck command and the loader's command line as compose runs them.
const binary = findExecutable('virtuoso-t');
const isql = findExecutable('isql-vt');
const skip = !binary || !isql;
if (skip && process.env.CI !== 'true')
  console.warn('\n!!! SKIPPED compose commands against Virtuoso: no virtuoso-t/isql-vt on PATH\n');

describe.skipIf(skip && process.env.CI !== 'true')('compose commands against a local Virtuoso', () => {
  let virtuoso: LocalVirtuoso | undefined;
  afterAll(() => virtuoso?.stop());

  test('init script makes the healthcheck pass; the loader command loads the sample', async () => {
    if (!binary || !isql) throw new Error('CI=true: virtuoso-t and isql-vt are required');
    virtuoso = await startLocalVirtuoso(binary, isql);
    const port = String(virtuoso.httpPort);
    const healthcheck = services.triplestore!.healthcheck!.test.slice(1);
    const [shell, ...shellArgs] = healthcheck.map((a) => a.replace('127.0.0.1/8890', `127.0.0.1/${port}`));
    const run = promisify(execFile);
    await expect(run(shell!, shellArgs), 'unhealthy before the init script').rejects.toThrow();
    const init = await run(isql, [`127.0.0.1:${virtuoso.sqlPort}`, 'dba', 'dba', 'docker/virtuoso-init.sql']);
    // The harness already granted: only that statement may fail.
    expect((init.stdout + init.stderr).match(/\*\*\* Error[^\n]*/g) ?? []).toEqual([
      expect.stringContaining('already have role'),
    ]);
    await run(shell!, shellArgs);

    const args = services.loader!.command!.slice(3).map((a) => a.replace('triplestore:8890', `127.0.0.1:${port}`));
    const io = captureIo();
    expect(await runLoad(args, io), io.err.join('\n')).toBe(0);
    expect(io.out.at(-1)).toMatch(/^\d+ triples loaded in .* Graph Store Protocol\)$/);
  });
});
