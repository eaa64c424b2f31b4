/**
 * `npm run virtuoso` (scripts/virtuoso.ts) as a person runs it: a child process that prints the
 * endpoints and the commands to load and serve, which are then run as printed, against a
 * Virtuoso that keeps the stock rule (anonymous `/sparql` takes no writes), and stopped as Ctrl-C
 * stops it: SIGINT to its whole process group. Virtuoso only, by nature: the script starts Virtuoso.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Parser } from 'n3';
import { afterAll, describe, expect, test } from 'vitest';
import { findExecutable } from '../../scripts/virtuoso-local.js';
import { runLoad } from '../../src/cli/load-command.js';
import { main } from '../../src/cli/main.js';
import { captureIo, listeningPort } from '../support/cli-io.js';

const ROOT = new URL('../../', import.meta.url).pathname;
// What `npm run virtuoso` runs: node with tsx's loader in one process. (The `tsx` command would put
// a parent in between that relays Ctrl-C with 30 ms deadlines and SIGKILLs a child that is slow to
// acknowledge, cutting Virtuoso's shutdown short on a busy machine.)
const COMMAND = 'node --import tsx scripts/virtuoso.ts';
const binary = findExecutable('virtuoso-t');
if (!binary && process.env.CI !== 'true')
  console.warn('\n!!! SKIPPED npm run virtuoso against a real Virtuoso: no virtuoso-t on PATH\n');

/** The script running, with what it printed once ready. */
interface Running {
  child: ChildProcess;
  output: () => string;
  endpoint: string;
  authEndpoint: string;
  database: string;
  /** The printed commands' arguments after `npx sparql-jsonapi`. */
  load: string[];
  serve: string[];
}

const running = new Set<ChildProcess>();
afterAll(() => {
  for (const child of running) if (child.exitCode === null) process.kill(-child.pid!, 'SIGKILL');
});

/** Spawns the script in its own process group (as a terminal runs it) and collects its output. */
function spawnScript(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, [...COMMAND.split(' ').slice(1), ...args], {
    cwd: ROOT,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let text = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  return { child, output: () => text };
}

async function exitCode(child: ChildProcess, withinMs = 30_000): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  const timeout = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error(`the script did not exit within ${withinMs / 1000} s`)), withinMs),
  );
  const [code] = (await Promise.race([once(child, 'exit'), timeout])) as [number | null];
  return code;
}

