import { randomUUID } from 'node:crypto';
import { DEFAULT_GRAPH } from './source.js';

/*
 * All or nothing: a load writes into fresh staging graphs, one per target graph, and only at the
 * end moves them into place with SPARQL 1.1 Update graph management (ADD, or COPY to replace),
 * then drops them. Until that move, the target graphs are as they were; a failed or interrupted
 * load drops its staging graphs.
 */

/** What happens to the triples a target graph already holds: kept (append) or replaced. */
export type LoadMode = 'append' | 'replace';

/** One target graph ({@link DEFAULT_GRAPH} for the default graph) and the graph its triples are staged in. */
export interface StagedGraph {
  target: string;
  staging: string;
  /** Triples the files hold for it (from the check; the store may hold fewer when some repeat). */
  triples: number;
}

export const STAGING_PREFIX = 'urn:sparql-jsonapi:staging:';

/** Who made a staging graph, and for which target: what its IRI says. */
export interface StagingOwner {
  /** The target graph ({@link DEFAULT_GRAPH} for the default graph). */
  target: string;
  host: string;
  pid: number;
}

/**
 * A fresh staging graph IRI that names its load and its target, so that a later load of the same
 * target can tell a graph left by a load that was killed (its process is gone) from a concurrent
 * load's: `urn:sparql-jsonapi:staging:<host>:<pid>:<uuid>:<target, percent-encoded>`.
 */
export function stagingGraphIri(target: string, owner: Omit<StagingOwner, 'target'>): string {
  return `${STAGING_PREFIX}${encodeURIComponent(owner.host)}:${owner.pid}:${randomUUID()}:${encodeTarget(target)}`;
}

/**
 * Reads back what {@link stagingGraphIri} wrote; undefined for any other IRI, and for the
 * `urn:sparql-jsonapi:staging:<uuid>` graphs of earlier versions, which name no target.
 */
export function stagingOwner(iri: string): StagingOwner | undefined {
  if (!iri.startsWith(STAGING_PREFIX)) return undefined;
  const match = /^([^:]+):(\d+):[0-9a-f-]{36}:([^:]*)$/.exec(iri.slice(STAGING_PREFIX.length));
  if (!match) return undefined;
  try {
    return { host: decodeURIComponent(match[1]!), pid: Number(match[2]), target: decodeTarget(match[3]!) };
  } catch {
    return undefined;
  }
}

// The default graph is `-` (no IRI is), any other target its IRI percent-encoded (no `:` left).
const encodeTarget = (target: string) => (target === DEFAULT_GRAPH ? '-' : encodeURIComponent(target));
const decodeTarget = (text: string) => (text === '-' ? DEFAULT_GRAPH : decodeURIComponent(text));

/** The graph as the target of ADD/COPY/DROP: `<iri>`, or `DEFAULT`. */
function graphRef(graph: string): string {
  return graph === DEFAULT_GRAPH ? 'DEFAULT' : `<${graph}>`;
}

/** The graph as people read it in messages: `<iri>`, or `the default graph`. */
export function graphName(graph: string): string {
  return graph === DEFAULT_GRAPH ? 'the default graph' : `<${graph}>`;
}

/**
 * Sent before the first write: the move with SILENT from staging graphs that are still empty,
 * so it changes nothing, but a store that refuses updates, or refuses the target (Virtuoso has no
 * writable default graph), says so before any data is sent.
 */
export function preflightUpdate(graphs: readonly StagedGraph[]): string {
  return graphs.map((g) => `ADD SILENT <${g.staging}> TO ${graphRef(g.target)}`).join(' ;\n');
}

/**
 * The move into place, one request: ADD keeps what the target holds; COPY replaces it. Both can
 * be sent again with the same result, as long as the staging graph is still there (it is dropped
 * only after this succeeded). A target without triples in the files is dropped when replacing,
 * and left alone when appending.
 */
export function commitUpdate(graphs: readonly StagedGraph[], mode: LoadMode): string {
  const operations = graphs.flatMap((g) => {
    if (g.triples > 0) return [`${mode === 'replace' ? 'COPY' : 'ADD'} <${g.staging}> TO ${graphRef(g.target)}`];
    return mode === 'replace' ? [dropTarget(g)] : [];
  });
  return operations.join(' ;\n');
}

/**
 * The same move as {@link commitUpdate}, said with INSERT … WHERE instead of ADD and COPY, for a
 * store that refuses those: Apache Jena 4.5 (so Fuseki 4.5) fails every ADD, COPY and MOVE from a
 * named graph that exists (HTTP 500, "Invalid source target for operation"; fixed in Jena 4.6), and
 * with SILENT it adds nothing at all, so the loader's move needs this form there.
 */
export function patternMoveUpdate(graphs: readonly StagedGraph[], mode: LoadMode): string {
  const operations = graphs.flatMap((g) => {
    const drop = mode === 'replace' ? [dropTarget(g)] : [];
    if (g.triples === 0) return drop;
    const template = g.target === DEFAULT_GRAPH ? '?s ?p ?o' : `GRAPH <${g.target}> { ?s ?p ?o }`;
    return [...drop, `INSERT { ${template} } WHERE { GRAPH <${g.staging}> { ?s ?p ?o } }`];
  });
  return operations.join(' ;\n');
}

/** Empties the target graphs: what `--replace` does first when loading without staging. */
export function clearUpdate(graphs: readonly StagedGraph[]): string {
  return graphs.map(dropTarget).join(' ;\n');
}

function dropTarget(g: StagedGraph): string {
  return `DROP SILENT ${g.target === DEFAULT_GRAPH ? 'DEFAULT' : `GRAPH <${g.target}>`}`;
}

/** Drops the staging graphs (SILENT: one that never got a triple may not exist). */
export function dropUpdate(graphs: readonly StagedGraph[]): string {
  return graphs.map((g) => `DROP SILENT GRAPH <${g.staging}>`).join(' ;\n');
}

/**
 * Virtuoso applies an update in one transaction and aborts it when its log outgrows
 * TransactionAfterImageLimit (SR325; an ADD of about 1.5M triples with the default 50 MB). Its
 * `sql:log-enable 3` pragma applies the same update row by row (autocommit), without that limit
 * and without the atomicity. Only sent to a store that answered SR325, so only to Virtuoso.
 */
export function virtuosoRowByRow(update: string): string {
  return `DEFINE sql:log-enable 3\n${update}`;
}

/** Virtuoso's SR325: the update was too large for one transaction. */
export function isVirtuosoLogLimit(body: string): boolean {
  return /\bSR325\b/.test(body);
}
