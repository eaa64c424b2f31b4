import { parseArgs } from 'node:util';
import { LoadError } from '../load/http.js';
import { type LoadFilesOptions, LoadInterrupted, type LoadResult, loadFiles } from '../load/load-files.js';
import { formatProgress } from '../load/progress.js';
import { redactCredentials } from '../load/redact.js';
import { graphName } from '../load/staging.js';
import { type CliIo, line } from './io.js';
import { loadOptions } from './options.js';

export const LOAD_USAGE = `Usage: sparql-jsonapi load --endpoint URL [--graph IRI] [options] FILE...

Loads Turtle, N-Triples, N-Quads or TriG files (.ttl .nt .nq .trig) into a SPARQL 1.1 store,
all or nothing: every file is parsed before the first write, the triples go to a staging graph,
and only when all are there are they moved into the target graph (SPARQL 1.1 ADD or COPY).

  --endpoint URL       SPARQL endpoint; it must accept SPARQL Update (the move into place).
                       A user:password@ in the URL is used as --user/--password, never printed
  --graph IRI          named graph to load every triple and quad into (default: quads keep their
                       graphs, triples go to the default graph)
  --append             add to the triples the target graphs hold (the default)
  --replace            replace the triples of the target graphs (those the files have triples for)
  --no-staging         write the batches straight into the target graphs: faster (no move at the
                       end), but a failed or interrupted load leaves them half written
  --clean-staging      also drop the staging graphs of these targets that this load cannot tell
                       are abandoned (made on another host, or by an earlier version); those of
                       a load killed on this host are dropped anyway, a running load's never
  --graph-store URL    SPARQL 1.1 Graph Store endpoint, e.g. Virtuoso's .../sparql-graph-crud;
                       default: guessed for Virtuoso and Fuseki, else SPARQL Update;
                       "none": always SPARQL Update (INSERT DATA batches)
  --user U             user name (or env SPARQL_USER); Basic or Digest, as the store asks
  --password P         password (or env SPARQL_PASSWORD)
  --batch-size N       triples per request (default 1000 for Update, 20000 for Graph Store)
  --timeout SECONDS    time limit of each request (default 60); a request that fails with
                       a 5xx or a network error is tried 3 times in all, 1 s then 2 s apart
  --help               this text

The count at the end is the store's: the triples the target graphs gained (repeated triples, and
triples they held already, are counted once), or, if the store does not answer a count query,
the triples sent.

Exit codes: 0 loaded (also when interrupted once the move into place had begun: it is completed);
1 failed (a file, the store or the network): the targets are as they were, unless the message
says otherwise; 2 bad usage; 130 interrupted (SIGINT/SIGTERM) before the move: the targets are
as they were. With --no-staging, 1 and 130 leave the triples written so far (the message says
how many).
`;

/**
 * `sparql-jsonapi load` without `process.exit`: resolves the exit code — 0 loaded, 1 the store
 * refused or a file could not be read or parsed (nothing written), 2 bad usage (usage text
 * printed), 130 interrupted through `io.signal` before the move into place (nothing written).
 */
export async function runLoad(argv: readonly string[], io: CliIo): Promise<number> {
  // Whatever is printed goes without the user:password of a URL.
  const out = (text: string) => line(io.stdout, redactCredentials(text));
  const err = (text: string) => line(io.stderr, redactCredentials(text));
  let options: LoadFilesOptions | 'help';
  try {
    options = loadFilesOptions(argv, io);
  } catch (error) {
    err(`${(error as Error).message}\n\n${LOAD_USAGE}`);
    return 2;
  }
  if (options === 'help') {
    out(LOAD_USAGE);
    return 0;
  }
  try {
    out(summary(await loadFiles({ ...options, onProgress: (p) => out(formatProgress(p)), onNotice: err })));
    return 0;
  } catch (error) {
    if (error instanceof LoadInterrupted) {
      err(error.message);
      return 130;
    }
    // A refusal is the user's to fix (URL, grant, credentials, a syntax error): the message, not a stack.
    err(
      error instanceof LoadError ? `load failed: ${error.message}` : `load failed: ${(error as Error)?.stack ?? error}`,
    );
    return 1;
  }
}

/** The command line as {@link loadFiles}' options; throws the problem with a usage error. */
function loadFilesOptions(argv: readonly string[], io: CliIo): LoadFilesOptions | 'help' {
  const { values, positionals } = parseArgs({
    args: [...argv],
    options: loadOptions,
    allowPositionals: true,
    strict: true,
  });
  if (values.help) return 'help';
  const batch = values['batch-size'] === undefined ? undefined : Number(values['batch-size']);
  const timeout = values.timeout === undefined ? undefined : Number(values.timeout);
  const problem = !values.endpoint
    ? '--endpoint is required'
    : positionals.length === 0
      ? 'no FILE given'
      : batch !== undefined && !(Number.isInteger(batch) && batch > 0)
        ? '--batch-size must be a positive integer'
        : timeout !== undefined && !(timeout > 0 && Number.isFinite(timeout))
          ? '--timeout must be a positive number of seconds'
          : values.append && values.replace
            ? '--append and --replace exclude each other'
            : values['clean-staging'] && values['no-staging']
              ? '--clean-staging and --no-staging exclude each other'
              : undefined;
  if (problem) throw new Error(problem);
  const graphStore = values['graph-store'];
  const user = values.user ?? io.env.SPARQL_USER;
  return {
    endpointUrl: values.endpoint!,
    graph: values.graph,
    files: positionals,
    user: user || undefined,
    password: values.password ?? io.env.SPARQL_PASSWORD,
    graphStoreUrl: graphStore === 'none' ? false : graphStore,
    batchTriples: batch,
    mode: values.replace ? 'replace' : 'append',
    staging: !values['no-staging'],
    cleanStaging: values['clean-staging'] === true,
    timeoutMs: timeout === undefined ? undefined : Math.round(timeout * 1000),
    signal: io.signal,
  };
}

/**
 * The last line: what the target graphs gained by the store's count (the files may repeat
 * triples, or hold some the graphs had), else the triples sent.
 */
function summary(result: LoadResult): string {
  const graphs = result.graphs.length === 1 ? graphName(result.graphs[0]!) : `${result.graphs.length} graphs`;
  const rate = result.seconds > 0 ? Math.round(result.triples / result.seconds) : result.triples;
  const how = `${result.staged ? '' : ' without staging'}, ${result.protocol === 'update' ? 'SPARQL Update' : 'Graph Store Protocol'}`;
  const took = `in ${result.seconds.toFixed(1)} s (${rate} triples/s sent`;
  const { held } = result;
  if (held === undefined)
    return `${result.triples} triples sent ${took}, ${result.mode === 'replace' ? `replacing ${graphs}` : `added to ${graphs}`}${how}; the store did not say how many it holds)`;
  if (result.mode === 'replace')
    return `${graphs} ${result.graphs.length === 1 ? 'holds' : 'hold'} ${held.after} triples, was ${held.before}: ${result.triples} triples sent ${took}, replacing${how})`;
  return `${held.after - held.before} triples added to ${graphs}, which holds ${held.after}: ${result.triples} triples sent ${took}${how})`;
}
