/**
 * The CLI: `main(argv, io)` in process for every usage and configuration mistake and for `serve`
 * (its exit code, stdout and stderr); the real executable is tested in a child process in
 * test/integration/cli-bin.test.ts. User mistakes end with a message and exit code 2 (no stack
 * trace); runtime failures (a file that does not parse) with exit code 1.
 */
import { mkdtempSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.js';
import { captureIo, listeningPort } from '../../support/cli-io.js';

/** An invalid mapping with two faults (test/fixtures/mappings/two-faults.yaml). */
const TWO_FAULTS = 'test/fixtures/mappings/two-faults.yaml';

const ROOT = new URL('../../../', import.meta.url).pathname;
const STACK_TRACE = /\n\s+at /;

/** `main` in process, with an empty environment: its exit code and what it wrote. */
async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const io = captureIo();
  const code = await main(args, io);
  return { code, stdout: io.out.join('\n'), stderr: io.err.join('\n') };
}

const dir = mkdtempSync(join(tmpdir(), 'cli-test-'));
const file = (name: string) => join(dir, name);
/** A pattern matching `text` literally. */
const literally = (text: string) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));

beforeAll(async () => {
  await writeFile(file('bad.ttl'), '@prefix ex: <http://x/> .\nex:a ex:b ex:c ;;; .\nex:a ex:b\n');
  await writeSampleConfig('bad-config.yaml', [], ['colour: red']);
  await writeSampleConfig('bad-http-config.yaml', ['cors:', '  origins: [example.org]'], ['cacheTtlSeconds: -1']);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Writes a configuration file with one dataset `main`, the sample: `top` lines before it, `dataset` lines in it. */
async function writeSampleConfig(name: string, top: string[], dataset: string[] = []): Promise<string> {
  const lines = [
    ...top,
    'datasets:',
    '  main:',
    `    mapping: ${join(ROOT, 'mappings/sample.yaml')}`,
    `    data: [${join(ROOT, 'data/sample.ttl')}]`,
    ...dataset.map((line) => `    ${line}`),
    '',
  ];
  await writeFile(file(name), lines.join('\n'));
  return file(name);
}

describe('cli: usage and configuration mistakes', () => {
  it('an invalid mapping: exit 2, every problem with the file and key path, no stack trace', async () => {
    const mapping = TWO_FAULTS;
    const { code, stderr } = await run(['serve', '--mapping', mapping, '--data', 'data/sample.ttl', '--port', '0']);
    expect(code).toBe(2);
    expect(stderr).toContain(`${mapping}: invalid mapping`);
    expect(stderr).toContain(`${mapping}: types.things.class: 'Thing' is neither a known prefixed name`);
    expect(stderr).toContain(
      `${mapping}: types.things.relationships.parts.target: 'nope' is not a type of this mapping`,
    );
    expect(stderr).not.toMatch(STACK_TRACE);
  });

  it.each<{ name: string; args: () => string[]; code: number; stdout?: RegExp[]; stderr?: RegExp[] }>([
    {
      name: 'a mapping file that does not exist → exit 2',
      args: () => ['serve', '--mapping', file('missing.yaml'), '--data', 'data/sample.ttl', '--port', '0'],
      code: 2,
      stderr: [literally(`${file('missing.yaml')}: cannot read the file`), /ENOENT/],
    },
    {
      name: 'no arguments → exit 2',
      args: () => [],
      code: 2,
      stderr: [/^Usage:/, /sparql-jsonapi serve \[--mapping FILE\]/],
    },
    {
      name: 'an unknown command → exit 2',
      args: () => ['frobnicate'],
      code: 2,
      stderr: [/Unknown command 'frobnicate'/, /Usage:/],
    },
    {
      name: 'serve --help → exit 0',
      args: () => ['serve', '--help'],
      code: 0,
      stdout: [/^Usage:/, /--mapping FILE/, /--data FILE/],
    },
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
      args: () => [
        'serve',
        '--mapping',
        'mappings/sample.yaml',
        '--data',
        'data/sample.ttl',
        '--endpoint',
        'http://127.0.0.1:1/sparql',
      ],
      code: 2,
      stderr: [/give either --data FILE\.\.\. or --endpoint URL/],
    },
    {
      name: 'a port that is not a number → exit 2',
      args: () => ['serve', '--mapping', 'mappings/sample.yaml', '--data', 'data/sample.ttl', '--port', 'http'],
      code: 2,
      stderr: [literally("--port: expected a port number (0 to 65535), got 'http'")],
    },
    {
      name: 'a --cors-origin that is not an origin → exit 2',
      args: () => [
        'serve',
        '--mapping',
        'mappings/sample.yaml',
        '--data',
        'data/sample.ttl',
        '--cors-origin',
        'https://app.example.org/',
      ],
      code: 2,
      stderr: [
        literally(
          "--cors-origin: an origin: scheme://host[:port], with no path or trailing slash, got 'https://app.example.org/'",
        ),
      ],
    },
    {
      name: 'a --cache-ttl that is not a number of seconds → exit 2',
      args: () => ['serve', '--mapping', 'mappings/sample.yaml', '--data', 'data/sample.ttl', '--cache-ttl', 'soon'],
      code: 2,
      stderr: [/--cache-ttl: expected a number of seconds, got 'soon'/],
    },
    {
      name: 'a --workers beyond what a configuration file allows → exit 2 (one schema for flags and files)',
      args: () => ['serve', '--mapping', 'mappings/sample.yaml', '--data', 'data/sample.ttl', '--workers', '65'],
      code: 2,
      stderr: [literally("--workers: expected a number of worker threads from 1 to 64, got '65'")],
    },
    {
      name: 'an --endpoint that is not a URL → exit 2',
      args: () => ['serve', '--mapping', 'mappings/sample.yaml', '--endpoint', 'localhost:8890'],
      code: 2,
      stderr: [literally("--endpoint: expected an http(s) URL, got 'localhost:8890'")],
    },
    {
      name: 'a --cache-control Node would refuse as a header → exit 2',
      args: () => [
        'serve',
        '--mapping',
        'mappings/sample.yaml',
        '--data',
        'data/sample.ttl',
        '--cache-control',
        'max-age=5\u0007',
      ],
      code: 2,
      stderr: [/--cache-control: expected a header value in printable ASCII/],
    },
    {
      name: 'a --config with a bad cors origin and a negative cacheTtlSeconds → exit 2, both named',
      args: () => ['serve', '--config', file('bad-http-config.yaml')],
      code: 2,
      stderr: [
        literally(`${file('bad-http-config.yaml')}: cors.origins.0: an origin`),
        literally(`${file('bad-http-config.yaml')}: datasets.main.cacheTtlSeconds:`),
      ],
    },
    {
      name: 'an invalid --config → exit 2',
      args: () => ['serve', '--config', file('bad-config.yaml')],
      code: 2,
      stderr: [
        literally(`${file('bad-config.yaml')}: invalid configuration`),
        literally(`${file('bad-config.yaml')}: datasets.main: Unrecognized key: "colour"`),
      ],
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
  ])('$name', async ({ args, code, stdout = [], stderr = [] }) => {
    const result = await run(args());
    expect(result.code, result.stderr).toBe(code);
    for (const pattern of stdout) expect(result.stdout).toMatch(pattern);
    for (const pattern of stderr) expect(result.stderr).toMatch(pattern);
    expect(result.stderr).not.toMatch(STACK_TRACE);
  });
});

describe('cli: serve', () => {
  it('in process: listens on the port it is given (0: any free one), answers with the flags applied, and stops when its signal aborts', async () => {
    const stop = new AbortController();
    const io = captureIo({ LOG_LEVEL: 'info' }, stop.signal);
    const flags = [
      '--cache-ttl',
      '60',
      '--cache-control',
      'public, max-age=5',
      '--cors-origin',
      'https://app.example.org',
    ];
    const exited = main(
      ['serve', '--mapping', 'mappings/sample.yaml', '--data', 'data/sample.ttl', '--port', '0', ...flags],
      io,
    );
    try {
      const port = await listeningPort(() => io.out, exited);
      const concept = await fetch(`http://127.0.0.1:${port}/concepts/0101`, {
        headers: { Accept: 'application/vnd.api+json' },
      });
      expect(concept.status).toBe(200);
      expect(concept.headers.get('content-type')).toBe('application/vnd.api+json');
      expect(((await concept.json()) as { data: { type: string; id: string } }).data).toMatchObject({
        type: 'concepts',
        id: '0101',
      });

      // The HTTP flags reach the app: cache TTL, Cache-Control, CORS origins; the CLI adds process metrics.
      const again = await fetch(`http://127.0.0.1:${port}/concepts/0101`, {
        headers: { Origin: 'https://app.example.org' },
      });
      expect(again.headers.get('server-timing')).toBe('cache;desc=hit');
      expect(again.headers.get('cache-control')).toBe('public, max-age=5');
      expect(again.headers.get('access-control-allow-origin')).toBe('https://app.example.org');
      const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      expect(metrics).toMatch(/^process_cpu_user_seconds_total /m);
    } finally {
      stop.abort();
    }
    expect(await exited).toBe(0);
    expect(io.out.map((l) => (JSON.parse(l) as { msg: string }).msg).at(-1)).toBe('stopped');
    expect(io.err).toEqual([]);
  });

  it('in process: a config with metrics.port serves /metrics there, and not on the API port', async () => {
    const config = await writeSampleConfig('metrics-port.yaml', ['port: 0', 'metrics: { port: 0 }']);
    const stop = new AbortController();
    const io = captureIo({ LOG_LEVEL: 'info' }, stop.signal);
    const exited = main(['serve', '--config', config], io);
    try {
      const api = await listeningPort(() => io.out, exited);
      const metricsLine = () =>
        io.out.map((l) => (JSON.parse(l) as { msg: string }).msg).find((m) => m.startsWith('metrics on '));
      for (let i = 0; i < 40 && !metricsLine(); i++) await new Promise((resolve) => setTimeout(resolve, 25));
      const metricsPort = Number(/:(\d+)$/.exec(metricsLine() ?? '')?.[1]);
      expect(metricsPort).toBeGreaterThan(0);
      expect(metricsPort).not.toBe(api);
      const metrics = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toMatch(/^# HELP http_requests_total /m);
      expect((await fetch(`http://127.0.0.1:${api}/metrics`)).status).toBe(404);
    } finally {
      stop.abort();
    }
    expect(await exited).toBe(0);
  });
});
