import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { accessSync, closeSync, constants, openSync, rmSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { promisify } from 'node:util';

/** A `virtuoso-t` this process started, with the ports it listens on. */
export interface LocalVirtuoso {
  sqlPort: number;
  httpPort: number;
  dir: string;
  /** The `virtuoso-t` process, for its CPU time (bench/proc-cpu.ts). */
  pid: number | undefined;
  stop(): Promise<void>;
}

/** How {@link startLocalVirtuoso} starts Virtuoso; the defaults are what the tests need. */
export interface LocalVirtuosoOptions {
  /** HTTP port; 0 or undefined: a free one. */
  httpPort?: number;
  /** SQL (isql) port; 0 or undefined: a free one. */
  sqlPort?: number;
  /** A database folder to keep (created when missing, never removed); default: a temporary one, removed on stop. */
  dir?: string;
  /**
   * Grant SPARQL updates to anonymous HTTP users, so plain `/sparql` takes writes (default true:
   * the tests load that way). False leaves the stock rule: writes go through `/sparql-auth` as dba.
   */
  grantAnonymousUpdate?: boolean;
  /** How long start-up may take (default 60 s). */
  timeoutMs?: number;
}

/** Finds an executable on PATH, or undefined. */
export function findExecutable(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this PATH entry
    }
  }
  return undefined;
}

