// @ts-check
/**
 * Piscina worker for the embedded store. Plain JavaScript on purpose: worker threads load
 * this file with Node itself (no vitest/tsx transform), from `src` in tests and from `dist`
 * after `tsc` (allowJs copies it), so it needs no build step.
 *
 * Each worker holds its own `oxigraph.Store` loaded with every file from `workerData.files`
 * while the module is evaluated, so a worker only takes tasks once it is loaded (piscina marks a
 * replacement ready after its module has run). Quads keep their graphs; queries see, as their
 * default graph, `workerData.graph` when it is given (that named graph alone), else the union of
 * every graph: the files' default graph and each named graph of their N-Quads and TriG.
 *
 * At start-up a file that fails to parse is not thrown at import time (piscina would report that
 * as an anonymous worker crash): the error is kept and every task rejects with it, naming the file.
 * A replacement (started after the store was up, when a worker was stopped) that cannot load the
 * same data throws at import instead: piscina then starts no other, and the store runs on the
 * workers it has.
 *
 * A query that makes Oxigraph panic (a WebAssembly trap) leaves this instance in an unknown state:
 * the task answers `{ panic }` with Oxigraph's own message, and from then on the worker refuses
 * every query (`{ refused }`) until the store replaces it.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { extname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parentPort, threadId } from 'node:worker_threads';
import oxigraph from 'oxigraph';
import { workerData } from 'piscina';

/** @type {Record<string, string>} RDF media type by file extension. */
const FORMATS = {
  '.ttl': 'text/turtle',
  '.nt': 'application/n-triples',
  '.nq': 'application/n-quads',
  '.trig': 'application/trig',
};

/**
 * @typedef {{ op: 'info' }} InfoTask
 * @typedef {{ op: 'select', query: string }} SelectTask
 * @typedef {{ op: 'graphs', limit: number }} GraphsTask
 * @typedef {{ threadId: number, triples: number, graphTriples: number | null, loadMs: number }} InfoResult
 * @typedef {{ panic: string, threadId: number }} PanicResult
 * @typedef {{ refused: string, threadId: number }} RefusedResult
 * @typedef {{ size: number, mtimeMs: number } | null} FileStamp
 * @typedef {{ files: string[], graph?: string, stamps: FileStamp[], started: Int32Array, evaluated: Int32Array }} OxigraphWorkerData
 */

const { files, graph, stamps, started: startedFlag, evaluated } = /** @type {OxigraphWorkerData} */ (workerData);
/** Whether the store was already up when this worker started: then it replaces a stopped one. */
const replacement = Atomics.load(startedFlag, 0) === 1;

// Oxigraph's panic hook writes the panic message with console.error just before the trap: keep it
// for the task's answer instead of printing a Rust location and a stack to the server's stderr.
/** @type {string | undefined} */
let panicText;
const consoleError = console.error.bind(console);
console.error = (/** @type {unknown[]} */ ...args) => {
  const text = args.map(String).join(' ');
  if (text.includes('panicked at')) panicText = text;
  else consoleError(...args);
};

const startedAt = performance.now();
const store = new oxigraph.Store();
/** @type {Error | undefined} */
let loadError;

