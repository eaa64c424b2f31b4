#!/usr/bin/env node
import { main } from './main.js';

// The executable: the process's streams and environment, and SIGINT/SIGTERM to stop `serve`.
const stop = new AbortController();
// A reader that stops reading (`openapi | head -1`) closes the pipe: a normal end for a command's
// output, not a crash. Any other failure of the streams is still one.
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(0);
  });
process.once('SIGINT', () => stop.abort()).once('SIGTERM', () => stop.abort());
// `npx sparql-jsonapi` (and an npm script without `exec`) runs this under `sh -c`: npm passes
// SIGTERM to that shell, which ends without passing it on, and the server would go on without
// it. So under npm, a parent that is gone stops the server as SIGTERM does.
if (process.env.npm_command !== undefined) {
  const parent = process.ppid;
  setInterval(() => process.ppid !== parent && stop.abort(), 250).unref();
}
const code = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  signal: stop.signal,
});
// Writes to a pipe may still be queued (past the pipe's 64 KB, the rest waits for the reader):
// an empty write's callback runs once everything before it is out, then the process may end.
await Promise.all(
  [process.stdout, process.stderr].map((stream) => new Promise<void>((resolve) => stream.write('', () => resolve()))),
);
process.exit(code);
