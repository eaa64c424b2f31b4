// @ts-check
/**
 * Piscina worker for the embedded store. Plain JavaScript on purpose: worker threads load
 * this file with Node itself (no vitest/tsx transform), from `src` in tests and from `dist`
 * after `tsc` (allowJs copies it), so it needs no build step.
 *
 * Each worker holds its own `oxigraph.Store` loaded with every file from `workerData.files`
 * while the module is evaluated, so a worker only takes tasks once it is loaded. A file that
 * fails to parse is not thrown at import time (piscina would report that as an anonymous
 * worker crash): the error is kept and every task rejects with it, naming the file.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { extname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { threadId } from 'node:worker_threads';
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
 * @typedef {{ threadId: number, triples: number, loadMs: number }} InfoResult
 */

const started = performance.now();
const store = new oxigraph.Store();
/** @type {Error | undefined} */
let loadError;

for (const file of /** @type {{ files: string[] }} */ (workerData).files) {
  const format = FORMATS[extname(file).toLowerCase()];
  try {
    if (format === undefined) {
      throw new Error(`unsupported extension (use ${Object.keys(FORMATS).join(', ')})`);
    }
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
const loadMs = Math.round(performance.now() - started);

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

/**
 * Runs one task: `info` reports this worker's thread id and load figures (the pool uses it
 * to wait until every worker is loaded); `select` returns SPARQL JSON results as a string,
 * which is cheaper to send across threads than term objects and is parsed by the caller.
 * @param {InfoTask | SelectTask} task
 * @returns {InfoResult | string}
 */
export default function run(task) {
  if (loadError !== undefined) throw loadError;
  if (task.op === 'info') return { threadId, triples: store.size, loadMs };
  const result = store.query(task.query, { results_format: 'application/sparql-results+json' });
  if (typeof result !== 'string') throw new Error('not a SELECT query');
  return result;
}
