/**
 * The real executable in a child process, for what only a process shows: the exit code it sets,
 * and SIGTERM. Everything else about the CLI is tested in process (test/unit/cli/main.test.ts).
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { listeningPort } from '../support/cli-io.js';

/** An invalid mapping with two faults (test/fixtures/mappings/two-faults.yaml). */
const TWO_FAULTS = 'test/fixtures/mappings/two-faults.yaml';

const ROOT = new URL('../../', import.meta.url).pathname;
const BIN = ['--import', 'tsx', 'src/cli/bin.ts'];
const STACK_TRACE = /\n\s+at /;

/** The environment without the variables the CLI reads, so the host's settings cannot leak in. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of [
    'PORT',
    'HOST',
    'SPARQL_ENDPOINT',
    'SPARQL_GRAPH',
    'SPARQL_USER',
    'SPARQL_PASSWORD',
    'LOG_LEVEL',
    'NODE_OPTIONS',
  ])
    delete env[name];
  return env;
}

describe('cli: the executable', () => {
  it('exit code 2 and the problems on stderr for an invalid mapping', () => {
    const mapping = TWO_FAULTS;
    const result = spawnSync(
      process.execPath,
      [...BIN, 'serve', '--mapping', mapping, '--data', 'data/sample.ttl', '--port', '0'],
      { cwd: ROOT, env: cleanEnv(), encoding: 'utf8', timeout: 20_000 },
    );
    expect(result.status, result.stderr).toBe(2);
    expect(result.stderr).toContain(
      `${mapping}: types.things.relationships.parts.target: 'nope' is not a type of this mapping`,
    );
    expect(result.stderr).not.toMatch(STACK_TRACE);
  });

  it('serves, and exits 0 on SIGTERM', async () => {
    const child = spawn(
      process.execPath,
      [...BIN, 'serve', '--mapping', 'mappings/sample.yaml', '--data', 'data/sample.ttl', '--port', '0'],
      {
        cwd: ROOT,
        env: cleanEnv(),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const lines: string[] = [];
    createInterface({ input: child.stdout }).on('line', (line) => lines.push(line));
    const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    try {
      const port = await listeningPort(
        () => lines,
        exited.then(([code]) => code ?? -1),
        () => stderr,
      );
      expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
    } finally {
      if (child.exitCode === null) child.kill('SIGTERM');
    }
    const timeout = new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error('the server did not exit within 10 s of SIGTERM')), 10_000),
    );
    const [code, signal] = await Promise.race([exited, timeout]);
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(stderr).toBe('');
  }, 30_000);
});