/** Starts `scripts/virtuoso.ts` and waits for the line that ends its ready text. */
async function startScript(args: string[]): Promise<Running> {
  const { child, output } = spawnScript(args);
  const deadline = Date.now() + 60_000;
  while (!output().includes('Ctrl-C stops Virtuoso.')) {
    if (child.exitCode !== null) throw new Error(`the script exited (${child.exitCode}):\n${output()}`);
    if (Date.now() > deadline) throw new Error(`not ready within 60 s:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const text = output();
  const field = (pattern: RegExp) => {
    const match = pattern.exec(text);
    if (!match) throw new Error(`no ${pattern} in:\n${text}`);
    return match[1]!;
  };
  const command = (name: string) => field(new RegExp(`^ {2}npx sparql-jsonapi (${name} .*)$`, 'm')).split(' ');
  return {
    child,
    output,
    endpoint: field(/^ {2}SPARQL endpoint: (http:\/\/\S+\/sparql)\s/m),
    authEndpoint: field(/^ {2}for loading: +(http:\/\/\S+\/sparql-auth) +user dba, password dba/m),
    database: field(/^ {2}database: +(\S+)/m),
    load: command('load'),
    serve: command('serve'),
  };
}

/** Ctrl-C: SIGINT to the whole process group, Virtuoso included. */
async function interrupt(script: Running): Promise<number | null> {
  process.kill(-script.child.pid!, 'SIGINT');
  return exitCode(script.child);
}

async function countIn(endpoint: string, graph: string): Promise<number> {
  const query = `SELECT (COUNT(*) AS ?n) WHERE { GRAPH <${graph}> { ?s ?p ?o } }`;
  const response = await fetch(`${endpoint}?query=${encodeURIComponent(query)}`, {
    headers: { accept: 'application/sparql-results+json' },
  });
  const json = (await response.json()) as { results: { bindings: { n: { value: string } }[] } };
  return Number(json.results.bindings[0]!.n.value);
}

/** Distinct triples of a Turtle file, as the store keeps them. */
function distinctTriples(file: string): number {
  const quads = new Parser().parse(readFileSync(file, 'utf8'));
  return new Set(quads.map((q) => `${q.subject.id} ${q.predicate.id} ${q.object.id}`)).size;
}

/** The printed command with the quick start's placeholder files replaced by the sample's. */
const withSample = (args: string[]) =>
  args.map((a) => (a === 'mine.ttl' ? 'data/sample.ttl' : a === 'mine.yaml' ? 'mappings/sample.yaml' : a));

describe.skipIf(!binary && process.env.CI !== 'true')('npm run virtuoso against a real virtuoso-t', () => {
  test('prints endpoints and commands; /sparql refuses writes with a hint naming /sparql-auth; the printed load and serve work; Ctrl-C stops it and removes the database', async () => {
    const script = await startScript(['--port', '0', '--sql-port', '0']);
    try {
      const graph = script.load[script.load.indexOf('--graph') + 1]!;
      expect(script.serve).toEqual([
        'serve',
        '--endpoint',
        script.endpoint,
        '--graph',
        graph,
        '--mapping',
        'mine.yaml',
      ]);
      expect(script.authEndpoint).toBe(script.endpoint.replace(/\/sparql$/, '/sparql-auth'));
      expect(await countIn(script.endpoint, graph)).toBe(0);

      // A stock Virtuoso: the anonymous endpoint refuses the load, and the hint says where to go.
      const refused = captureIo();
      expect(await runLoad(['--endpoint', script.endpoint, '--graph', graph, 'data/sample.ttl'], refused)).toBe(1);
      expect(refused.err).toHaveLength(1);
      expect(refused.err[0]).toContain('SR186');
      expect(refused.err[0]).toContain(`load through --endpoint ${script.authEndpoint} with --user dba --password`);
      expect(refused.err[0]).toMatch(/nothing was written$/);

      // The printed load command, as printed (only the placeholder file swapped).
      const loaded = captureIo();
      expect(await runLoad(withSample(script.load).slice(1), loaded), loaded.err.join('\n')).toBe(0);
      expect(await countIn(script.endpoint, graph)).toBe(distinctTriples('data/sample.ttl'));

      // The printed serve command answers a collection from that graph.
      const stop = new AbortController();
      const io = captureIo({}, stop.signal);
      const served = main([...withSample(script.serve), '--port', '0'], io);
      try {
        const port = await listeningPort(
          () => io.out,
          served,
          () => io.err.join('\n'),
        );
        const response = await fetch(`http://127.0.0.1:${port}/concepts?page[size]=1`);
        expect(response.status).toBe(200);
        const body = (await response.json()) as { data: unknown[]; meta: { count: number } };
        expect(body.data).toHaveLength(1);
        expect(body.meta.count).toBeGreaterThan(1);
      } finally {
        stop.abort();
        await served;
      }
    } finally {
      expect(await interrupt(script)).toBe(0);
    }
    expect(script.output()).toContain('Virtuoso stopped.');
    expect(existsSync(script.database)).toBe(false);
    await expect(fetch(`${script.endpoint}?query=ASK%7B%7D`)).rejects.toThrow();
  });

  test('--data-dir keeps the database: what was loaded is there after a restart, and the folder stays', async () => {
    const dir = join(await mkdtemp(join(tmpdir(), 'virtuoso-script-')), 'db');
    const graph = 'http://example.org/graph/kept';
    try {
      const first = await startScript(['--port', '0', '--sql-port', '0', '--data-dir', dir, '--graph', graph]);
      expect(first.database).toBe(dir);
      expect(first.load).toContain(graph);
      const io = captureIo();
      expect(await runLoad(withSample(first.load).slice(1), io), io.err.join('\n')).toBe(0);
      expect(await interrupt(first)).toBe(0);
      expect(existsSync(join(dir, 'virtuoso.db'))).toBe(true);

      const second = await startScript(['--port', '0', '--sql-port', '0', '--data-dir', dir]);
      try {
        expect(await countIn(second.endpoint, graph)).toBe(distinctTriples('data/sample.ttl'));
      } finally {
        expect(await interrupt(second)).toBe(0);
      }
      expect(existsSync(join(dir, 'virtuoso.db'))).toBe(true);
    } finally {
      await rm(dirname(dir), { recursive: true, force: true });
    }
  });
});

describe('npm run virtuoso: what it says when it cannot start', () => {
  test('`npm run virtuoso` runs this script', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.virtuoso).toBe(COMMAND);
  });

  test('no virtuoso-t on PATH: exit 1, and how to install it', async () => {
    // An empty folder as PATH: no virtuoso-t, whatever the machine has (node is started by its path).
    const empty = await mkdtemp(join(tmpdir(), 'no-virtuoso-'));
    const env: NodeJS.ProcessEnv = { ...process.env, PATH: empty };
    delete env.VIRTUOSO_T;
    const { child, output } = spawnScript(['--port', '0'], env);
    expect(await exitCode(child)).toBe(1);
    expect(output()).toContain('virtuoso-t is not on PATH');
    expect(output()).toContain('apt-get install virtuoso-opensource-7-bin');
    await rm(empty, { recursive: true, force: true });
  });

  test('a port in use: exit 1 naming the port and the flag, before starting anything', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const { child, output } = spawnScript(['--port', String(port), '--sql-port', '0'], {
        ...process.env,
        VIRTUOSO_T: process.execPath, // never started: the port check comes first
      });
      expect(await exitCode(child)).toBe(1);
      expect(output()).toContain(`port ${port} is in use`);
      expect(output()).toContain('--port N');
    } finally {
      server.close();
    }
  });

  test('a bad flag: exit 2 with the usage', async () => {
    const { child, output } = spawnScript(['--port', 'http']);
    expect(await exitCode(child)).toBe(2);
    expect(output()).toContain("--port: expected a port number (0 to 65535), got 'http'");
    expect(output()).toContain('Usage: npm run virtuoso');
  });

  test('--help: the usage and what each flag does, exit 0, and no complaint about the flag', async () => {
    // No virtuoso-t is needed to ask for help: an empty PATH proves it starts nothing.
    const { child, output } = spawnScript(['--help'], { ...process.env, PATH: '', VIRTUOSO_T: '' });
    expect(await exitCode(child)).toBe(0);
    expect(output()).toMatch(/^Usage: npm run virtuoso/);
    for (const flag of ['--port', '--sql-port', '--data-dir', '--graph']) expect(output()).toContain(flag);
    expect(output()).not.toMatch(/Unknown option|not on PATH/);
  });
});
