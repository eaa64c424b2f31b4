/** Where the CLI reads and writes: the process's streams and environment, or a test's. */
export interface CliIo {
  /** Usage text, load progress, and the server's JSON log lines. */
  readonly stdout: { write(text: string): unknown };
  /** Problems: usage mistakes, invalid mappings and configurations, failures. */
  readonly stderr: { write(text: string): unknown };
  readonly env: NodeJS.ProcessEnv;
  /** Aborting it stops a running server (the executable wires SIGINT and SIGTERM to it). */
  readonly signal?: AbortSignal;
}

/** Writes one line. */
export const line = (stream: CliIo['stdout'], text: string): void => {
  stream.write(`${text}\n`);
};
