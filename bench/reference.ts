import type { StoreResult } from './results.js';

/** What the peer did on one shape: p50 latency (when recorded), throughput and SPARQL queries per request. */
export interface PeerFigures {
  readonly p50: number | undefined;
  readonly requestsPerSecond: number;
  readonly queries: number;
}

/** One side-by-side measurement of the peer: where, on what, with which client, and its figures per bench shape. */
export interface PeerRun {
  readonly measured: string;
  /**
   * The load generator: `autocannon` (the bench's), or `keep-alive` (a front-end's: Node's http
   * with a keep-alive Agent, `keep-alive-client.ts`); figures compare only with the same client's.
   */
  readonly client: 'autocannon' | 'keep-alive';
  readonly store: string;
  readonly size: string;
  readonly connections: number;
  readonly shapes: Readonly<Record<string, PeerFigures>>;
}

/** Queries per request of mu-cl-resources 1.27 per shape (the same at every size). */
const MU_QUERIES = {
  single: 2,
  collection: 4,
  sorted: 4,
  'deep-offset': 4,
  related: 4,
  relationship: 4,
  include: 5,
  'sorted-to-many': 4,
  filtered: 4,
  'never-seen': 44,
} as const;

const muShapes = (figures: Record<keyof typeof MU_QUERIES, [number, number | undefined]>) =>
  Object.fromEntries(
    Object.entries(figures).map(([key, [requestsPerSecond, p50]]) => [
      key,
      { requestsPerSecond, p50, queries: MU_QUERIES[key as keyof typeof MU_QUERIES] },
    ]),
  );

/**
 * mu-cl-resources 1.27, the server that published the seed's dataset, measured beside this one:
 * same machine (2 cores), same Virtuoso 7.2.5 with this project's ini, the same generated dataset
 * plus the `mu:uuid` triples it needs, same URLs, alternating server by server; p50 of 30
 * sequential requests after warm-up, and throughput at 10 connections. Keyed by bench shape; the
 * peer has no cursor pages. Where two runs were made at one size, a shape is compared with the
 * faster of the peer's figures (the stricter reference).
 */
export const MU_CL_RESOURCES = {
  name: 'mu-cl-resources 1.27',
  runs: [
    {
      // The first performance issue's table (autocannon, median of the runs).
      measured: '2026-11, 2 cores, Virtuoso 7.2.5, 937k triples (70,000 activities), 10 connections',
      client: 'autocannon',
      store: 'virtuoso',
      size: '1m',
      connections: 10,
      shapes: muShapes({
        single: [875, 4.7],
        collection: [12.6, 179],
        sorted: [6.7, 251],
        'deep-offset': [13.7, 146],
        related: [539, 9.0],
        relationship: [543, 5.6],
        include: [13.1, 194],
        'sorted-to-many': [4.2, 383],
        filtered: [127, 62],
        'never-seen': [9.4, 198],
      }),
    },
    {
      // Issue 27's table, second run at 1M (load 2–3); p50 recorded for the single resource only.
      measured: '2026-11-27, 2 cores, Virtuoso 7.2.5, 937k triples (70,000 activities), 10 connections, load 2–3',
      client: 'autocannon',
      store: 'virtuoso',
      size: '1m',
      connections: 10,
      shapes: muShapes({
        single: [991, 3.5],
        collection: [16.7, undefined],
        sorted: [8.1, undefined],
        'deep-offset': [13.5, undefined],
        related: [429, undefined],
        relationship: [411, undefined],
        include: [11.8, undefined],
        'sorted-to-many': [3.0, undefined],
        filtered: [96.8, undefined],
        'never-seen': [10.5, undefined],
      }),
    },
    {
      // Issue 27's table at the seed's scale (the bench's 100k); p50 as the issue gives them.
      measured: '2026-11-27, 2 cores, Virtuoso 7.2.5, 94k triples (7,000 activities), 10 connections, load ≤ 4',
      client: 'autocannon',
      store: 'virtuoso',
      size: '100k',
      connections: 10,
      shapes: muShapes({
        single: [833, 3.1],
        collection: [93.0, 54.2],
        sorted: [60.0, undefined],
        'deep-offset': [118, 55.0],
        related: [446, 4.9],
        relationship: [445, 4.3],
        include: [44.1, undefined],
        'sorted-to-many': [46.8, undefined],
        filtered: [173, undefined],
        'never-seen': [25.3, undefined],
      }),
    },
    {
      // Issue 40's table: the peer running beside this server under a front-end's client.
      measured:
        '2026-12-01, 2 cores, Virtuoso 7.2 with the tuned ini, 93,979 triples (7,000 activities + mu:uuid, TTLP_MT), keep-alive client: p50 of 30 sequential requests alternating the servers, 10 closed-loop connections ≥ 4 s, load 1.8–4.0',
      client: 'keep-alive',
      store: 'virtuoso',
      size: '100k',
      connections: 10,
      shapes: muShapes({
        single: [654, 6.4],
        collection: [83.8, 67.6],
        sorted: [54.0, 75.5],
        'deep-offset': [86.9, 58.4],
        related: [348, 8.8],
        relationship: [392, 7.2],
        include: [48.6, 113],
        'sorted-to-many': [27.8, 63.8],
        'never-seen': [18.3, 135],
        filtered: [129, 35.9],
      }),
    },
    {
      // Issue 40, the same protocol at 1M 20 minutes later; req/s only.
      measured:
        '2026-12-01, 2 cores, Virtuoso 7.2 with the tuned ini, 939,057 triples (70,000 activities + mu:uuid), keep-alive client as at 100k, load 1.9–2.7',
      client: 'keep-alive',
      store: 'virtuoso',
      size: '1m',
      connections: 10,
      shapes: muShapes({
        single: [925, undefined],
        collection: [13.6, undefined],
        sorted: [6.4, undefined],
        'deep-offset': [12.4, undefined],
        related: [388, undefined],
        relationship: [458, undefined],
        include: [11.5, undefined],
        'sorted-to-many': [3.6, undefined],
        'never-seen': [10.0, undefined],
        filtered: [118, undefined],
      }),
    },
  ] as readonly PeerRun[],
} as const;

