import { fastestPeer, MU_CL_RESOURCES, PEER_TARGETS, type PeerFigures } from './reference.js';
import type { KeepAliveFigures, NotApplicable, ShapeResult, StoreResult } from './results.js';

type Ok = Extract<ShapeResult, { status: 'ok' }>;

/** One shape under the keep-alive client beside the peer: the running peer's figures, its dated ones, or why neither. */
export interface KeepAliveComparison {
  readonly key: string;
  readonly label: string;
  readonly ours: KeepAliveFigures;
  /** `live`: the peer ran beside this server; `dated`: its figures in `reference.ts` (no peer ran). */
  readonly peer:
    | { readonly source: 'live'; readonly figures: KeepAliveFigures }
    | { readonly source: 'dated'; readonly figures: PeerFigures; readonly measured: string }
    | NotApplicable;
  /** This server's req/s ÷ the peer's; undefined without a peer figure. */
  readonly ratio: number | undefined;
  /** The ratio the shape must reach (issue 40), when it has one. */
  readonly target: number | undefined;
  /** Autocannon's req/s at the keep-alive loop's connections, when it ran. */
  readonly autocannon: number | undefined;
}

/** Whether the peer ran beside the server in this run. */
export const peerRan = (result: StoreResult): boolean => result.peer !== undefined && 'command' in result.peer;

/**
 * Each shape measured by the keep-alive client, beside the peer: the running one when it ran,
 * else its dated figures under the same client at this store and size (`reference.ts`), else
 * nothing.
 *
 * @example compareKeepAlive(result).filter((c) => c.ratio !== undefined && c.ratio < (c.target ?? 0))
 */
export function compareKeepAlive(result: StoreResult): KeepAliveComparison[] {
  return result.shapes.flatMap((shape): KeepAliveComparison[] => {
    if (shape.status !== 'ok' || shape.keepAlive === undefined || 'na' in shape.keepAlive) return [];
    const ours = shape.keepAlive.server;
    const peer = peerOf(result, shape);
    const peerRate =
      'na' in peer
        ? undefined
        : 'loop' in peer.figures
          ? peer.figures.loop.requestsPerSecond
          : peer.figures.requestsPerSecond;
    const autocannon = shape.concurrent.find((c) => c.connections === ours.loop.connections);
    return [
      {
        key: shape.key,
        label: shape.label,
        ours,
        peer,
        ratio: peerRate ? ours.loop.requestsPerSecond / peerRate : undefined,
        target: PEER_TARGETS[shape.key],
        autocannon: autocannon && !('skipped' in autocannon) ? autocannon.requestsPerSecond : undefined,
      },
    ];
  });
}

function peerOf(result: StoreResult, shape: Ok): KeepAliveComparison['peer'] {
  const keepAlive = shape.keepAlive as Exclude<Ok['keepAlive'], undefined | NotApplicable>;
  if (peerRan(result)) return 'na' in keepAlive.peer ? keepAlive.peer : { source: 'live', figures: keepAlive.peer };
  const dated = fastestPeer(result.store, result.size, shape.key, 'keep-alive');
  if (dated) return { source: 'dated', figures: dated.peer, measured: dated.run.measured };
  return { na: result.peer !== undefined && 'na' in result.peer ? result.peer.na : 'no peer' };
}

const fixed = (value: number | undefined, digits = 1) =>
  value === undefined || !Number.isFinite(value) ? '–' : value.toFixed(digits);
const rate = (value: number | undefined) =>
  value === undefined || !Number.isFinite(value) ? '–' : value >= 100 ? String(Math.round(value)) : value.toFixed(1);
const failed = (figures: KeepAliveFigures) => (figures.loop.failed > 0 ? ` ⚠ ${figures.loop.failed} failed` : '');

/**
 * The shapes under the keep-alive client as table rows: this server's p50 and req/s, the peer's,
 * this ÷ peer against its target, and autocannon's req/s beside (with keep-alive ÷ autocannon);
 * and a note per shape whose two answers held different numbers of resources.
 */
