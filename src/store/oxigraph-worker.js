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
 * The data comes in generations: the one loaded at start (0), and one more each time the store
 * reloads the files (`load` tasks, sent to every worker, one at a time). Each query names its
 * generation, so a request that began before a reload finishes on the data it started on; a
 * generation's store is dropped (`drop`) once its `Store` is closed.
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
import { parentPort, threadId } from 'node:worker_threads';
import { workerData } from 'piscina';
import { free, loadFiles } from './oxigraph-load.js';

/**
 * @typedef {{ op: 'info', generation: number }} InfoTask
 * @typedef {{ op: 'select', query: string, generation: number }} SelectTask
 * @typedef {{ op: 'graphs', limit: number, generation: number }} GraphsTask
 * @typedef {{ op: 'load', generation: number }} LoadTask
 * @typedef {{ op: 'drop', generation: number }} DropTask
 * @typedef {{ threadId: number, triples: number, graphTriples: number | null, loadMs: number }} InfoResult
 * @typedef {{ panic: string, threadId: number }} PanicResult
 * @typedef {{ refused: string, threadId: number }} RefusedResult
 * @typedef {import('./oxigraph-load.js').Loaded} Loaded
 * @typedef {{ files: string[], graph?: string, stamps: Float64Array, started: Int32Array, evaluated: Int32Array, current: Int32Array }} OxigraphWorkerData
 */

const {
  files,
  graph,
  stamps,
  started: startedFlag,
  evaluated,
  current,
} = /** @type {OxigraphWorkerData} */ (workerData);
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

/** @type {Map<number, Loaded>} The data of each generation this worker holds. */
const generations = new Map();
/** @type {Error | undefined} Why the start-up load failed (every task rejects with it). */
let loadError;
// A replacement loads the generation served now; the first workers load generation 0.
const firstGeneration = Atomics.load(current, 0);
try {
  generations.set(firstGeneration, loadFiles({ files, graph, stamps: replacement ? stamps : undefined }));
} catch (error) {
  loadError = /** @type {Error} */ (error);
}
const first = generations.get(firstGeneration);
// Counted once this thread is past loading its modules, and it may be terminated safely (a thread
// terminated while Node instantiates a module aborts the whole process, oxigraph-store.ts). Not
// here: piscina loads this module with require(), which builds a facade module for it after this
// code has run; setImmediate runs once that require has returned.
// A task counts it too: piscina's workers wait for tasks with Atomics.wait (its `atomics: 'sync'`),
// which stops their event loop, so a failed start would wait for that callback until its deadline
// (10 s); a task runs only once the require() has returned, so counting there is as safe.
let counted = false;
const countEvaluated = () => {
  if (counted) return;
  counted = true;
  Atomics.add(evaluated, 0, 1);
};
setImmediate(countEvaluated);
if (replacement && loadError !== undefined) throw loadError;
// Not a task: piscina hands it to the pool's 'message' listeners (the store logs replacements).
parentPort?.postMessage({
  oxigraphLoaded: {
    threadId,
    triples: first?.store.size ?? 0,
    graphTriples: first?.graphTriples ?? null,
    loadMs: first?.loadMs ?? 0,
    replacement,
  },
});

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
 * SPARQL JSON results as a string, which is cheaper to send across threads than term objects and is parsed by the caller;
 * `load` reads the files again as a new generation (kept beside the others) and reports as `info`;
 * `drop` forgets a generation. Every task but `load` and `drop` reads the generation it names.
 * @param {InfoTask | GraphsTask | SelectTask | LoadTask | DropTask} task
 * @returns {InfoResult | PanicResult | RefusedResult | string[] | string | number}
 */
export default function run(task) {
  countEvaluated();
  if (task.op === 'load') {
    if (!generations.has(task.generation)) generations.set(task.generation, loadFiles({ files, graph }));
    return info(task.generation);
  }
  if (task.op === 'drop') {
    const dropped = generations.get(task.generation);
    if (dropped) free(dropped.store);
    generations.delete(task.generation);
    return threadId;
  }
  if (loadError !== undefined) throw loadError;
  if (task.op === 'info') return info(task.generation);
  if (poisoned !== undefined) return { refused: poisoned, threadId };
  const { store, dataset } = held(task.generation);
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

/**
 * The data of `generation`. A replacement holds only the generation served when it started: a
 * query of an older one (a request that began before a reload) fails there.
 * @param {number} generation
 * @returns {Loaded}
 */
function held(generation) {
  const loaded = generations.get(generation);
  if (loaded === undefined) throw new Error(`this worker does not hold the data of generation ${generation}`);
  return loaded;
}

/**
 * @param {number} generation
 * @returns {InfoResult}
 */
function info(generation) {
  const { store, graphTriples, loadMs } = held(generation);
  return { threadId, triples: store.size, graphTriples, loadMs };
}
