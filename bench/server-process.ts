import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The server under test, in its own process so the load generator doesn't share its event loop. */
export interface ServerProcess {
  readonly url: string;
  readonly pid: number;
  /** From the embedded store's start-up log line: the time to load the files, and until every worker was ready. */
  readonly loadMs?: number;
  readonly readyMs?: number;
  readonly triples?: number;
  /** Current and peak resident memory of the process (all its threads), in bytes. */
  memory(): Promise<{ rss: number; peakRss: number }>;
  stop(): Promise<void>;
}

/** A server start that the server refused: its message (e.g. a configuration key it doesn't know). */
export class ServerRefused extends Error {
  override name = 'ServerRefused';
}

const running = new Set<() => void>();
process.once('exit', () => {
  for (const kill of running) kill();
});

/**
 * Runs `sparql-jsonapi serve --config <file>` from the sources (through tsx, so the numbers are
 * of the code in the tree, with no stale build) with `dataset` as its only dataset, and resolves
 * once it listens. `dataset` is one entry of the config file's `datasets` (absolute paths);
 * `settings` are further top-level keys of the config file (e.g. `deltas`).
 *
 * @example const server = await startServer({ mapping, data: [file] }, dir); await server.stop();
 */
export async function startServer(
  dataset: Record<string, unknown>,
  workDir: string,
  settings: Record<string, unknown> = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const config = `${workDir}/server-${port}.json`;
  await writeFile(
    config,
    JSON.stringify({ ...settings, port, host: '127.0.0.1', datasets: { bench: dataset } }, null, 1),
  );
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', 'serve', '--config', config], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const kill = () => child.kill('SIGKILL');
  running.add(kill);
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const exited = new Promise<number | string | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal)),
  );

  const started = new Promise<{ loadMs?: number; readyMs?: number; triples?: number }>((resolve, reject) => {
    const facts: { loadMs?: number; readyMs?: number; triples?: number } = {};
    createInterface({ input: child.stdout }).on('line', (line) => {
      let entry: { msg?: string; loadMs?: number; readyMs?: number; triples?: number };
      try {
        entry = JSON.parse(line) as typeof entry;
      } catch {
        return;
      }
      if (entry.loadMs !== undefined)
        Object.assign(facts, { loadMs: entry.loadMs, readyMs: entry.readyMs, triples: entry.triples });
      if (entry.msg?.startsWith('listening on')) resolve(facts);
    });
    // The last line says why (a configuration error lists each problem on a line of its own).
    const why = () => stderr.trim().split('\n').at(-1)?.replaceAll(config, 'config').trim() ?? '';
    void exited.then((code) => reject(new ServerRefused(`the server exited (${code}) before it listened: ${why()}`)));
  });

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(kill, 5_000);
      await exited;
      clearTimeout(timer);
    }
    running.delete(kill);
  };
  let facts: Awaited<typeof started>;
  try {
    facts = await started;
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    ...facts,
    memory: () => processMemory(child.pid!),
    stop,
  };
}

/** VmRSS and VmHWM (peak) of a process, from /proc (Linux). */
async function processMemory(pid: number): Promise<{ rss: number; peakRss: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = (field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN) * 1024;
  return { rss: kb('VmRSS'), peakRss: kb('VmHWM') };
}

/** A loopback port that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
