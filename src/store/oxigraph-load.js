// @ts-check
/**
 * How a worker of the embedded store (oxigraph-worker.js) loads the data files into an Oxigraph
 * store. Plain JavaScript, as the worker is: worker threads load it with Node itself.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { extname } from 'node:path';
import { pathToFileURL } from 'node:url';
import oxigraph from 'oxigraph';

/**
 * @typedef {{ store: import('oxigraph').Store, dataset: Dataset, graphTriples: number | null, loadMs: number }} Loaded
 * @typedef {{ default_graph: import('oxigraph').NamedNode } | { use_default_graph_as_union: true }} Dataset
 */

/** @type {Record<string, string>} RDF media type by file extension. */
const FORMATS = {
  '.ttl': 'text/turtle',
  '.nt': 'application/n-triples',
  '.nq': 'application/n-quads',
  '.trig': 'application/trig',
};

/**
 * Loads every file into a new Oxigraph store; throws `<file>: <parser message>` when one cannot
 * be read, or when `graph` cannot be counted. With `stamps` (a replacement's load), the files
 * must be the ones the other workers loaded.
 * @param {{ files: readonly string[], graph?: string | undefined, stamps?: Float64Array | undefined }} options
 * @returns {Loaded}
 */
export function loadFiles({ files, graph, stamps }) {
  const startedAt = performance.now();
  const store = new oxigraph.Store();
  for (const [index, file] of files.entries()) {
    const format = FORMATS[extname(file).toLowerCase()];
    try {
      if (format === undefined) {
        throw new Error(`unsupported extension (use ${Object.keys(FORMATS).join(', ')})`);
      }
      if (stamps !== undefined) assertUnchanged(file, stamps.subarray(2 * index, 2 * index + 2));
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
      free(store);
      throw new Error(`${file}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  /**
   * The dataset every query reads as its default graph: the one named graph `graph`, or the union of
   * all graphs (Oxigraph's own union, no copy of the quads). The union is a multiset: a triple in two
   * graphs matches twice, which the queries absorb (members are grouped, counts distinct, values
   * deduplicated).
   * @type {Dataset}
   */
  let dataset = { use_default_graph_as_union: true };
  /** Triples in `graph` (null without one): the store refuses to start on a graph that none of the files has. */
  let graphTriples = null;
  if (graph !== undefined) {
    try {
      dataset = { default_graph: oxigraph.namedNode(graph) };
      const counted = store.query('SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }', dataset);
      graphTriples = Number(/** @type {Map<string, import('oxigraph').Term>[]} */ (counted)[0]?.get('n')?.value ?? 0);
    } catch (error) {
      free(store);
      throw new Error(`graph ${graph}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return { store, dataset, graphTriples, loadMs: Math.round(performance.now() - startedAt) };
}

/**
 * A replacement must serve the data the other workers hold: a file edited since they loaded it
 * would make answers depend on which worker a query lands on. `stamps` holds each file's size and
 * modification time as the other workers read it (-1: missing).
 * @param {string} file
 * @param {Float64Array} stamp the file's size and modification time
 */
function assertUnchanged(file, stamp) {
  const now = statSync(file);
  if (now.size !== stamp[0] || now.mtimeMs !== stamp[1]) {
    throw new Error('changed since the server loaded it; reload it (serve --watch) or restart the server');
  }
}

/**
 * Gives a store's WebAssembly memory back now rather than when it is collected (wasm-bindgen's
 * `free`, which oxigraph's types leave out).
 * @param {import('oxigraph').Store} store
 */
export function free(store) {
  /** @type {{ free?: () => void }} */ (/** @type {unknown} */ (store)).free?.();
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