/** Free loopback ports: bind port 0 that many times at once, so they differ, then release them. */
async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<ReturnType<typeof createServer>>((resolve, reject) => {
          const server = createServer();
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((s) => (s.address() as { port: number }).port);
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  return ports;
}

// Debian ships no virtuoso.ini. The tuned values are the ones measured in issue 3: without
// MaxSortedTopRows an ORDER BY with OFFSET past ~10,000 fails (SR353); the vector settings made
// sorted pages ~2x faster; ResultSetMaxRows is raised so only the server's paging limits results.
function iniText(dir: string, sqlPort: number, httpPort: number): string {
  return `[Database]
DatabaseFile = ${dir}/virtuoso.db
ErrorLogFile = ${dir}/virtuoso.log
LockFile = ${dir}/virtuoso.lck
TransactionFile = ${dir}/virtuoso.trx
xa_persistent_file = ${dir}/virtuoso.pxa
ErrorLogLevel = 7
FileExtend = 200
Striping = 0
TempStorage = TempDatabase

[TempDatabase]
DatabaseFile = ${dir}/virtuoso-temp.db
TransactionFile = ${dir}/virtuoso-temp.trx
Striping = 0

[Parameters]
ServerPort = 127.0.0.1:${sqlPort}
DirsAllowed = ., ${dir}
NumberOfBuffers = 40000
MaxDirtyBuffers = 30000
CheckpointInterval = 0
MaxSortedTopRows = 1000000
VectorSize = 1000
MaxVectorSize = 1000000
AdjustVectorSize = 0
ThreadsPerQuery = 2
MaxQueryMem = 1G

[HTTPServer]
ServerPort = 127.0.0.1:${httpPort}
ServerRoot = ${dir}
MaxClientConnections = 8
ServerThreads = 8

[SPARQL]
ResultSetMaxRows = 1000000
MaxQueryExecutionTime = 300
MaxQueryCostEstimationTime = 0
`;
}

// Children still alive when the process exits (a crashed or interrupted test run).
// A kept database folder is passed as undefined: it is never removed.
const live = new Map<ChildProcess, { dir: string | undefined; dog?: ChildProcess }>();
let exitHandlerInstalled = false;
function killOnExit(child: ChildProcess, dir: string | undefined, dog?: ChildProcess): void {
  live.set(child, { dir, dog });
  if (exitHandlerInstalled) return;
  exitHandlerInstalled = true;
  process.on('exit', () => {
    for (const [c, { dir: d, dog: w }] of live) {
      w?.kill('SIGKILL');
      c.kill('SIGKILL');
      if (d !== undefined) rmSync(d, { recursive: true, force: true });
    }
  });
}

/**
 * A watchdog for when this process dies without running 'exit' handlers (SIGKILL, a
 * killed vitest worker): a shell that waits for EOF on its stdin, a pipe from us, which
 * the kernel closes when we die, and then kills Virtuoso and removes its folder.
 */
function watchdog(pid: number, dir: string | undefined): ChildProcess {
  const script = 'read _; kill -9 "$1" 2>/dev/null; sleep 1; [ -n "$2" ] && rm -rf "$2"';
  const dog = spawn('sh', ['-c', script, 'watchdog', String(pid), dir ?? ''], { stdio: ['pipe', 'ignore', 'ignore'] });
  dog.unref();
  (dog.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  return dog;
}

async function logTail(file: string, lines = 25): Promise<string> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}

/**
 * Starts `virtuoso-t` listening on loopback only, on a fresh database in a temporary folder
 * (or on the kept one of `options.dir`), waits until HTTP `/sparql` answers, then grants SPARQL
 * updates (which the Graph Store endpoint also needs) to anonymous HTTP users unless
 * `grantAnonymousUpdate` is false. Rejects with the log's tail.
 *
 * @example const v = await startLocalVirtuoso('/usr/bin/virtuoso-t', '/usr/bin/isql-vt'); await v.stop();
 */
export async function startLocalVirtuoso(
  binary: string,
  isql: string,
  options: LocalVirtuosoOptions = {},
): Promise<LocalVirtuoso> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const kept = options.dir !== undefined;
  const dir = kept ? resolve(options.dir!) : await mkdtemp(join(tmpdir(), 'sparql-jsonapi-virtuoso-'));
  if (kept) await mkdir(dir, { recursive: true });
  const [freeSql, freeHttp] = (await freePorts(2)) as [number, number];
  const sqlPort = options.sqlPort || freeSql;
  const httpPort = options.httpPort || freeHttp;
  const removable = kept ? undefined : dir;
  const ini = join(dir, 'virtuoso.ini');
  await writeFile(ini, iniText(dir, sqlPort, httpPort));
  const logFile = join(dir, 'console.log');
  const logFd = openSync(logFile, 'a');
  const child = spawn(binary, ['+foreground', '+configfile', ini], { cwd: dir, stdio: ['ignore', logFd, logFd] });
  closeSync(logFd);
  const dog = child.pid === undefined ? undefined : watchdog(child.pid, removable);
  killOnExit(child, removable, dog);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let exitCode: number | string | null = null;
  child.once('exit', (code, signal) => (exitCode = code ?? signal));
  child.once('error', () => undefined); // ENOENT etc. also ends in 'exit'/'close'

  const stop = async (): Promise<void> => {
    if (exitCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    dog?.kill('SIGKILL');
    live.delete(child);
    if (removable !== undefined) await rm(removable, { recursive: true, force: true });
  };

  const fail = async (why: string): Promise<never> => {
    const tail = await logTail(logFile);
    await stop();
    throw new Error(`virtuoso-t ${why}; last lines of its log:\n${tail}`);
  };

  const deadline = Date.now() + timeoutMs;
  const probe = `http://127.0.0.1:${httpPort}/sparql?query=${encodeURIComponent('ASK {}')}`;
  for (;;) {
    if (exitCode !== null) await fail(`exited during start-up (${exitCode})`);
    const ok = await fetch(probe, { signal: AbortSignal.timeout(2_000) }).then(
      async (r) => {
        await r.body?.cancel();
        return r.ok;
      },
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) await fail(`did not answer on /sparql within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 200));
  }
  if (options.grantAnonymousUpdate === false) return { sqlPort, httpPort, dir, pid: child.pid, stop };
  // isql exits 0 even when the statement fails: the error is only in its output.
  const grant = await promisify(execFile)(isql, [
    `127.0.0.1:${sqlPort}`,
    'dba',
    'dba',
    'exec=GRANT SPARQL_UPDATE TO "SPARQL";',
  ])
    .then(({ stdout, stderr }) => ({ failed: false, output: stdout + stderr }))
    .catch((e: { stdout?: string; stderr?: string; message: string }) => ({
      failed: true,
      output: `${e.message}\n${e.stdout ?? ''}${e.stderr ?? ''}`,
    }));
  // A kept database granted on an earlier run answers "already have role": that is granted too.
  const denied = /\*\*\* Error/.test(grant.output) && !/already have role/.test(grant.output);
  if (grant.failed || denied) await fail(`refused the GRANT: ${grant.output.trim()}`);
  // Ready means writable too: one triple through the Graph Store endpoint, as the loader sends it.
  const probeGraph = `http://127.0.0.1:${httpPort}/sparql-graph-crud?graph=${encodeURIComponent('urn:sparql-jsonapi:harness-probe')}`;
  for (;;) {
    const stored = await fetch(probeGraph, {
      method: 'POST',
      headers: { 'Content-Type': 'application/n-triples' },
      body: '<urn:s> <urn:p> "ready" .\n',
      signal: AbortSignal.timeout(2_000),
    }).then(
      async (r) => {
        await r.body?.cancel();
        return r.ok;
      },
      () => false,
    );
    if (stored) break;
    if (Date.now() > deadline) await fail(`did not accept a Graph Store write within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 200));
  }
  await fetch(probeGraph, { method: 'DELETE' }).then((r) => r.body?.cancel());
  return { sqlPort, httpPort, dir, pid: child.pid, stop };
}
