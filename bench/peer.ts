import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { freePort } from './server-process.js';

/**
 * The peer: another JSON:API server (mu-cl-resources 1.27, built as /work/shared/mu-peer says)
 * run beside this one on the same store and graph, so that both are measured in the same minutes.
 * The bench never builds or ships it: it takes the peer's start command from the environment.
 */
export const PEER_ENV = 'BENCH_PEER';

/** What the start command gets in its placeholders. */
export interface PeerPlaceholders {
  readonly port: number;
  /** The SPARQL endpoint the peer queries (the store's, as the server gets it). */
  readonly endpoint: string;
  readonly graph: string;
}

const shellQuote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;

/**
 * The shell command that starts the peer: `template` (`$BENCH_PEER`) with `{port}`, `{endpoint}`
 * and `{graph}` replaced by their shell-quoted values. A string without `{port}` is refused: the
 * bench picks the port, so a peer that doesn't take it would not be found.
 *
 * @example peerCommand('MU_DOMAIN=d.lisp ./start {port} {endpoint} {graph}', { port: 9000, endpoint: 'http://h/sparql', graph: 'urn:g' })
 * // "MU_DOMAIN=d.lisp ./start '9000' 'http://h/sparql' 'urn:g'"
 */
export function peerCommand(template: string, values: PeerPlaceholders): string | { readonly error: string } {
  if (!template.includes('{port}'))
    return { error: `${PEER_ENV} must contain {port} (and may use {endpoint} and {graph}): got '${template}'` };
  return template
    .replaceAll('{port}', shellQuote(String(values.port)))
    .replaceAll('{endpoint}', shellQuote(values.endpoint))
    .replaceAll('{graph}', shellQuote(values.graph));
}

/**
 * A shape's URL as mu-cl-resources reads it: the same path, but each `filter[a.b.c][eq]=v` in
 * mu's own form, `filter[a][b][:exact:c]=v` (mu has no operator brackets and no dot paths).
 *
 * @example muPath('/trade-activities?filter%5Borigin.country.iso-code%5D%5Beq%5D=GR') // '/trade-activities?filter%5Borigin%5D%5Bcountry%5D%5B%3Aexact%3Aiso-code%5D=GR'
 */
export function muPath(path: string): string {
  const [pathname, query] = path.split('?', 2) as [string, string | undefined];
  if (query === undefined) return path;
  const params = new URLSearchParams(query);
  const rewritten = new URLSearchParams();
  for (const [name, value] of params) {
    const filter = /^filter\[([^\]]+)\]\[eq\]$/.exec(name);
    if (!filter) {
      rewritten.append(name, value);
      continue;
    }
    const fields = filter[1]!.split('.');
    const last = fields.pop()!;
    rewritten.append(`filter${fields.map((f) => `[${f}]`).join('')}[:exact:${last}]`, value);
  }
  return `${pathname}?${rewritten.toString().replaceAll('+', '%20')}`;
}

/** The peer, running: its base URL, its pid (for its CPU time), the command it was started with. */
export interface PeerProcess {
  readonly url: string;
  readonly pid: number;
  readonly command: string;
  stop(): Promise<void>;
}

/**
 * Starts the peer with `template` (see {@link peerCommand}) in a process group of its own (so
 * that stopping it stops what its script started), its output in `logFile`, and resolves once
 * `readyPath` answers 200 (at most `timeoutMs`); rejects with the log's tail.
 *
 * @example const peer = await startPeer(process.env.BENCH_PEER!, { endpoint, graph, readyPath: '/concepts', logFile, timeoutMs: 60_000 });
 */
export async function startPeer(
  template: string,
  options: {
    readonly endpoint: string;
    readonly graph: string;
    readonly readyPath: string;
    readonly logFile: string;
    readonly timeoutMs: number;
  },
): Promise<PeerProcess> {
  const port = await freePort();
  const command = peerCommand(template, { port, endpoint: options.endpoint, graph: options.graph });
  if (typeof command !== 'string') throw new Error(command.error);
  const log = openSync(options.logFile, 'a');
  const child = spawn('/bin/sh', ['-c', command], { detached: true, stdio: ['ignore', log, log] });
  closeSync(log);
  let exited: number | string | null = null;
  child.once('exit', (code, signal) => (exited = code ?? signal));
  const group = child.pid!;
  const kill = (signal: NodeJS.Signals) => {
    try {
      process.kill(-group, signal);
    } catch {
      // already gone
    }
  };
  const onExit = () => kill('SIGKILL');
  process.once('exit', onExit);
  const stop = async () => {
    kill('SIGTERM');
    for (let i = 0; i < 50 && exited === null; i++) await new Promise((r) => setTimeout(r, 100));
    kill('SIGKILL');
    process.off('exit', onExit);
  };
  const url = `http://127.0.0.1:${port}`;
  const deadline = performance.now() + options.timeoutMs;
  for (;;) {
    const status = await fetch(url + options.readyPath, { signal: AbortSignal.timeout(5_000) }).then(
      async (r) => {
        await r.body?.cancel();
        return r.status;
      },
      () => 0,
    );
    if (status === 200) return { url, pid: group, command, stop };
    if (exited !== null || performance.now() > deadline) {
      await stop();
      const tail = (await readFile(options.logFile, 'utf8').catch(() => '')).trim().split('\n').slice(-15).join('\n');
      throw new Error(
        `the peer (${command}) ${exited === null ? `did not answer ${options.readyPath} with 200 in ${options.timeoutMs / 1000} s` : `exited (${exited})`}; its log ends:\n${tail}`,
      );
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}
