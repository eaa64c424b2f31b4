import { parseArgs } from 'node:util';
import { LoadError } from '../load/http.js';
import { loadFiles } from '../load/load-files.js';
import { type CliIo, line } from './io.js';
import { loadOptions } from './options.js';

export const LOAD_USAGE = `Usage: sparql-jsonapi load --endpoint URL [--graph IRI] [options] FILE...

Loads Turtle, N-Triples, N-Quads or TriG files (.ttl .nt .nq .trig) into a SPARQL 1.1 store.

  --endpoint URL       SPARQL endpoint (SPARQL Update requests go here)
  --graph IRI          named graph to load into (default: the files' own graphs / default graph)
  --graph-store URL    SPARQL 1.1 Graph Store endpoint, e.g. Virtuoso's .../sparql-graph-crud;
                       default: guessed for Virtuoso and Fuseki, else SPARQL Update;
                       "none": always SPARQL Update (INSERT DATA batches)
  --user U             user name (or env SPARQL_USER); Basic or Digest, as the store asks
  --password P         password (or env SPARQL_PASSWORD)
  --batch-size N       triples per request (default 1000 for Update, 20000 for Graph Store)
  --help               this text
`;

/**
 * `sparql-jsonapi load` without `process.exit`: resolves the exit code — 0 loaded,
 * 1 the store refused or a file could not be read, 2 bad usage (usage text printed).
 */
export async function runLoad(argv: readonly string[], io: CliIo): Promise<number> {
  const parse = () => parseArgs({ args: [...argv], options: loadOptions, allowPositionals: true, strict: true });
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse();
  } catch (error) {
    line(io.stderr, `${(error as Error).message}\n\n${LOAD_USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    line(io.stdout, LOAD_USAGE);
    return 0;
  }
  const batch = values['batch-size'] === undefined ? undefined : Number(values['batch-size']);
  const problem = !values.endpoint
    ? '--endpoint is required'
    : positionals.length === 0
      ? 'no FILE given'
      : batch !== undefined && !(Number.isInteger(batch) && batch > 0)
        ? '--batch-size must be a positive integer'
        : undefined;
  if (problem) {
    line(io.stderr, `${problem}\n\n${LOAD_USAGE}`);
    return 2;
  }
  const graphStore = values['graph-store'];
  const user = values.user ?? io.env.SPARQL_USER;
  const password = values.password ?? io.env.SPARQL_PASSWORD;
  try {
    const result = await loadFiles({
      endpointUrl: values.endpoint!,
      graph: values.graph,
      files: positionals,
      user: user || undefined,
      password,
      graphStoreUrl: graphStore === 'none' ? false : graphStore,
      batchTriples: batch,
      onProgress: (p) =>
        line(
          io.stdout,
          `${p.fileDone ? 'loaded' : 'loading'} ${p.file}: ${p.triples} triples so far, ${p.seconds.toFixed(1)} s`,
        ),
    });
    const rate = result.seconds > 0 ? Math.round(result.triples / result.seconds) : result.triples;
    line(
      io.stdout,
      `${result.triples} triples loaded in ${result.seconds.toFixed(1)} s (${rate} triples/s, ${result.protocol === 'update' ? 'SPARQL Update' : 'Graph Store Protocol'})`,
    );
    return 0;
  } catch (error) {
    // A refusal is the user's to fix (URL, grant, credentials): the message, not a stack.
    line(
      io.stderr,
      error instanceof LoadError ? `load failed: ${error.message}` : `load failed: ${(error as Error)?.stack ?? error}`,
    );
    return 1;
  }
}
