import { Agent, request } from 'node:http';
import { type LatencySummary, summarize } from './stats.js';

/**
 * A client like a front-end's server side: Node's `http` module on a keep-alive `Agent` of at
 * most {@link MAX_SOCKETS} sockets, `Accept: application/vnd.api+json`, every body read whole
 * (not parsed). Beside autocannon, whose one connection per loop and C-like parser cost the
 * server and the machine less than what users' front-ends send (issue 40).
 */
export const MAX_SOCKETS = 10;

/** One answer: its status, the time from the call until the last byte, and its size. */
export interface KeepAliveAnswer {
  readonly status: number;
  readonly ms: number;
  readonly body: Buffer;
}

/** A keep-alive client on one `Agent`; `close` ends its sockets. */
export interface KeepAliveClient {
  /** GETs `url`, aborted with an error after `timeoutMs` (default: no limit). */
  get(url: string, accept: string, timeoutMs?: number): Promise<KeepAliveAnswer>;
  close(): void;
}

/**
 * A client on a fresh keep-alive `Agent` (`maxSockets` {@link MAX_SOCKETS}).
 *
 * @example const client = keepAliveClient(); const { status, ms } = await client.get(`${base}/concepts`, JSON_API); client.close();
 */
export function keepAliveClient(): KeepAliveClient {
  const agent = new Agent({ keepAlive: true, maxSockets: MAX_SOCKETS });
  return {
    get: (url, accept, timeoutMs) => once(url, accept, timeoutMs).catch(retryStale(() => once(url, accept, timeoutMs))),
    close: () => agent.destroy(),
  };

  function once(url: string, accept: string, timeoutMs: number | undefined): Promise<KeepAliveAnswer> {
    return new Promise((resolve, reject) => {
      const start = performance.now();
      const req = request(url, { agent, headers: { accept } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          // The whole body in one buffer, as a front-end holds it before parsing it.
          const body = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, ms: performance.now() - start, body });
        });
        res.on('error', reject);
      });
      req.on('error', (error) => reject(Object.assign(error, { reusedSocket: req.reusedSocket })));
      if (timeoutMs !== undefined)
        req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs / 1000} s: ${url}`)));
      req.end();
    });
  }
}

/**
 * Once more when a kept-alive socket was closed by the server as the request went out (its idle
 * timeout: Node's http server closes idle sockets after 5 s), as Node's documentation advises and
 * as any front-end's client does: a race of the idle sockets, not a failure of the server.
 */
const retryStale =
  (again: () => Promise<KeepAliveAnswer>) =>
  (error: Error & { reusedSocket?: boolean; code?: string }): Promise<KeepAliveAnswer> => {
    if (error.reusedSocket && (error.code === 'ECONNRESET' || error.code === 'EPIPE')) return again();
    throw error;
  };

/** A closed loop's figures: `connections` loops, each sending its next request when the last ended. */
export interface ClosedLoopResult {
  readonly connections: number;
  /** From the first request until the last one ended (at least the run's seconds). */
  readonly seconds: number;
  readonly requestsPerSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly completed: number;
  /** Answers other than 200, and requests that failed. */
  readonly failed: number;
}

/**
 * `connections` loops sending `send()` back to back until `seconds` have passed, each then
 * finishing the request it has in flight: a closed loop, as a front-end's users make one.
 * Requests per second count the 200s over the whole time.
 *
 * @example await closedLoop(() => client.get(base, next(), JSON_API), { connections: 10, seconds: 4 })
 */
export async function closedLoop(
  send: () => Promise<KeepAliveAnswer>,
  run: { readonly connections: number; readonly seconds: number },
): Promise<ClosedLoopResult> {
  const latencies: number[] = [];
  let failed = 0;
  const started = performance.now();
  const until = started + run.seconds * 1000;
  await Promise.all(
    Array.from({ length: run.connections }, async () => {
      while (performance.now() < until) {
        try {
          const answer = await send();
          if (answer.status === 200) latencies.push(answer.ms);
          else failed++;
        } catch {
          failed++;
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const summary = summarize(latencies);
  return {
    connections: run.connections,
    seconds,
    requestsPerSecond: latencies.length / seconds,
    p50: summary.p50,
    p99: summary.p99,
    completed: latencies.length,
    failed,
  };
}

/** A sequential request that failed, with the index of the server it went to (in `alternate`'s `sends`). */
export class SendFailed extends Error {
  override name = 'SendFailed';
  constructor(
    readonly index: number,
    cause: Error,
  ) {
    super(`server ${index}: ${cause.message}`, { cause });
  }
}

/**
 * Sequential requests to one server or two, alternating which goes first (so neither always
 * finds the store warm from the other): `count` rounds of `sends`, each answer timed; a non-200
 * or a failed request throws {@link SendFailed} naming the server, since a figure of error
 * answers would mean nothing.
 *
 * @example const [ours, peer] = await alternate([(i) => ours(i), (i) => peer(i)], 30)
 */
export async function alternate(
  sends: readonly ((i: number) => Promise<KeepAliveAnswer>)[],
  count: number,
): Promise<LatencySummary[]> {
  const ms = sends.map(() => [] as number[]);
  for (let i = 0; i < count; i++) {
    const order = i % 2 === 0 ? sends.map((_, k) => k) : sends.map((_, k) => k).reverse();
    for (const k of order) {
      const answer = await sends[k]!(i).catch((error: Error) => {
        throw new SendFailed(k, error);
      });
      if (answer.status !== 200) throw new SendFailed(k, new Error(`HTTP ${answer.status} on sequential request ${i}`));
      ms[k]!.push(answer.ms);
    }
  }
  return ms.map((list) => summarize(list));
}
