import { describe, expect, it } from 'vitest';
import { cpuSnapshot, parseStat, perRequest, treeTicks } from '../../bench/proc-cpu.js';

describe('CPU by process from /proc', () => {
  it('reads the parent and user + system ticks, counting fields from the name’s last parenthesis', () => {
    const fields = (name: string) =>
      `4242 (${name}) S 17 4242 4242 0 -1 4194560 5120 0 0 0 730 270 0 0 20 0 11 0 123 456 789`;
    expect(parseStat(fields('node'))).toEqual({ pid: 4242, ppid: 17, ticks: 1000 });
    // A command name may hold spaces and parentheses (a thread renamed "a) S 1 (b").
    expect(parseStat(fields('a) S 1 (b'))).toEqual({ pid: 4242, ppid: 17, ticks: 1000 });
    expect(parseStat('garbage')).toBeUndefined();
    expect(parseStat('12 (x) S')).toBeUndefined();
  });

  it('sums a process and everything below it, and nothing beside it', () => {
    const processes = [
      { pid: 10, ppid: 1, ticks: 5 }, // sh -c (the peer's start command)
      { pid: 11, ppid: 10, ticks: 40 }, // the peer itself
      { pid: 12, ppid: 11, ticks: 3 }, // a child of the peer
      { pid: 20, ppid: 1, ticks: 99 }, // another process
    ];
    expect(treeTicks(processes, 10)).toBe(48);
    expect(treeTicks(processes, 11)).toBe(43);
    expect(treeTicks(processes, 20)).toBe(99);
    expect(treeTicks(processes, 30)).toBe(0);
  });

  it('divides what each process spent between two snapshots by the requests served', () => {
    const before = { server: 1_000_000, store: 2_000_000, client: 500 };
    const after = { server: 1_400_000, store: 2_900_000, client: 100_500, peer: 10 };
    expect(perRequest(before, after, 1000)).toEqual({ server: 400, store: 900, client: 100 });
    expect(perRequest(before, after, 0)).toBeUndefined();
  });

  it('snapshots this process from /proc and from process.cpuUsage', async () => {
    const before = await cpuSnapshot({ self: process.pid, none: undefined });
    // Busy until this process has used 100 ms of CPU, however long the shared machine takes to give it.
    const start = process.cpuUsage();
    for (let used = 0; used < 100_000; ) {
      const { user, system } = process.cpuUsage(start);
      used = user + system;
    }
    const after = await cpuSnapshot({ self: process.pid });
    expect(Object.keys(before).sort()).toEqual(['client', 'self']);
    expect(after.client! - before.client!).toBeGreaterThanOrEqual(100_000);
    // /proc counts in clock ticks (10 ms): 100 ms of CPU is several of them.
    expect(after.self! - before.self!).toBeGreaterThanOrEqual(50_000);
  });
});
