import type { CodingFigures, CompressionCost } from './compression.js';
import type { ClosedLoopResult } from './keep-alive-client.js';
import type { ConcurrentResult, InterferenceResult, SequentialResult, SkippedRun } from './measure.js';
import type { ClientKind, KeepAliveProtocol, Loader, Size, StoreKind } from './options.js';
import type { LatencySummary } from './stats.js';

/** One server's figures on one shape under the keep-alive client (`keep-alive-shape.ts`). */
export interface KeepAliveFigures {
  /** The sequential requests after the warm-up pass. */
  readonly sequential: LatencySummary;
  readonly loop: ClosedLoopResult;
  /**
   * µs of CPU per request served in the loop, by process: `server` (this server), `store`
   * (Virtuoso; absent for the embedded store, which runs inside the server), `peer` (when one
   * runs), `client` (the bench's own process, which sends the requests).
   */
  readonly cpu?: Readonly<Record<string, number>>;
}

/** A shape under the keep-alive client: this server, and the peer beside it or why not. */
export interface KeepAliveShape {
  readonly server: KeepAliveFigures;
  readonly peer: KeepAliveFigures | NotApplicable;
  /** Whose closed loop ran first (it alternates shape by shape). */
  readonly first: 'server' | 'peer';
  /** The first URL whose answers held different numbers of resources on the two servers, when one did. */
  readonly peerDiffers?: string;
}

/** Figures of one request shape on one store; `n/a` when the server can't answer it yet. */
export type ShapeResult =
  | {
      readonly key: string;
      readonly label: string;
      readonly status: 'ok';
      /** How many different URLs the runs rotate through, and the first, as an example. */
      readonly rotation: number;
      readonly example: string;
      /** Queries per wave of the example request (e.g. [2, 1]: list and count together, then the fetch). */
      readonly waves: readonly number[];
      /** Targets: 2, +1 when the page has a count, +1 per include level. */
      readonly queryBudget: number;
      readonly sequential: SequentialResult;
      readonly concurrent: readonly (ConcurrentResult | SkippedRun)[];
      readonly floorConcurrent: ConcurrentResult | SkippedRun;
      /** Under the keep-alive client (absent in older runs, and when `--clients` leaves it out). */
      readonly keepAlive?: KeepAliveShape | NotApplicable;
    }
  | { readonly key: string; readonly label: string; readonly status: 'n/a'; readonly reason: string };

export type NotApplicable = { readonly na: string };

/** Everything measured for one store at one dataset size. */
export interface StoreResult {
  readonly store: StoreKind;
  readonly size: Size;
  readonly triples: number;
  readonly description: string;
  /** Embedded: the server's own load (files into every worker); Virtuoso: {@link loader}'s. */
  readonly loadMs: number;
  /** How the data went into Virtuoso (absent: the embedded store, or an older run, which bulk-loaded). */
  readonly loader?: Loader;
  /** `mu:uuid` triples added beside the generated data, for the peer (absent in older runs: none). */
  readonly muUuids?: number;
  /** The peer that ran beside the server (its start command), or why none did (absent in older runs). */
  readonly peer?: { readonly command: string } | NotApplicable;
  /** Resident memory of the server process after the load, and its peak over the run (bytes). */
  readonly memory: { readonly afterLoad: number; readonly peak: number };
  readonly version?: string;
  readonly settings?: Readonly<Record<string, string>>;
  /** The server's window cache in this run: `off`, `on, no expiry` or `on, N s TTL` (absent in older runs). */
  readonly windowCache?: string;
  readonly shapes: readonly ShapeResult[];
  readonly interference: InterferenceResult | NotApplicable;
  /** Sequential requests to a bare node:http server, the same client (`measure.ts` bareHop); absent in older runs. */
  readonly hop?: LatencySummary;
  /** The 100-item page per Accept-Encoding (absent in older runs). */
  readonly compression?: readonly CodingFigures[];
  /** What compressing one response body of each shape costs (absent in older runs). */
  readonly compressionCost?: readonly CompressionCost[];
  /** The repeated identical request with the response cache on. */
  readonly cache:
    | {
        readonly connections: number;
        readonly requestsPerSecond: number;
        readonly p50: number;
        readonly p99: number;
        readonly failed: number;
      }
    | NotApplicable;
}

export interface MachineInfo {
  readonly cpu: string;
  readonly cores: number;
  readonly memoryBytes: number;
  readonly os: string;
  readonly node: string;
  readonly virtuoso?: string;
  readonly commit: string;
}

/** One run of `npm run bench` at one size: the raw JSON under bench/results/. */
export interface RunResult {
  readonly date: string;
  readonly machine: MachineInfo;
  readonly size: Size;
  readonly smoke: boolean;
  readonly settings: {
    readonly durationSeconds: number;
    readonly iterations: number;
    readonly connections: readonly number[];
    readonly serverProcess: string;
    /** `--window-cache` as given (a TTL in seconds, 0 for off), or the server's default per store (absent in older runs). */
    readonly windowCache?: number | 'server default';
    /** `--loader` (absent in older runs: bulk). */
    readonly loader?: Loader;
    /** `--clients` (absent in older runs: autocannon). */
    readonly clients?: readonly ClientKind[];
    /** The keep-alive client's protocol, with its Agent's `maxSockets` (absent in older runs). */
    readonly keepAlive?: KeepAliveProtocol & { readonly maxSockets: number };
  };
  readonly stores: readonly StoreResult[];
  /** The machine's 1-minute load average when the run began and ended: anything above the cores means shared CPUs and noisy figures. */
  readonly loadAverage: { readonly start: number; readonly end: number };
  /** Stores that were asked for but could not run, with the reason. */
  readonly skipped: readonly { readonly store: StoreKind; readonly reason: string }[];
}