/**
 * This server's throughput ÷ the peer's each shape must reach under the keep-alive client
 * (issue 40): 3 for the list shapes, 2 for the single resource, 1.5 for the rest.
 */
export const PEER_TARGETS: Readonly<Record<string, number>> = {
  single: 2,
  collection: 3,
  sorted: 3,
  'deep-offset': 3,
  include: 3,
  'never-seen': 3,
  related: 1.5,
  relationship: 1.5,
  'sorted-to-many': 1.5,
  filtered: 1.5,
};

/**
 * The peer's fastest figures for a shape on `store` at `size` under `client` (default
 * autocannon, the bench's own), with the connections and the run they were measured at;
 * undefined when the peer was not measured there.
 *
 * @example fastestPeer('virtuoso', '1m', 'single')?.peer.requestsPerSecond // 991
 */
export function fastestPeer(
  store: string,
  size: string,
  key: string,
  client: PeerRun['client'] = 'autocannon',
): { readonly peer: PeerFigures; readonly connections: number; readonly run: PeerRun } | undefined {
  const figures = MU_CL_RESOURCES.runs.flatMap((r) => {
    const peer = r.store === store && r.size === size && r.client === client ? r.shapes[key] : undefined;
    return peer === undefined ? [] : [{ peer, connections: r.connections, run: r }];
  });
  return figures.sort((a, b) => b.peer.requestsPerSecond - a.peer.requestsPerSecond)[0];
}

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
 * This run's shapes beside the peer's, when the peer was measured on the run's store and size
 * (with a run at the peer's connections); an empty list otherwise, since a ratio to figures taken
 * on other data would mean nothing. Each shape is set beside the peer's fastest figure there.
 *
 * @example compareWithPeer(result).map((c) => c.throughputRatio)
 */
export function compareWithPeer(result: StoreResult): PeerComparison[] {
  return result.shapes.flatMap((shape): PeerComparison[] => {
    const fastest = fastestPeer(result.store, result.size, shape.key);
    if (fastest === undefined || shape.status !== 'ok') return [];
    const run = shape.concurrent.find((c) => c.connections === fastest.connections);
    const requestsPerSecond = run !== undefined && !('skipped' in run) ? run.requestsPerSecond : undefined;
    return [
      {
        key: shape.key,
        label: shape.label,
        ours: { p50: shape.sequential.server.p50, requestsPerSecond, queries: shape.sequential.queries.max },
        peer: fastest.peer,
        throughputRatio:
          requestsPerSecond === undefined ? undefined : requestsPerSecond / fastest.peer.requestsPerSecond,
      },
    ];
  });
}