for (const [index, file] of files.entries()) {
  const format = FORMATS[extname(file).toLowerCase()];
  try {
    if (format === undefined) {
      throw new Error(`unsupported extension (use ${Object.keys(FORMATS).join(', ')})`);
    }
    if (replacement) assertUnchanged(file, stamps[index] ?? null);
    // Fed in chunks rather than as one string: the whole file never sits in WASM memory, which
    // only grows. Measured on a 937k-triple N-Triples file: a single string peaks at ~940 MB RSS,
    // chunks at ~370 MB; `no_transaction: true` was barely faster and took ~520 MB, so it is off.
    // Opened here, not in the generator, so a missing file fails with Node's plain message
    // rather than one wrapped by the WASM boundary.
    const fd = openSync(file, 'r');
    try {
      store.load(readChunks(fd), { format, base_iri: pathToFileURL(file).href });
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    loadError = new Error(`${file}: ${error instanceof Error ? error.message : String(error)}`);
    break;
  }
}

/**
 * The dataset every query reads as its default graph: the one named graph `graph`, or the union of
 * all graphs (Oxigraph's own union, no copy of the quads). The union is a multiset: a triple in two
 * graphs matches twice, which the queries absorb (members are grouped, counts distinct, values
 * deduplicated).
 * @type {{ default_graph: import('oxigraph').NamedNode } | { use_default_graph_as_union: true }}
 */
let dataset = { use_default_graph_as_union: true };
/**
 * Triples in `graph` (null without one): the store refuses to start on a graph that none of the files has.
 * @type {number | null}
 */
let graphTriples = null;
if (loadError === undefined && graph !== undefined) {
  try {
    dataset = { default_graph: oxigraph.namedNode(graph) };
    const counted = store.query('SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }', dataset);
    graphTriples = Number(/** @type {Map<string, import('oxigraph').Term>[]} */ (counted)[0]?.get('n')?.value ?? 0);
  } catch (error) {
    loadError = new Error(`graph ${graph}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
const loadMs = Math.round(performance.now() - startedAt);
// Counted once this thread is past loading its modules, and it may be terminated safely (a thread
// terminated while Node instantiates a module aborts the whole process, oxigraph-store.ts). Not
// here: piscina loads this module with require(), which builds a facade module for it after this
// code has run; setImmediate runs once that require has returned.
setImmediate(() => Atomics.add(evaluated, 0, 1));
if (replacement && loadError !== undefined) throw loadError;
// Not a task: piscina hands it to the pool's 'message' listeners (the store logs replacements).
parentPort?.postMessage({ oxigraphLoaded: { threadId, triples: store.size, graphTriples, loadMs, replacement } });

/**
 * A replacement must serve the data the other workers hold: a file edited since start-up would
 * make answers depend on which worker a query lands on.
 * @param {string} file
 * @param {FileStamp} stamp
 */
function assertUnchanged(file, stamp) {
  const now = statSync(file);
  if (stamp === null || now.size !== stamp.size || now.mtimeMs !== stamp.mtimeMs) {
    throw new Error('changed since the server started; restart the server to serve the new data');
  }
}

/**
 * Reads an open file synchronously (module evaluation cannot await) in 1 MiB chunks. Each chunk
 * is a fresh buffer: the parser gets bytes, so a UTF-8 sequence split across chunks is fine.
 * @param {number} fd
 * @returns {Generator<Uint8Array>}
 */
function* readChunks(fd) {
  for (;;) {
    const chunk = Buffer.allocUnsafe(1 << 20);
    const length = readSync(fd, chunk, 0, chunk.length, null);
    if (length === 0) return;
    yield chunk.subarray(0, length);
  }
}

/** The message line of a Rust panic report (`panicked at src/x.rs:1:2:\n<message>\n\nStack: …`). */
function panicMessage() {
  const text = panicText ?? '';
  panicText = undefined;
  const message = text
    .replace(/^[\s\S]*?panicked at [^\n]*\n/, '')
    .split(/\n\s*\n/)[0]
    ?.trim();
  return message || 'the WebAssembly engine stopped on a trap (unreachable)';
}

/** What a trap of the WASM instance throws (Node's types declare WebAssembly as types only). */
const WasmRuntimeError = /** @type {{ WebAssembly: { RuntimeError: ErrorConstructor } }} */ (
  /** @type {unknown} */ (globalThis)
).WebAssembly.RuntimeError;

/** Set once this instance has trapped: it answers no more queries. */
/** @type {string | undefined} */
let poisoned;

/**
 * Runs one task: `info` reports this worker's thread id and load figures (the pool uses it
 * to wait until every worker is loaded); `graphs` names the first `limit` named graphs the files
 * hold (IRIs, in order), for the message of a `graph` that none of them has; `select` returns
 * SPARQL JSON results as a string, which is cheaper to send across threads than term objects and is parsed by the caller.
 * @param {InfoTask | GraphsTask | SelectTask} task
 * @returns {InfoResult | PanicResult | RefusedResult | string[] | string}
 */
export default function run(task) {
  if (loadError !== undefined) throw loadError;
  if (task.op === 'info') return { threadId, triples: store.size, graphTriples, loadMs };
  if (poisoned !== undefined) return { refused: poisoned, threadId };
  if (task.op === 'graphs') {
    const named = store.query(
      `SELECT ?g WHERE { GRAPH ?g {} FILTER(isIRI(?g)) } ORDER BY ?g LIMIT ${Math.trunc(task.limit)}`,
    );
    return /** @type {Map<string, import('oxigraph').Term>[]} */ (named).map((row) => row.get('g')?.value ?? '');
  }
  let result;
  try {
    result = store.query(task.query, { ...dataset, results_format: 'application/sparql-results+json' });
  } catch (error) {
    // A panic aborts the WASM instance (a trap); a query error is an ordinary Error.
    if (!(error instanceof WasmRuntimeError)) throw error;
    poisoned = panicMessage();
    return { panic: poisoned, threadId };
  }
  if (typeof result !== 'string') throw new Error('not a SELECT query');
  return result;
}
