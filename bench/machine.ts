import { execFileSync } from 'node:child_process';
import { availableParallelism, cpus, release, totalmem, type } from 'node:os';
import type { MachineInfo } from './results.js';

/**
 * The machine a run measured: CPU, cores, memory, OS, Node, and the commit of the code under test
 * (`+dirty` when the tree has changes).
 */
export function machineInfo(virtuoso?: string): MachineInfo {
  const git = (...args: string[]) => {
    try {
      return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      return '';
    }
  };
  const commit = git('rev-parse', '--short', 'HEAD') || 'unknown';
  const dirty = git('status', '--porcelain', '--untracked-files=no') !== '';
  return {
    cpu: cpus()[0]?.model.trim() ?? 'unknown CPU',
    cores: availableParallelism(),
    memoryBytes: totalmem(),
    os: `${type()} ${release()}`,
    node: process.version,
    ...(virtuoso && { virtuoso }),
    commit: `${commit}${dirty ? '+dirty' : ''}`,
  };
}
