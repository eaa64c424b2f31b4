import { request } from 'node:http';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { BROTLI_OPTIONS } from '../src/http/compression.js';
import { percentile } from './stats.js';

/** The codings the server sends, and none. */
export const CODINGS = ['identity', 'gzip', 'br'] as const;
export type Coding = (typeof CODINGS)[number];

/** One coding of the 100-item page: bytes on the wire, sequential p50, and req/s under load. */
export interface CodingFigures {
  readonly coding: Coding;
  readonly bytes: number;
  readonly p50: number;
  readonly requestsPerSecond: number;
  readonly connections: number;
}

/** What compressing one response body costs, as the server compresses it (CPU of one core, ms). */
export interface CompressionCost {
  readonly shape: string;
  readonly bytes: number;
  readonly gzip: { readonly bytes: number; readonly ms: number };
  readonly br: { readonly bytes: number; readonly ms: number };
}

/** One GET with `Accept-Encoding: coding`; resolves the bytes as sent (not decoded) and the time to the last. */
function rawGet(base: string, path: string, coding: Coding): Promise<{ status: number; bytes: Buffer; ms: number }> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const headers = { accept: 'application/vnd.api+json', 'accept-encoding': coding };
    request(`${base}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, bytes: Buffer.concat(chunks), ms: performance.now() - start }),
      );
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

/**
 * The 100-item page in each coding: its size on the wire, the sequential p50 over `iterations`
 * requests (the time to its last byte, not decoded), and the throughput at `connections` for
 * `seconds` (autocannon, which decodes nothing either). The server compresses every response
 * anew (no response cache here), so the difference is compression's cost and the bytes' saving.
 *
 * @example await pageByCoding('http://127.0.0.1:3000', '/trade-activities?page%5Bsize%5D=100', 50, 10, 10)
 */
export async function pageByCoding(
  base: string,
  path: string,
  iterations: number,
  connections: number,
  seconds: number,
): Promise<CodingFigures[]> {
  const figures: CodingFigures[] = [];
  for (const coding of CODINGS) {
    const first = await rawGet(base, path, coding);
    if (first.status !== 200) throw new Error(`${path} with Accept-Encoding ${coding}: HTTP ${first.status}`);
    const times: number[] = [];
    for (let i = 0; i < iterations; i++) times.push((await rawGet(base, path, coding)).ms);
    const load = await autocannon({
      url: `${base}${path}`,
      connections,
      duration: seconds,
      headers: { accept: 'application/vnd.api+json', 'accept-encoding': coding },
    });
    figures.push({
      coding,
      bytes: first.bytes.length,
      p50: percentile(times, 50),
      requestsPerSecond: load['2xx'] / Math.max(load.duration, 1e-9),
      connections,
    });
  }
  return figures;
}

/**
 * The CPU one response's compression costs, per shape: its uncompressed body (the shape's first
 * URL) compressed `rounds` times with the server's own settings (gzip level 6, brotli quality 4),
 * synchronously on this thread, so the time is the CPU of one core; the median is reported.
 */
export async function compressionCosts(
  base: string,
  urls: ReadonlyMap<string, string>,
  rounds: number,
): Promise<CompressionCost[]> {
  const costs: CompressionCost[] = [];
  for (const [shape, path] of urls) {
    const { status, bytes: body } = await rawGet(base, path, 'identity');
    if (status !== 200) continue;
    const time = (compress: () => Buffer) => {
      let out = compress(); // warm
      const ms: number[] = [];
      for (let i = 0; i < rounds; i++) {
        const start = performance.now();
        out = compress();
        ms.push(performance.now() - start);
      }
      return { bytes: out.length, ms: percentile(ms, 50) };
    };
    costs.push({
      shape,
      bytes: body.length,
      gzip: time(() => gzipSync(body)),
      br: time(() => brotliCompressSync(body, BROTLI_OPTIONS)),
    });
  }
  return costs;
}
