import { alternate, closedLoop, type KeepAliveAnswer, type KeepAliveClient, SendFailed } from './keep-alive-client.js';
import type { KeepAliveProtocol } from './options.js';
import { cpuSnapshot, perRequest } from './proc-cpu.js';
import type { KeepAliveFigures, KeepAliveShape, NotApplicable } from './results.js';

/** A server the keep-alive client measures: where it listens, its process, and the path of request `i`. */
export interface KeepAliveTarget {
  readonly base: string;
  readonly pid: number;
  /** The path of the `i`-th request (a rotation, or the next URL never sent before). */
  readonly path: (i: number) => string;
}

/** One shape under the keep-alive client: this server, the peer beside it (or why not), the store's process. */
export interface KeepAliveRun {
  readonly client: KeepAliveClient;
  readonly protocol: KeepAliveProtocol;
  readonly accept: string;
  /** URLs of the warm-up pass: the rotation's length. */
  readonly warmup: number;
  readonly server: KeepAliveTarget;
  readonly peer: KeepAliveTarget | NotApplicable;
  /** Virtuoso's pid; undefined for the embedded store, which runs inside the server. */
  readonly storePid: number | undefined;
  /** Whose closed loop goes first: it alternates shape by shape. */
  readonly peerFirst: boolean;
}

/** Each request's own time limit: a request that hangs must not hang the bench. */
const REQUEST_LIMIT_MS = 300_000;

/**
 * The keep-alive protocol of issue 40 for one shape: one warm-up pass over its URLs on each
 * server, then `protocol.sequential` requests alternating the two (p50), then a closed loop of
 * `protocol.connections` for at least `protocol.seconds` on each, whose order alternates, with
 * each process's CPU time per request over the loop. A peer that answers other than 200 is left
 * out of the shape with its status, and this server's figures stand alone.
 *
 * @example const figures = await keepAliveShape({ client, protocol, accept, warmup: 50, server, peer, storePid, peerFirst: false })
 */
export async function keepAliveShape(run: KeepAliveRun): Promise<KeepAliveShape> {
  const send = (target: KeepAliveTarget) => (i: number) => timed(run.client, target.base + target.path(i), run.accept);
  let peer: KeepAliveTarget | NotApplicable = run.peer;
  let peerDiffers: string | undefined;
  for (let i = 0; i < run.warmup; i++) {
    const ours = await send(run.server)(i);
    if (ours.status !== 200) throw new Error(`HTTP ${ours.status} in the keep-alive warm-up`);
    if ('na' in peer) continue;
    const path = peer.path(i);
    const theirs = await send(peer)(i).catch((error: Error) => ({ status: 0, error: error.message }));
    if (theirs.status !== 200) {
      peer = { na: `the peer answered ${'error' in theirs ? theirs.error : `HTTP ${theirs.status}`} on ${path}` };
      continue;
    }
    const [a, b] = [members(ours.body), members((theirs as KeepAliveAnswer).body)];
    if (peerDiffers === undefined && a !== b) peerDiffers = `${path}: this server ${a} members, the peer ${b}`;
  }
  let targets = 'na' in peer ? [run.server] : [run.server, peer];
  let sequential: Awaited<ReturnType<typeof alternate>>;
  try {
    sequential = await alternate(targets.map(send), run.protocol.sequential);
  } catch (error) {
    // The peer failing leaves this server's figures to take alone; this server failing ends the shape.
    if (!(error instanceof SendFailed) || error.index === 0 || 'na' in peer) throw error;
    peer = { na: `the peer failed a sequential request: ${(error.cause as Error).message}` };
    targets = [run.server];
    sequential = await alternate(targets.map(send), run.protocol.sequential);
  }
  const pids = {
    server: run.server.pid,
    store: run.storePid,
    ...(run.peer !== undefined && !('na' in run.peer) && { peer: run.peer.pid }),
  };
  const loops = new Map<KeepAliveTarget, Omit<KeepAliveFigures, 'sequential'>>();
  for (const target of run.peerFirst ? [...targets].reverse() : targets) {
    let i = 0;
    const before = await cpuSnapshot(pids);
    const loop = await closedLoop(() => send(target)(i++), run.protocol);
    const cpu = perRequest(before, await cpuSnapshot(pids), loop.completed);
    loops.set(target, { loop, ...(cpu && { cpu }) });
  }
  const figures = (target: KeepAliveTarget, k: number): KeepAliveFigures => ({
    sequential: sequential[k]!,
    ...loops.get(target)!,
  });
  return {
    server: figures(run.server, 0),
    peer: 'na' in peer ? peer : figures(peer, 1),
    first: run.peerFirst && !('na' in peer) ? 'peer' : 'server',
    ...(peerDiffers !== undefined && { peerDiffers }),
  };
}

/**
 * How many resources a document's `data` holds (1 for one resource, 0 for null), or `?` when the
 * body is no JSON:API document: a peer that answers fewer does less work, so the report says so.
 *
 * @example members(Buffer.from('{"data":[{"type":"a","id":"1"}]}')) // '1'
 */
export function members(body: Buffer): string {
  try {
    const { data } = JSON.parse(body.toString('utf8')) as { data?: unknown };
    return Array.isArray(data) ? String(data.length) : data === null ? '0' : data === undefined ? '?' : '1';
  } catch {
    return '?';
  }
}

/** A GET on the client with {@link REQUEST_LIMIT_MS} as its limit. */
function timed(client: KeepAliveClient, url: string, accept: string): Promise<KeepAliveAnswer> {
  return client.get(url, accept, REQUEST_LIMIT_MS);
}
