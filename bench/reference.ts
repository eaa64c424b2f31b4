import type { StoreResult } from './results.js';

/** What the peer did on one shape: p50 latency, throughput and SPARQL queries per request. */
export interface PeerFigures {
  readonly p50: number;
  readonly requestsPerSecond: number;
  readonly queries: number;
}

/**
 * mu-cl-resources 1.27, the server that published the seed's dataset, measured beside this one
 * (the performance issue's table): same machine (2 cores), same Virtuoso 7.2.5 with this
 * project's ini, same 937k-triple generated dataset (70,000 activities, plus the `mu:uuid` triples
 * it needs), same URLs, alternating server by server; p50 of 30 sequential requests after
 * warm-up, and throughput at 10 connections (autocannon, median of the runs). Keyed by bench
 * shape; the peer has no cursor pages.
 */
export const MU_CL_RESOURCES = {
  name: 'mu-cl-resources 1.27',
  measured: '2026-11, 2 cores, Virtuoso 7.2.5, 937k triples, 10 connections',
  store: 'virtuoso',
  size: '1m',
  connections: 10,
  shapes: {
    single: { p50: 4.7, requestsPerSecond: 875, queries: 2 },
    collection: { p50: 179, requestsPerSecond: 12.6, queries: 4 },
    sorted: { p50: 251, requestsPerSecond: 6.7, queries: 4 },
    'deep-offset': { p50: 146, requestsPerSecond: 13.7, queries: 4 },
    related: { p50: 9.0, requestsPerSecond: 539, queries: 4 },
    relationship: { p50: 5.6, requestsPerSecond: 543, queries: 4 },
    include: { p50: 194, requestsPerSecond: 13.1, queries: 5 },
    'sorted-to-many': { p50: 383, requestsPerSecond: 4.2, queries: 4 },
    filtered: { p50: 62, requestsPerSecond: 127, queries: 4 },
    'never-seen': { p50: 198, requestsPerSecond: 9.4, queries: 44 },
  } as Readonly<Record<string, PeerFigures>>,
} as const;

/** One shape of a run beside the peer's figures: throughput and p50 of each, and the ratios. */
export interface PeerComparison {
  readonly key: string;
  readonly label: string;
  readonly ours: { readonly p50: number; readonly requestsPerSecond: number | undefined; readonly queries: number };
  readonly peer: PeerFigures;
  /** This server's throughput ÷ the peer's at the same connections (above 1: faster); undefined when not measured. */
  readonly throughputRatio: number | undefined;
}

/**
 * This run's shapes beside the peer's, when the run is the one the peer was measured on (Virtuoso
 * at 1M triples, with a run at the peer's connections); an empty list otherwise, since a ratio to
 * figures taken on other data would mean nothing.
 *
 * @example compareWithPeer(result).map((c) => c.throughputRatio)
 */
export function compareWithPeer(result: StoreResult): PeerComparison[] {
  if (result.store !== MU_CL_RESOURCES.store || result.size !== MU_CL_RESOURCES.size) return [];
  return result.shapes.flatMap((shape): PeerComparison[] => {
    const peer = MU_CL_RESOURCES.shapes[shape.key];
    if (peer === undefined || shape.status !== 'ok') return [];
    const run = shape.concurrent.find((c) => c.connections === MU_CL_RESOURCES.connections);
    const requestsPerSecond = run !== undefined && !('skipped' in run) ? run.requestsPerSecond : undefined;
    return [
      {
        key: shape.key,
        label: shape.label,
        ours: { p50: shape.sequential.server.p50, requestsPerSecond, queries: shape.sequential.queries.max },
        peer,
        throughputRatio: requestsPerSecond === undefined ? undefined : requestsPerSecond / peer.requestsPerSecond,
      },
    ];
  });
}
