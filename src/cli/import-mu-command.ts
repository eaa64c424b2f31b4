import { type CliIo, line } from './io.js';

/** `sparql-jsonapi import-mu`: not built yet (issue 13). */
export async function runImportMu(_argv: readonly string[], io: CliIo): Promise<number> {
  line(io.stderr, 'sparql-jsonapi import-mu: not available yet');
  return 2;
}
