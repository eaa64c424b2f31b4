import { createReadStream } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Quad } from '@rdfjs/types';
import { StreamParser } from 'n3';
import { LoadError } from './http.js';
import { BlankNodeLabels, hasBlankNode, termToNTriples, tripleLine } from './ntriples.js';

const FORMATS: Record<string, string> = { '.ttl': 'Turtle', '.nt': 'N-Triples', '.nq': 'N-Quads', '.trig': 'TriG' };

/** The default graph, as a target graph name. */
export const DEFAULT_GRAPH = '';

/** Rejects with a LoadError when a file has no known RDF extension or cannot be read. */
export async function checkReadable(files: readonly string[]): Promise<void> {
  for (const file of files) {
    if (!FORMATS[extname(file).toLowerCase()])
      throw new LoadError(`${file}: unknown RDF format (expected .ttl, .nt, .nq or .trig)`);
    await access(file).catch(() => {
      throw new LoadError(`${file}: file not found or not readable`);
    });
  }
}

/**
 * The quads of one file, parsed with n3 as it is read; `onBytes` gets the size of each chunk
 * read. A syntax error rejects with a LoadError naming the file and the line: `data.nt:5001: …`.
 */
export async function* parseFile(file: string, onBytes?: (bytes: number) => void): AsyncGenerator<Quad> {
  const format = FORMATS[extname(file).toLowerCase()]!;
  const input = createReadStream(file);
  const parser = new StreamParser({ format, baseIRI: pathToFileURL(file).href });
  input.on('error', (error) => parser.destroy(error));
  if (onBytes) input.on('data', (chunk) => onBytes(chunk.length));
  input.pipe(parser);
  try {
    for await (const quad of parser as AsyncIterable<Quad>) yield quad;
  } catch (error) {
    if (error instanceof LoadError) throw error;
    throw new LoadError(syntaxMessage(file, error as Error));
  } finally {
    input.destroy();
  }
}

/** `file:line: message` for an n3 error, which ends its message with ` on line N.` */
export function syntaxMessage(file: string, error: Error & { context?: { line?: number } }): string {
  const line = error.context?.line ?? /on line (\d+)\.?$/.exec(error.message)?.[1];
  const message = error.message.replace(/ on line \d+\.?$/, '');
  return line === undefined ? `${file}: ${message}` : `${file}:${line}: ${message}`;
}

/**
 * The graph a quad is loaded into: `graph` when given; else the quad's own graph
 * ({@link DEFAULT_GRAPH} for the default graph). A blank-node graph name needs `graph`.
 */
export function targetGraph(quad: Quad, graph: string | undefined, labels: BlankNodeLabels): string {
  if (graph !== undefined) return graph;
  if (quad.graph.termType === 'DefaultGraph') return DEFAULT_GRAPH;
  if (quad.graph.termType === 'NamedNode') return termToNTriples(quad.graph, labels).slice(1, -1);
  throw new LoadError(`Graph name ${quad.graph.value} is not an IRI: give --graph to load it into one named graph`);
}

/** One triple as the loader sends it: its target graph, its N-Triples line, and its blank nodes' labels if it has any. */
export interface TripleRecord {
  graph: string;
  line: string;
  blanks?: string[];
}

/**
 * The triples of the `index`-th file of a load, ready to send: blank nodes renamed per file
 * (`f<index>b<n>`), so two files never share one.
 */
export async function* readTriples(
  file: string,
  index: number,
  graph: string | undefined,
  onBytes?: (bytes: number) => void,
): AsyncGenerator<TripleRecord> {
  const labels = new BlankNodeLabels(`f${index}`);
  for await (const quad of parseFile(file, onBytes)) yield tripleRecord(quad, targetGraph(quad, graph, labels), labels);
}

function tripleRecord(quad: Quad, graph: string, labels: BlankNodeLabels): TripleRecord {
  const line = tripleLine(quad, labels);
  if (!hasBlankNode(quad)) return { graph, line };
  const nodes = [quad.subject, quad.object].filter((t) => t.termType === 'BlankNode');
  return { graph, line, blanks: nodes.map((t) => labels.label(t.value)) };
}

/** What the check found: every file parsed, nothing sent. */
export interface CheckedFiles {
  /** Triples per target graph, in the order first seen. */
  graphs: Map<string, number>;
  triples: number;
  /** Sizes of the files, in bytes. */
  sizes: number[];
  /** The triples of each file, when they fitted in `keepChars`: the load sends these instead of parsing again. */
  kept?: TripleRecord[][];
}

export interface CheckProgress {
  file: string;
  triples: number;
  bytes: number;
  totalBytes: number;
}

/**
 * Parses every file to the end before anything is written, so that a syntax error anywhere
 * stops the load while the store is untouched. Counts the triples per target graph, and keeps
 * them while their lines add up to at most `keepChars` characters (default 0: none). Rejects
 * with a LoadError (`file:line: message`), or with `stop.reason` once `stop` is aborted.
 */
export async function checkFiles(
  files: readonly string[],
  graph: string | undefined,
  options: { stop?: AbortSignal; progress?: (p: CheckProgress) => void; keepChars?: number } = {},
): Promise<CheckedFiles> {
  const sizes = await Promise.all(files.map(async (file) => (await stat(file)).size));
  const totalBytes = sizes.reduce((a, b) => a + b, 0);
  const graphs = new Map<string, number>();
  let triples = 0;
  let bytes = 0;
  let kept: TripleRecord[][] | undefined = (options.keepChars ?? 0) > 0 ? [] : undefined;
  let keptChars = 0;
  const { stop } = options;
  for (const [index, file] of files.entries()) {
    const labels = new BlankNodeLabels(`f${index}`);
    let last: string | undefined;
    let lastCount = 0;
    const keep: TripleRecord[] = [];
    kept?.push(keep);
    for await (const quad of parseFile(file, (n) => (bytes += n))) {
      if (stop?.aborted) throw stop.reason;
      const target = targetGraph(quad, graph, labels);
      // Consecutive triples nearly always share their graph: one map update per run of them.
      if (target !== last) {
        if (last !== undefined) graphs.set(last, (graphs.get(last) ?? 0) + lastCount);
        if (!graphs.has(target)) graphs.set(target, 0);
        last = target;
        lastCount = 0;
      }
      lastCount++;
      if (kept) {
        const triple = tripleRecord(quad, target, labels);
        keptChars += triple.line.length;
        if (keptChars <= options.keepChars!) keep.push(triple);
        else kept = undefined; // too large to keep: the load parses the files again
      }
      if (++triples % 4096 === 0) options.progress?.({ file, triples, bytes, totalBytes });
    }
    if (last !== undefined) graphs.set(last, (graphs.get(last) ?? 0) + lastCount);
    bytes = sizes.slice(0, index + 1).reduce((a, b) => a + b, 0);
  }
  return { graphs, triples, sizes, kept };
}
