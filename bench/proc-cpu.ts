import { execFileSync } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';

/**
 * CPU time by process, from Linux's `/proc/<pid>/stat`: what each process of a run (the server,
 * the store, the peer, the client) spent while a closed loop ran, to put a figure on where the
 * time of a request goes. A process counts with every thread (the embedded store's workers) and
 * with its descendants (a peer started through a shell script).
 */

/** One process's `/proc/<pid>/stat` fields that matter here: its parent and its CPU ticks (user + system). */
export interface StatFields {
  readonly pid: number;
  readonly ppid: number;
  readonly ticks: number;
}

/**
 * Reads one `/proc/<pid>/stat` line. The command name (field 2) is in parentheses and may hold
 * spaces and parentheses, so the fields are counted from its last `)`.
 *
 * @example parseStat('42 (node) S 1 42 42 0 -1 4194560 10 0 0 0 7 3 0 0 20 0 11 0 1 1 1') // { pid: 42, ppid: 1, ticks: 10 }
 */
export function parseStat(line: string): StatFields | undefined {
  const close = line.lastIndexOf(')');
  if (close < 0) return undefined;
  const pid = Number.parseInt(line, 10);
  // After the name: state (3), ppid (4), …, utime (14), stime (15); index 0 is the state.
  const rest = line
    .slice(close + 1)
    .trim()
    .split(/\s+/);
  const ppid = Number(rest[1]);
  const utime = Number(rest[11]);
  const stime = Number(rest[12]);
  if (![pid, ppid, utime, stime].every(Number.isFinite)) return undefined;
  return { pid, ppid, ticks: utime + stime };
}

/**
 * The ticks of `root` and of every process below it, from the stat lines of every process.
 *
 * @example treeTicks([{ pid: 2, ppid: 1, ticks: 5 }, { pid: 3, ppid: 2, ticks: 4 }, { pid: 9, ppid: 1, ticks: 7 }], 2) // 9
 */
export function treeTicks(processes: readonly StatFields[], root: number): number {
  const children = new Map<number, StatFields[]>();
  for (const p of processes) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  let total = 0;
  const seen = new Set<number>();
  const stack = processes.filter((p) => p.pid === root);
  while (stack.length > 0) {
    const p = stack.pop()!;
    if (seen.has(p.pid)) continue;
    seen.add(p.pid);
    total += p.ticks;
    stack.push(...(children.get(p.pid) ?? []));
  }
  return total;
}

let ticksPerSecond: number | undefined;
/** The kernel's clock ticks per second (`getconf CLK_TCK`, 100 on Linux almost everywhere). */
function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

async function allStats(): Promise<StatFields[]> {
  const pids = (await readdir('/proc').catch(() => [] as string[])).filter((name) => /^\d+$/.test(name));
  const stats = await Promise.all(
    pids.map((pid) =>
      readFile(`/proc/${pid}/stat`, 'utf8').then(
        (text) => parseStat(text),
        () => undefined, // gone since the listing
      ),
    ),
  );
  return stats.filter((s): s is StatFields => s !== undefined);
}

/** CPU microseconds of each named process tree so far, and of this process (`process.cpuUsage`, finer than ticks). */
export type CpuSnapshot = Readonly<Record<string, number>>;

/**
 * CPU µs used so far by each named process tree (`pids`), plus `client`: this process. A name
 * whose pid is undefined is left out; one whose process is gone counts 0.
 *
 * @example const before = await cpuSnapshot({ server: server.pid, store: virtuosoPid });
 */
export async function cpuSnapshot(pids: Readonly<Record<string, number | undefined>>): Promise<CpuSnapshot> {
  const stats = await allStats();
  const { user, system } = process.cpuUsage();
  const snapshot: Record<string, number> = { client: user + system };
  for (const [name, pid] of Object.entries(pids))
    if (pid !== undefined) snapshot[name] = (treeTicks(stats, pid) * 1e6) / clockTicks();
  return snapshot;
}

/**
 * µs of CPU per request of each process between two snapshots, over `requests` requests;
 * undefined when no request was served.
 *
 * @example perRequest({ server: 0, client: 0 }, { server: 400_000, client: 100_000 }, 1000) // { server: 400, client: 100 }
 */
export function perRequest(
  before: CpuSnapshot,
  after: CpuSnapshot,
  requests: number,
): Readonly<Record<string, number>> | undefined {
  if (requests <= 0) return undefined;
  return Object.fromEntries(
    Object.keys(after)
      .filter((name) => before[name] !== undefined)
      .map((name) => [name, (after[name]! - before[name]!) / requests]),
  );
}
