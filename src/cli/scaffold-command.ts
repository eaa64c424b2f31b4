import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { isSafeAbsoluteIri } from '../mapping/iri.js';
import { ScaffoldError, scaffoldMapping } from '../scaffold/scaffold.js';
import { sourceDescription } from '../scaffold/source-description.js';
import { createHttpStore } from '../store/http-store.js';
import { createOxigraphStore, GraphNotFoundError } from '../store/oxigraph-store.js';
import type { Store } from '../store/store.js';
import { type CliIo, line } from './io.js';
import { scaffoldOptions } from './options.js';

export const SCAFFOLD_USAGE = `Usage: sparql-jsonapi scaffold (--data FILE... | --endpoint URL [--graph IRI]) [--out FILE]

Writes a starter mapping for the data: one type per class with members, its id strategy, and
attributes and relationships from what a sample of its members carry (or from the data's SHACL
shapes). Every type it writes has members, and the mapping loads and serves as it is; the
comments in it say what each part rests on and what to adjust (docs/scaffold.md).

  --data FILE          RDF file for the embedded store (.ttl .nt .nq .trig); repeat for more
  --endpoint URL       SPARQL 1.1 query endpoint instead (or env SPARQL_ENDPOINT)
  --graph IRI          the named graph to describe (or env SPARQL_GRAPH)
  --user U, --password P   credentials for the endpoint (or env SPARQL_USER, SPARQL_PASSWORD)
  --out FILE           write the mapping there (default: standard output); a file that
                       exists is left as it is (it may hold your edits) unless --force
  --force              replace the --out file if it exists
  --sample-size N      members of each class the statistics look at (default 1000)
  --help               this text
`;

/** The refusal to write over a mapping that exists: it may be the user's edited one. */
const outExists = (file: string): string =>
  `--out: ${file} exists and is left as it is (it may hold your edits); give --force to replace it, or another --out`;

/** How long one introspection query may take: longer than a request's, as nobody is waiting on a page. */
const QUERY_TIMEOUT_MS = 60_000;

/** What the command line asks for, checked. */
interface ScaffoldRequest {
  data: string[];
  endpoint?: string;
  graph?: string;
  sampleSize?: number;
  out?: string;
  force: boolean;
  user?: string;
  password?: string;
}

/**
 * `sparql-jsonapi scaffold`: writes a starter mapping for the data (`scaffold/scaffold.ts`) to
 * `--out` or standard output, with a summary on standard error. Resolves 0 done, 1 a store or
 * file failed, 2 bad usage or data with nothing to map.
 *
 * @example await runScaffold(['--data', 'data/sample.ttl', '--out', 'mine.yaml'], io)
 */
export async function runScaffold(argv: readonly string[], io: CliIo): Promise<number> {
  const request = scaffoldRequest(argv, io);
  if (typeof request === 'number') return request;
  // Not a usage mistake: the message alone, before the data is read.
  if (request.out !== undefined && !request.force && existsSync(request.out)) {
    line(io.stderr, `sparql-jsonapi scaffold: ${outExists(request.out)}`);
    return 2;
  }
  let store: Store;
  try {
    store = await openStore(request);
  } catch (error) {
    if (error instanceof GraphNotFoundError) {
      line(io.stderr, `sparql-jsonapi scaffold: ${error.message}`);
      return 2;
    }
    throw error;
  }
  try {
    return await scaffoldInto(store, request, io);
  } catch (error) {
    if (error instanceof ScaffoldError) {
      line(io.stderr, `sparql-jsonapi scaffold: ${error.message}`);
      return 2;
    }
    throw error;
  } finally {
    await store.close();
  }
}

/** The checked command line, or the exit code when it is a usage error or `--help` (printed). */
function scaffoldRequest(argv: readonly string[], io: CliIo): ScaffoldRequest | number {
  const parse = () => parseArgs({ args: [...argv], options: scaffoldOptions, strict: true });
  let values: ReturnType<typeof parse>['values'];
  try {
    values = parse().values;
  } catch (error) {
    line(io.stderr, `${(error as Error).message}\n\n${SCAFFOLD_USAGE}`);
    return 2;
  }
  if (values.help) {
    line(io.stdout, SCAFFOLD_USAGE);
    return 0;
  }
  const data = values.data ?? [];
  const endpoint = data.length ? undefined : (values.endpoint ?? io.env.SPARQL_ENDPOINT);
  const graph = values.graph ?? (endpoint ? io.env.SPARQL_GRAPH : undefined);
  const sampleSize = values['sample-size'] === undefined ? undefined : Number(values['sample-size']);
  const problem =
    data.length > 0 && values.endpoint
      ? 'give either --data FILE... or --endpoint URL, not both'
      : !data.length && !endpoint
        ? 'give either --data FILE... or --endpoint URL'
        : endpoint && !/^https?:\/\/[^/\s]/i.test(endpoint)
          ? `--endpoint: expected an http(s) URL, got '${endpoint}'`
          : graph !== undefined && !isSafeAbsoluteIri(graph)
            ? `--graph: expected an absolute IRI (http://example.org/graph), got '${graph}'`
            : sampleSize !== undefined && !(Number.isInteger(sampleSize) && sampleSize >= 1 && sampleSize <= 100_000)
              ? '--sample-size: expected a whole number from 1 to 100000'
              : undefined;
  if (problem) {
    line(io.stderr, `${problem}\n\n${SCAFFOLD_USAGE}`);
    return 2;
  }
  const user = values.user ?? io.env.SPARQL_USER;
  const password = values.password ?? io.env.SPARQL_PASSWORD;
  return {
    data,
    force: values.force === true,
    ...(endpoint && { endpoint }),
    ...(graph && { graph }),
    ...(sampleSize !== undefined && { sampleSize }),
    ...(values.out !== undefined && { out: values.out }),
    ...(user && { user }),
    ...(password && { password }),
  };
}

function openStore({ data, endpoint, graph, user, password }: ScaffoldRequest): Promise<Store> | Store {
  if (endpoint === undefined)
    return createOxigraphStore({ files: data, ...(graph && { graph }), workers: 1, timeoutMs: QUERY_TIMEOUT_MS });
  return createHttpStore({
    endpointUrl: endpoint,
    ...(graph && { graph }),
    ...(user && { user }),
    ...(password && { password }),
    timeoutMs: QUERY_TIMEOUT_MS,
  });
}

/** Scaffolds, writes the mapping, and says what it wrote; the exit code. */
async function scaffoldInto(store: Store, request: ScaffoldRequest, io: CliIo): Promise<number> {
  const { data, endpoint, graph, out } = request;
  const description = sourceDescription({ data, ...(endpoint && { endpoint }), ...(graph && { graph }) });
  const started = performance.now();
  const { yaml, scaffold } = await scaffoldMapping(store, {
    files: data,
    description,
    ...(request.sampleSize !== undefined && { sampleSize: request.sampleSize }),
    ...(io.signal && { signal: io.signal }),
  });
  if (out) {
    // wx: checked before the data was read, and again now, so a file that appeared meanwhile is kept too.
    const written = await writeFile(out, yaml, { flag: request.force ? 'w' : 'wx' }).catch(
      (error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error;
        line(io.stderr, `sparql-jsonapi scaffold: ${outExists(out)}`);
        return 'exists' as const;
      },
    );
    if (written === 'exists') return 2;
  } else io.stdout.write(yaml);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  line(
    io.stderr,
    `scaffolded ${scaffold.types.length} types from ${description} in ${seconds} s${out ? `, written to ${out}` : ''}: ${scaffold.types.map((t) => `${t.name} (${t.members})`).join(', ')}`,
  );
  return 0;
}
