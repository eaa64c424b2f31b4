import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { findExecutable } from '../../scripts/virtuoso-local.js';
import { loadFiles } from '../../src/load/load-files.js';
import type { TestEndpoint } from './virtuoso.js';

/*
 * Apache Jena ARQ, the engine inside Fuseki, as a test store: the endpoint in jena/ (Java, on the
 * JDK's own HTTP server) over Debian's libapache-jena-java 4.5 jars, compiled at first use into a
 * cache folder named after the hash of its sources and classpath.
 */

const SOURCES = join(dirname(fileURLToPath(import.meta.url)), 'jena');
const CACHE = join(dirname(fileURLToPath(import.meta.url)), '../../node_modules/.cache/jena-endpoint');
/** Where Debian puts the jars; `JENA_JARS` may name another folder holding the same. */
const JARS = process.env.JENA_JARS || '/usr/share/java';

/**
 * The classpath: Jena's own jars and those of libapache-jena-java's Debian dependencies that ARQ
 * loads (RIOT registers every syntax at start-up, so the JSON-LD, Thrift and Protobuf ones too).
 */
const CLASSPATH = [
  'jena-arq',
  'jena-core',
  'jena-base',
  'jena-iri',
  'guava',
  'dexx.collection',
  'commons-lang3',
  'commons-io',
  'commons-codec',
  'commons-compress',
  'commons-csv',
  'commons-cli',
  'gson',
  'jackson-core',
  'jackson-databind',
  'jackson-annotations',
  'jsonld-java',
  'jakarta.json-api',
  'titanium-json-ld',
  'httpclient',
  'httpcore',
  'protobuf',
  'thrift',
  'slf4j-api',
  'slf4j-nop',
].map((name) => join(JARS, `${name}.jar`));

const INSTALL = 'apt-get install default-jdk-headless libapache-jena-java';

/** The started endpoint, as the other test stores are: a fresh graph, a loader, a stop. */
export interface JenaEndpoint extends TestEndpoint {
  /** The endpoint's Graph Store Protocol URL (`…/ds/data`), which the loader finds by itself. */
  graphStoreUrl: string;
}

export interface JenaEndpointOptions {
  /**
   * Order text in ORDER BY by this locale's collation (`en`, `de`, …) instead of by code point,
   * as some engines do: an engine that deviates, for the server's engine check.
   */
  collation?: string;
  /** How long start-up may take (default 60 s, the compilation on first use included). */
  timeoutMs?: number;
}

/** Why Jena cannot run here, or undefined when Java and the jars are there. */
export function jenaMissing(): string | undefined {
  const missing = CLASSPATH.filter((jar) => !existsSync(jar));
  if (!findExecutable('java') || !findExecutable('javac') || !findExecutable('jar') || missing.length > 0) {
    const what = missing.length > 0 ? `${missing.join(', ')} missing` : 'no java, javac or jar on PATH';
    return `no Apache Jena to test against (${what}): ${INSTALL}`;
  }
  return undefined;
}

/**
 * Starts the Jena endpoint on a free loopback port with an empty in-memory dataset, compiling it
 * first when its sources changed; resolves `{ skip }` when Java or the jars are missing, and
 * rejects when it fails to start (a real failure).
 *
 * @example const jena = await startJenaEndpoint(); await jena.load(['data/sample.ttl']); await jena.stop();
 */
export async function startJenaEndpoint(options: JenaEndpointOptions = {}): Promise<JenaEndpoint | { skip: string }> {
  const skip = jenaMissing();
  if (skip) return { skip };
  const started = performance.now();
  const classes = await compiled();
  const args = ['-Xmx2g', '-XX:+UseSerialGC', '-cp', [classes, ...CLASSPATH].join(':'), 'JenaEndpoint', '--port', '0'];
  if (options.collation !== undefined) args.push('--collation', options.collation);
  // stdin stays a pipe from us: the endpoint exits when it closes, so it never outlives this process.
  const child = spawn('java', args, { stdio: ['pipe', 'pipe', 'pipe'] });
  child.unref();
  for (const stream of [child.stdin, child.stdout, child.stderr]) (stream as unknown as { unref(): void }).unref();
  const port = await listening(child, options.timeoutMs ?? 60_000);
  const endpointUrl = `http://127.0.0.1:${port}/ds/sparql`;
  const graph = `http://example.org/sparql-jsonapi-test/${randomUUID()}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    name: 'jena',
    endpointUrl,
    graphStoreUrl: `http://127.0.0.1:${port}/ds/data`,
    graph,
    startupMs: Math.round(performance.now() - started),
    description: `Jena ARQ endpoint 127.0.0.1:${port}${options.collation ? ` (collation ${options.collation})` : ''}`,
    load: async (files) => void (await loadFiles({ endpointUrl, graph, files })),
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.stdin?.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Resolves the port the endpoint printed, or rejects with what it wrote to stderr. */
function listening(child: ChildProcess, timeoutMs: number): Promise<number> {
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  return new Promise((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`the Jena endpoint ${why}:\n${stderr.trim()}`));
    };
    const timer = setTimeout(() => fail(`did not start within ${timeoutMs / 1000} s`), timeoutMs);
    child.once('exit', (code, signal) => fail(`exited during start-up (${code ?? signal})`));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const match = /^listening on (\d+)$/.exec(line);
      if (!match) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      resolve(Number(match[1]));
    });
  });
}

/**
 * The compiled endpoint: a folder of classes, built once per hash of the sources and classpath.
 * Debian's jena-core.jar (4.5.0-2) holds its bundled Xerces under `xerces.*` but Xerces' message
 * files under `org/apache/jena/ext/xerces/`, where those classes do not look: without them Jena
 * fails at its first parse of a datatype ("internal error"). The build copies them to `xerces/`.
 */
async function compiled(): Promise<string> {
  const files = (await readdir(SOURCES)).filter((f) => f.endsWith('.java')).sort();
  const hash = createHash('sha256').update(CLASSPATH.join(':'));
  for (const file of files) hash.update(file).update(await readFile(join(SOURCES, file)));
  const target = join(CACHE, hash.digest('hex').slice(0, 16));
  if (existsSync(target)) return target;
  await mkdir(CACHE, { recursive: true });
  const work = await mkdtemp(join(CACHE, 'build-'));
  try {
    const run = promisify(execFile);
    const classes = join(work, 'classes');
    await run('javac', ['-nowarn', '-d', classes, '-cp', CLASSPATH.join(':'), ...files.map((f) => join(SOURCES, f))]);
    await run('jar', ['xf', join(JARS, 'jena-core.jar'), 'org/apache/jena/ext/xerces'], { cwd: work });
    await rename(join(work, 'org/apache/jena/ext/xerces'), join(classes, 'xerces'));
    // Another run may have built the same at the same time: either copy is the same.
    await rename(classes, target).catch((error: NodeJS.ErrnoException) => {
      if (!existsSync(target)) throw error;
    });
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  return target;
}