export function keepAliveRows(result: StoreResult): { header: string[]; rows: string[][]; notes: string[] } {
  const header = [
    'shape',
    'this p50 ms',
    'this req/s',
    'peer p50 ms',
    'peer req/s',
    'this ÷ peer (target)',
    'autocannon req/s',
    'keep-alive ÷ autocannon',
  ];
  const rows = compareKeepAlive(result).map((c) => {
    const peer =
      'na' in c.peer
        ? [`n/a: ${c.peer.na}`, '']
        : c.peer.source === 'live'
          ? [
              fixed(c.peer.figures.sequential.p50),
              `${rate(c.peer.figures.loop.requestsPerSecond)}${failed(c.peer.figures)}`,
            ]
          : [`${fixed(c.peer.figures.p50)} (dated)`, `${rate(c.peer.figures.requestsPerSecond)} (dated)`];
    const verdict = c.ratio === undefined || c.target === undefined ? '' : c.ratio >= c.target ? ' ✓' : ' ✗';
    return [
      c.label,
      fixed(c.ours.sequential.p50),
      `${rate(c.ours.loop.requestsPerSecond)}${failed(c.ours)}`,
      ...peer,
      `${fixed(c.ratio, 2)}${c.target === undefined ? '' : ` (≥ ${c.target})`}${verdict}`,
      rate(c.autocannon),
      c.autocannon === undefined ? '–' : fixed(c.ours.loop.requestsPerSecond / c.autocannon, 2),
    ];
  });
  const notes = result.shapes.flatMap((shape) =>
    shape.status === 'ok' && shape.keepAlive && 'peerDiffers' in shape.keepAlive && shape.keepAlive.peerDiffers
      ? [`⚠ ${shape.label}: the answers differ, ${shape.keepAlive.peerDiffers}`]
      : [],
  );
  return { header, rows, notes };
}

/** The CPU table's rows: per shape, one row per closed loop (this server's, the peer's), µs of CPU per request by process. */
export function cpuRows(result: StoreResult): { header: string[]; rows: string[][] } {
  const header = ['shape', 'loop', 'req/s', 'server µs', 'store µs', 'peer µs', 'client µs'];
  const row = (label: string, loop: string, figures: KeepAliveFigures) => [
    label,
    loop,
    rate(figures.loop.requestsPerSecond),
    ...['server', 'store', 'peer', 'client'].map((name) => fixed(figures.cpu?.[name], 0)),
  ];
  const rows = result.shapes.flatMap((shape) => {
    if (shape.status !== 'ok' || shape.keepAlive === undefined || 'na' in shape.keepAlive) return [];
    const { server, peer, first } = shape.keepAlive;
    const ours = row(shape.label, 'this server', server);
    if ('na' in peer) return [ours];
    const theirs = row(shape.label, 'peer', peer);
    return first === 'peer' ? [theirs, ours] : [ours, theirs];
  });
  return { header, rows };
}

/** The paragraph over the keep-alive tables: the protocol, how the data went in, whose figures the peer's are. */
export function keepAliveCaption(result: StoreResult, protocol?: { sequential: number; seconds: number }): string {
  const loaded =
    result.store === 'virtuoso'
      ? ` Data loaded by ${result.loader === 'load' ? '`sparql-jsonapi load`' : "Virtuoso's bulk loader"}${result.muUuids ? `, with ${result.muUuids.toLocaleString('en')} mu:uuid triples added for the peer` : ''}.`
      : '';
  const peer = peerRan(result)
    ? `The peer (${MU_CL_RESOURCES.name}, \`${(result.peer as { command: string }).command}\`) ran beside it on the same store and graph; the two alternate shape by shape.`
    : `No peer ran (${result.peer !== undefined && 'na' in result.peer ? result.peer.na : 'no peer'}): the peer's figures are its dated ones under the same client (bench/reference.ts), where it was measured at this store and size.`;
  const steps = protocol
    ? `one warm-up pass over its URLs, ${protocol.sequential} sequential requests (p50), then 10 closed-loop connections for at least ${protocol.seconds} s (req/s)`
    : 'one warm-up pass, sequential requests (p50), then a closed loop of 10 connections (req/s)';
  return `Under a front-end's client (Node http, keep-alive Agent, maxSockets 10, bodies read whole): per shape ${steps}.${loaded} ${peer}`;
}
