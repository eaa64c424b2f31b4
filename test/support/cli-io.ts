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

/** The port of the server's `listening on` log line, once it is written; rejects if the server exits first or after `timeoutMs` (20 s). */
export async function listeningPort(
  lines: () => readonly string[],
  exited: Promise<number>,
  stderr: () => string = () => '',
  timeoutMs = 20_000,
): Promise<number> {
  let gone: number | undefined;
  void exited.then((code) => (gone = code));
  for (
    const deadline = Date.now() + timeoutMs;
    Date.now() < deadline;
    await new Promise((resolve) => setTimeout(resolve, 25))
  ) {
    for (const line of lines()) {
      const match = /^listening on http:\/\/127\.0\.0\.1:(\d+)$/.exec((JSON.parse(line) as { msg?: string }).msg ?? '');
      if (match) return Number(match[1]);
    }
    if (gone !== undefined) throw new Error(`the server exited (${gone}) before listening; stderr: ${stderr()}`);
  }
  throw new Error(`no 'listening on' log line within ${timeoutMs / 1000} s; stderr: ${stderr()}`);
}
