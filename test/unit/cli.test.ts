/**
 * The CLI as a user runs it: a separate Node process started from source (tsx), its exit code,
 * stdout and stderr. User mistakes must end with a message and exit code 2 (no stack trace);
 * runtime failures (a file that does not parse) with exit code 1.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url).pathname;
const CLI = ['--import', 'tsx', 'src/cli.ts'];
const STACK_TRACE = /\n\s+at /;

/** The environment without the variables the CLI reads, so the host's settings cannot leak in. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of ['PORT', 'HOST', 'SPARQL_ENDPOINT', 'SPARQL_GRAPH', 'SPARQL_USER', 'SPARQL_PASSWORD', 'LOG_LEVEL', 'NODE_OPTIONS']) delete env[name];
  return env;
}

function run(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [...CLI, ...args], { cwd: ROOT, env: cleanEnv(), encoding: 'utf8', timeout: 20_000 });
  if (result.error) throw result.error;
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const dir = mkdtempSync(join(tmpdir(), 'cli-test-'));
const file = (name: string) => join(dir, name);
/** A pattern matching `text` literally. */
const literally = (text: string) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));

beforeAll(async () => {
  await writeFile(
    file('two-faults.yaml'),
    ['id: { hex: true }', 'types:', '  things:', '    class: Thing', '    relationships:', '      parts: { predicate: "http://x/part", target: nope, cardinality: many }', ''].join('\n'),
  );
  await writeFile(file('bad.ttl'), '@prefix ex: <http://x/> .\nex:a ex:b ex:c ;;; .\nex:a ex:b\n');
  await writeFile(
    file('bad-config.yaml'),
    ['datasets:', '  main:', `    mapping: ${join(ROOT, 'mappings/sample.yaml')}`, `    data: [${join(ROOT, 'data/sample.ttl')}]`, '    colour: red', ''].join('\n'),
  );
  await writeFile(
    file('bad-http-config.yaml'),
    ['cors:', '  origins: [example.org]', 'datasets:', '  main:', `    mapping: ${join(ROOT, 'mappings/sample.yaml')}`, `    data: [${join(ROOT, 'data/sample.ttl')}]`, '    cacheTtlSeconds: -1', ''].join('\n'),
  );
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('cli: usage and configuration mistakes', () => {
  it('an invalid mapping: exit 2, every problem with the file and key path, no stack trace', () => {
    const mapping = file('two-faults.yaml');
    const { code, stderr } = run(['serve', '--mapping', mapping, '--data', 'data/sample.ttl', '--port', '0']);
    expect(code).toBe(2);
    expect(stderr).toContain(`${mapping}: invalid mapping`);
    expect(stderr).toContain(`${mapping}: types.things.class: 'Thing' is neither a known prefixed name`);
    expect(stderr).toContain(`${mapping}: types.things.relationships.parts.target: 'nope' is not a type of this mapping`);
    expect(stderr).not.toMatch(STACK_TRACE);
  });

  it.each<{ name: string; args: () => string[]; code: number; stdout?: RegExp[]; stderr?: RegExp[] }>([
    {
      name: 'a mapping file that does not exist → exit 2',
      args: () => ['serve', '--mapping', file('missing.yaml'), '--data', 'data/sample.ttl', '--port', '0'],
      code: 2,
      stderr: [literally(`${file('missing.yaml')}: cannot read the file`), /ENOENT/],
    },
    { name: 'no arguments → exit 2', args: () => [], code: 2, stderr: [/^Usage:/, /sparql-jsonapi serve --mapping FILE/] },
    { name: 'an unknown command → exit 2', args: () => ['frobnicate'], code: 2, stderr: [/Unknown command 'frobnicate'/, /Usage:/] },
    { name: 'serve --help → exit 0', args: () => ['serve', '--help'], code: 0, stdout: [/^Usage:/, /--mapping FILE/, /--data FILE/] },
    { name: '--help → exit 0', args: () => ['--help'], code: 0, stdout: [/^Usage:/, /sparql-jsonapi serve/] },
    {
      name: 'an unknown flag → exit 2',
      args: () => ['serve', '--mapping', 'mappings/sample.yaml', '--data', 'data/sample.ttl', '--colour', 'red'],
      code: 2,
      stderr: [/--colour/, /Usage:/],
    },
    {
      name: 'neither --data nor --endpoint → exit 2',
      args: () => ['serve', '--mapping', 'mappings/sample.yaml'],
      code: 2,
      stderr: [/give either --data FILE\.\.\. or --endpoint URL/],
    },
    {
      name: 'both --data and --endpoint → exit 2',
      args: () => ['serve', '--mapping', 'mappings/sample.yaml', '--data', 'data/sample.ttl', '--endpoint', 'http://127.0.0.1:1/sparql'],
      code: 2,
      stderr: [/give either --data FILE\.\.\. or --endpoint URL/],
    },
    { name: 'no --mapping → exit 2', args: () => ['serve', '--data', 'data/sample.ttl'], code: 2, stderr: [/--mapping is required/] },
    {
      name: 'a port that is not a number → exit 2',
      args: () => ['serve', '--mapping', 'mappings/sample.yaml', '--data', 'data/sample.ttl', '--port', 'http'],
      code: 2,
      stderr: [/--port: expected a port number, got 'http'/],
    },
    {
      name: 'a --cors-origin that is not an origin → exit 2',
      args: () => ['serve', '--mapping', 'mappings/sample.yaml', '--data', 'data/sample.ttl', '--cors-origin', 'https://app.example.org/'],
      code: 2,
      stderr: [literally("--cors-origin: expected '*' or an origin such as https://app.example.org (no path, no trailing slash), got 'https://app.example.org/'")],
    },
    {
      name: 'a --cache-ttl that is not a number of seconds → exit 2',
      args: () => ['serve', '--mapping', 'mappings/sample.yaml', '--data', 'data/sample.ttl', '--cache-ttl', 'soon'],
      code: 2,
      stderr: [/--cache-ttl: expected a number of seconds, got 'soon'/],
    },
    {
      name: 'a --config with a bad cors origin and a negative cacheTtlSeconds → exit 2, both named',
      args: () => ['serve', '--config', file('bad-http-config.yaml')],
      code: 2,
      stderr: [literally(`${file('bad-http-config.yaml')}: cors.origins.0: an origin`), literally(`${file('bad-http-config.yaml')}: datasets.main.cacheTtlSeconds:`)],
    },
    {
      name: 'an invalid --config → exit 2',
      args: () => ['serve', '--config', file('bad-config.yaml')],
      code: 2,
      stderr: [literally(`${file('bad-config.yaml')}: invalid configuration`), literally(`${file('bad-config.yaml')}: datasets.main: Unrecognized key: "colour"`)],
    },
    {
      name: 'a --config that does not exist → exit 2',
      args: () => ['serve', '--config', file('missing-config.yaml')],
      code: 2,
      stderr: [literally(`${file('missing-config.yaml')}: cannot read the configuration`)],
    },
    {
      name: 'a data file that does not parse (a runtime failure) → exit 1',
      args: () => ['serve', '--mapping', 'mappings/sample.yaml', '--data', file('bad.ttl'), '--port', '0'],
      code: 1,
      stderr: [/^sparql-jsonapi: /, literally(`${file('bad.ttl')}: `), /line \d+/],
    },
  ])('$name', ({ args, code, stdout = [], stderr = [] }) => {
    const result = run(args());
    expect(result.code, result.stderr).toBe(code);
    for (const pattern of stdout) expect(result.stdout).toMatch(pattern);
    for (const pattern of stderr) expect(result.stderr).toMatch(pattern);
    expect(result.stderr).not.toMatch(STACK_TRACE);
  });
});

describe('cli: serve', () => {
  it('listens on the port it is given (0: any free one), answers, and stops on SIGTERM', async () => {
    const flags = ['--cache-ttl', '60', '--cache-control', 'public, max-age=5', '--cors-origin', 'https://app.example.org'];
    const child = spawn(process.execPath, [...CLI, 'serve', '--mapping', 'mappings/sample.yaml', '--data', 'data/sample.ttl', '--port', '0', ...flags], {
      cwd: ROOT,
      env: cleanEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    try {
      const port = await new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no 'listening on' log line within 20 s; stderr: ${stderr}`)), 20_000);
        child.once('exit', (code) => reject(new Error(`the server exited (${code}) before listening; stderr: ${stderr}`)));
        createInterface({ input: child.stdout }).on('line', (line) => {
          const record = JSON.parse(line) as { msg?: string };
          const match = /^listening on http:\/\/127\.0\.0\.1:(\d+)$/.exec(record.msg ?? '');
          if (match) {
            clearTimeout(timer);
            resolve(Number(match[1]));
          }
        });
      });
      expect(port).toBeGreaterThan(0);

      const health = await fetch(`http://127.0.0.1:${port}/health`);
      expect(health.status).toBe(200);

      const concept = await fetch(`http://127.0.0.1:${port}/concepts/0101`, { headers: { Accept: 'application/vnd.api+json' } });
      expect(concept.status).toBe(200);
      expect(concept.headers.get('content-type')).toBe('application/vnd.api+json');
      const document = (await concept.json()) as { data: { type: string; id: string } };
      expect(document.data).toMatchObject({ type: 'concepts', id: '0101' });

      // The HTTP flags reach the app: cache TTL, Cache-Control, CORS origins; the CLI adds process metrics.
      const again = await fetch(`http://127.0.0.1:${port}/concepts/0101`, { headers: { Origin: 'https://app.example.org' } });
      expect(again.headers.get('server-timing')).toBe('cache;desc=hit');
      expect(again.headers.get('cache-control')).toBe('public, max-age=5');
      expect(again.headers.get('access-control-allow-origin')).toBe('https://app.example.org');
      const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      expect(metrics).toMatch(/^process_cpu_user_seconds_total /m);
    } finally {
      if (child.exitCode === null) child.kill('SIGTERM');
    }
    const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the server did not exit within 10 s of SIGTERM')), 10_000));
    const [code, signal] = await Promise.race([exited, timeout]);
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(stderr).toBe('');
  }, 30_000);
});
