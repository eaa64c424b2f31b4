/**
 * A local Virtuoso for people without Docker, with the project's tuned settings (the ini of
 * scripts/virtuoso-local.ts, the one the tests and the benchmark use):
 *
 *   npm run virtuoso [-- --port 8890] [--sql-port 1111] [--data-dir DIR] [--graph IRI]
 *
 * It prints the SPARQL endpoint, the `/sparql-auth` endpoint and dba login that loading needs,
 * and the exact `load` and `serve --endpoint` commands, then runs until Ctrl-C (or SIGTERM),
 * which stops Virtuoso. It keeps the stock rule that `/sparql` takes no writes, so that what
 * works here works on any stock Virtuoso. Without `--data-dir` the database is a fresh temporary
 * one, removed on exit; with it, the database lives in DIR and is there again next time.
 * `--port 0` (or `--sql-port 0`) takes a free port.
 */
import { createServer } from 'node:net';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { findExecutable, type LocalVirtuoso, startLocalVirtuoso } from './virtuoso-local.js';

/** What the command line asks for. */
interface VirtuosoCommand {
  httpPort: number;
  sqlPort: number;
  dataDir: string | undefined;
  graph: string;
}

const USAGE = `Usage: npm run virtuoso [-- --port 8890] [--sql-port 1111] [--data-dir DIR] [--graph IRI]

Starts a local Virtuoso (virtuoso-t) with the project's settings, and prints its endpoints and
the commands that load a file into it and serve it. Ctrl-C stops it.

  --port N        HTTP port of the SPARQL endpoint (default 8890; 0 for a free one)
  --sql-port N    isql port (default 1111; 0 for a free one)
  --data-dir DIR  keep the database there (default: a temporary one, removed on exit)
  --graph IRI     the graph the printed commands load and serve (default http://example.org/graph/mine)
  --help          this text`;
// The password of a fresh Virtuoso database's dba; it listens on 127.0.0.1 only.
const DBA_PASSWORD = 'dba';

/**
 * Reads the command line; throws with the usage text when it is wrong.
 *
 * @example parseVirtuosoArgs(['--port', '0']) // → { httpPort: 0, sqlPort: 1111, dataDir: undefined, graph: 'http://example.org/graph/mine' }
 */
function parseVirtuosoArgs(argv: readonly string[]): VirtuosoCommand | 'help' {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      port: { type: 'string', default: '8890' },
      'sql-port': { type: 'string', default: '1111' },
      'data-dir': { type: 'string' },
      graph: { type: 'string', default: 'http://example.org/graph/mine' },
      help: { type: 'boolean' },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) return 'help';
  const port = (name: 'port' | 'sql-port'): number => {
    const text = values[name];
    const n = Number(text);
    if (!/^\d+$/.test(text) || n > 65535)
      throw new Error(`--${name}: expected a port number (0 to 65535), got '${text}'`);
    return n;
  };
  return { httpPort: port('port'), sqlPort: port('sql-port'), dataDir: values['data-dir'], graph: values.graph };
}

/**
 * The text printed once Virtuoso answers: its endpoints, the login for loading, and the
 * commands to load a file and serve it (the README's quick start, with this store's URLs).
 *
 * @example readyText({ httpPort: 8890, sqlPort: 1111, dir: '/tmp/v', stop }, { graph: 'http://example.org/graph/mine', dataDir: undefined })
 */
function readyText(v: LocalVirtuoso, command: Pick<VirtuosoCommand, 'graph' | 'dataDir'>): string {
  const base = `http://127.0.0.1:${v.httpPort}`;
  const database =
    command.dataDir === undefined
      ? `${v.dir} (removed on exit; --data-dir DIR keeps it)`
      : `${v.dir} (kept: run with the same --data-dir to serve it again)`;
  return [
    'Virtuoso is running.',
    `  SPARQL endpoint: ${base}/sparql        (queries; it takes no writes)`,
    `  for loading:     ${base}/sparql-auth   user dba, password ${DBA_PASSWORD} (Digest)`,
    `  isql:            isql-vt 127.0.0.1:${v.sqlPort} dba ${DBA_PASSWORD}`,
    `  database:        ${database}`,
    '',
    'Load a file into a named graph (in another terminal):',
    `  npx sparql-jsonapi load --endpoint ${base}/sparql-auth --user dba --password ${DBA_PASSWORD} --graph ${command.graph} mine.ttl`,
    'Serve it:',
    `  npx sparql-jsonapi serve --endpoint ${base}/sparql --graph ${command.graph} --mapping mine.yaml`,
    '',
    'Ctrl-C stops Virtuoso.',
  ].join('\n');
}

/** Resolves when nothing listens on 127.0.0.1:port (0 always), else rejects with what to do. */
async function checkPortFree(port: number, flag: string): Promise<void> {
  if (port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new Error(
          error.code === 'EADDRINUSE'
            ? `port ${port} is in use (another Virtuoso, or docker compose's?): choose another with ${flag} N, or 0 for a free one`
            : `cannot listen on port ${port}: ${error.message}`,
        ),
      ),
    );
    server.listen(port, '127.0.0.1', () => server.close(() => resolve()));
  });
}

async function main(argv: readonly string[]): Promise<number> {
  let command: VirtuosoCommand;
  try {
    const parsed = parseVirtuosoArgs(argv);
    if (parsed === 'help') {
      console.log(USAGE);
      return 0;
    }
    command = parsed;
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const binary = process.env.VIRTUOSO_T || findExecutable('virtuoso-t');
  if (!binary) {
    console.error(
      'virtuoso-t is not on PATH. Install it with: sudo apt-get install virtuoso-opensource-7-bin\n' +
        '(Debian and Ubuntu), or run Virtuoso with Docker: docker compose up (docs/operations.md).',
    );
    return 1;
  }
  try {
    await checkPortFree(command.httpPort, '--port');
    await checkPortFree(command.sqlPort, '--sql-port');
  } catch (error) {
    console.error((error as Error).message);
    return 1;
  }
  const isql = findExecutable('isql-vt') ?? 'isql-vt';
  console.log(`starting ${binary} with the tuned settings of scripts/virtuoso-local.ts…`);
  let virtuoso: LocalVirtuoso;
  try {
    virtuoso = await startLocalVirtuoso(binary, isql, {
      httpPort: command.httpPort,
      sqlPort: command.sqlPort,
      dir: command.dataDir,
      grantAnonymousUpdate: false,
    });
  } catch (error) {
    console.error((error as Error).message);
    return 1;
  }
  console.log(readyText(virtuoso, command));
  // Ctrl-C reaches Virtuoso too (same process group); stop() waits for it to exit either way.
  // The handlers stay: a second Ctrl-C while Virtuoso shuts down must not cut the shutdown short.
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.on('SIGINT', () => resolve('SIGINT'));
    process.on('SIGTERM', () => resolve('SIGTERM'));
  });
  console.log(`${signal}: stopping Virtuoso…`);
  await virtuoso.stop();
  console.log('Virtuoso stopped.');
  return 0;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2));
}
