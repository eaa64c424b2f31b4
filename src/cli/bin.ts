#!/usr/bin/env node
import { main } from './main.js';

// The executable: the process's streams and environment, and SIGINT/SIGTERM to stop `serve`.
const stop = new AbortController();
process.once('SIGINT', () => stop.abort()).once('SIGTERM', () => stop.abort());
const code = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  signal: stop.signal,
});
// Writes to pipes and files are synchronous on Linux, so nothing printed is lost by exiting now.
process.exit(code);
