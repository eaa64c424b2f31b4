import { type CliIo, line } from './io.js';

/** `sparql-jsonapi scaffold`: not built yet (issue 13). */
export async function runScaffold(_argv: readonly string[], io: CliIo): Promise<number> {
  line(io.stderr, 'sparql-jsonapi scaffold: not available yet');
  return 2;
}
