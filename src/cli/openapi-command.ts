import { type CliIo, line } from './io.js';

/** `sparql-jsonapi openapi`: not built yet (issue 13). */
export async function runOpenapi(_argv: readonly string[], io: CliIo): Promise<number> {
  line(io.stderr, 'sparql-jsonapi openapi: not available yet');
  return 2;
}
