import { createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import { extname } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Quad } from '@rdfjs/types';
import { StreamParser } from 'n3';
import { isSafeAbsoluteIri } from '../mapping/iri.js';
import { Batch, type BlankTriple, packBlankTriples } from './batch.js';
import { LoadError, StoreClient } from './http.js';
import { BlankNodeLabels, hasBlankNode, termToNTriples, tripleLine } from './ntriples.js';
import { guessGraphStoreUrl, type Protocol, refused, sendBatch } from './protocol.js';

export interface LoadFilesOptions {
  /** The SPARQL endpoint; SPARQL Update requests go here. */
  endpointUrl: string;
  /** Target named graph; without it, quads keep their own graph and triples go to the default graph. */
  graph?: string;
  /** `.ttl`, `.nt`, `.nq` or `.trig` files. */
  files: string[];
  user?: string;
  password?: string;
  /** Graph Store Protocol URL; undefined: guessed from the endpoint, tried once; false: always SPARQL Update. */
  graphStoreUrl?: string | false;
  /** Triples per request; default 1,000 for Update (Virtuoso fails above ~1,500) and 20,000 for the Graph Store Protocol. */
  batchTriples?: number;
  /** Called about every {@link progressEvery} triples stored, and after each file. */
  onProgress?: (progress: LoadProgress) => void;
  /** Default 50,000. */
  progressEvery?: number;
  /** Requests in flight at once; default 2, so parsing overlaps the store's work. */
  concurrency?: number;
}

export interface LoadProgress {
  file: string;
  /** Triples of all files stored so far. */
  triples: number;
  seconds: number;
  fileDone: boolean;
}

export interface LoadResult {
  triples: number;
  seconds: number;
  protocol: Protocol;
}

const FORMATS: Record<string, string> = { '.ttl': 'Turtle', '.nt': 'N-Triples', '.nq': 'N-Quads', '.trig': 'TriG' };

/**
 * Loads RDF files into a SPARQL 1.1 store over standard protocols, streaming: files are
 * parsed with n3 as they are read and sent in batches, one request in flight while the
 * next batch is parsed. Rejects with a {@link LoadError} (user-facing message) when a file
 * cannot be read or parsed or the store refuses a batch.
 */
export async function loadFiles(options: LoadFilesOptions): Promise<LoadResult> {
  const started = performance.now();
  const seconds = () => (performance.now() - started) / 1000;
  if (options.graph !== undefined && !isSafeAbsoluteIri(options.graph)) {
    throw new LoadError(`Graph ${options.graph} is not an absolute IRI`);
  }
  for (const file of options.files) {
    if (!FORMATS[extname(file).toLowerCase()])
      throw new LoadError(`${file}: unknown RDF format (expected .ttl, .nt, .nq or .trig)`);
    await access(file).catch(() => {
      throw new LoadError(`${file}: file not found or not readable`);
    });
  }
  const client = new StoreClient(
    options.user !== undefined ? { user: options.user, password: options.password ?? '' } : undefined,
  );
  const explicitGsp = typeof options.graphStoreUrl === 'string' ? options.graphStoreUrl : undefined;
  const guessedGsp = options.graphStoreUrl === undefined ? guessGraphStoreUrl(options.endpointUrl) : undefined;
  let protocol: Protocol = (explicitGsp ?? guessedGsp) ? 'graph-store' : 'update';
  let probing = !explicitGsp && guessedGsp !== undefined;
  // While probing a guessed Graph Store URL the batch must also fit an INSERT DATA, for the fallback.
  const batchSize = () => options.batchTriples ?? (protocol === 'update' || probing ? 1_000 : 20_000);
  let stored = 0;
  const every = options.progressEvery ?? 50_000;
  let nextProgress = every;
  let currentFile = '';

  const send = async (batch: Batch): Promise<void> => {
    let result = await sendBatch(
      client,
      protocol,
      protocol === 'update' ? options.endpointUrl : (explicitGsp ?? guessedGsp)!,
      batch,
    );
    if (probing) {
      probing = false;
      // The guessed Graph Store URL does not exist on this store: use SPARQL Update from now on.
      if (result.refusal && [404, 405, 415].includes(result.refusal.status)) {
        protocol = 'update';
        result = await sendBatch(client, protocol, options.endpointUrl, batch);
      }
    }
    if (result.refusal) refused(protocol, result.url, result.refusal);
    stored += batch.size;
    if (stored >= nextProgress) {
      nextProgress = (Math.floor(stored / every) + 1) * every;
      options.onProgress?.({ file: currentFile, triples: stored, seconds: seconds(), fileDone: false });
    }
  };

  // A few requests in flight while the parser fills the next batch; the first failure stops the load.
  const pending = new Set<Promise<void>>();
  let failure: unknown;
  const drain = async (): Promise<void> => {
    await Promise.all(pending);
    if (failure) throw failure;
  };
  const submit = async (batch: Batch): Promise<void> => {
    // While the guessed Graph Store URL is on trial, nothing else is sent.
    while (pending.size >= (probing ? 1 : (options.concurrency ?? 2))) await Promise.race(pending);
    if (failure) throw failure;
    const request: Promise<void> = send(batch).then(
      () => void pending.delete(request),
      (error: unknown) => {
        pending.delete(request);
        failure ??= error;
      },
    );
    pending.add(request);
  };

  for (const [index, file] of options.files.entries()) {
    currentFile = file;
    const labels = new BlankNodeLabels(`f${index}`);
    const blankTriples: BlankTriple[] = [];
    let batch = new Batch();
    for await (const quad of parseFile(file)) {
      const graph = targetGraph(quad, options.graph, labels);
      const line = tripleLine(quad, labels);
      if (hasBlankNode(quad)) {
        // Held back to the end of the file (see packBlankTriples): these are kept in memory.
        const nodes = [quad.subject, quad.object].filter((t) => t.termType === 'BlankNode');
        blankTriples.push({ graph, line, labels: nodes.map((t) => labels.label(t.value)) });
        continue;
      }
      batch.add(graph, line);
      if (batch.size >= batchSize()) {
        await submit(batch);
        batch = new Batch();
      }
    }
    if (batch.size > 0) await submit(batch);
    for (const blankBatch of packBlankTriples(blankTriples, batchSize())) await submit(blankBatch);
    await drain();
    options.onProgress?.({ file, triples: stored, seconds: seconds(), fileDone: true });
  }
  await drain();
  return { triples: stored, seconds: seconds(), protocol };
}

function targetGraph(quad: Quad, graph: string | undefined, labels: BlankNodeLabels): string {
  if (graph !== undefined) return graph;
  if (quad.graph.termType === 'DefaultGraph') return '';
  if (quad.graph.termType === 'NamedNode') return termToNTriples(quad.graph, labels).slice(1, -1);
  throw new LoadError(`Graph name ${quad.graph.value} is not an IRI: give --graph to load it into one named graph`);
}

async function* parseFile(file: string): AsyncGenerator<Quad> {
  const format = FORMATS[extname(file).toLowerCase()]!;
  const input = createReadStream(file);
  const parser = new StreamParser({ format, baseIRI: pathToFileURL(file).href });
  input.on('error', (error) => parser.destroy(error));
  input.pipe(parser);
  try {
    for await (const quad of parser as AsyncIterable<Quad>) yield quad;
  } catch (error) {
    if (error instanceof LoadError) throw error;
    throw new LoadError(`${file}: ${(error as Error).message}`);
  } finally {
    input.destroy();
  }
}
