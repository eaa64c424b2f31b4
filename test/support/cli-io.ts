import type { CliIo } from '../../src/cli/io.js';

/** A CLI io that keeps what the command writes, one entry per write (a message, without its final newline); an empty environment unless given one. */
export function captureIo(
  env: NodeJS.ProcessEnv = {},
  signal?: AbortSignal,
): CliIo & { readonly out: string[]; readonly err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  const into = (lines: string[]) => ({ write: (text: string) => lines.push(text.replace(/\n$/, '')) });
  return { stdout: into(out), stderr: into(err), env, ...(signal && { signal }), out, err };
}
