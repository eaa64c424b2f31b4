import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { Dataset } from '../dataset.js';

const PROTO = /^https?$/i;
// A DNS name or an IP literal, with an optional port: nothing else can become a link's authority.
const HOST =
  /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;
// Path segments of unreserved characters, sub-delims, `:`, `@` and percent-escapes.
const PREFIX = /^(?:\/(?:[A-Za-z0-9._~!$&'()*+,;=:@-]|%[0-9A-Fa-f]{2})+)*\/?$/;

/**
 * The base URL a trusted proxy says the client used (`https://data.example.org/api`), from the
 * first element of `Forwarded` (RFC 7239: `proto`, `host`), else `X-Forwarded-Proto` and
 * `X-Forwarded-Host` (their first values), with `X-Forwarded-Prefix`. The headers are client
 * input wherever the proxy passes them on: any of them malformed, and none is used (undefined),
 * as when no host is given. A scheme not given is the connection's own.
 *
 * @example forwardedBase({ forwarded: 'for=192.0.2.1;proto=https;host=api.example.org' }, 'http') // 'https://api.example.org'
 */
export function forwardedBase(headers: IncomingHttpHeaders, connection: 'http' | 'https'): string | undefined {
  const element = headers.forwarded === undefined ? undefined : forwardedElement(headers.forwarded);
  if (element === null) return undefined;
  const host = element?.host ?? first(headers['x-forwarded-host']);
  const proto = element?.proto ?? first(headers['x-forwarded-proto']) ?? connection;
  const prefix = first(headers['x-forwarded-prefix']) ?? '';
  if (host === undefined || !HOST.test(host) || !PROTO.test(proto) || !PREFIX.test(prefix)) return undefined;
  const port = /^https$/i.test(proto) ? ':443' : ':80';
  return `${proto.toLowerCase()}://${host.toLowerCase().replace(new RegExp(`${port}$`), '')}${prefix.replace(/\/$/, '')}`;
}

/**
 * The prefix of every link in the answer to `req`: the dataset's link base, or with `trustProxy`
 * and well-formed forwarding headers, the forwarded base before the dataset's path (an absolute
 * link base set for the dataset stays as it is).
 */
export function linkBaseFor(req: IncomingMessage, dataset: Dataset): string {
  if (!dataset.trustProxy) return dataset.linkBase;
  const base = forwardedBase(req.headers, schemeOf(req));
  return base === undefined ? dataset.linkBase : withBase(dataset, base);
}

/** The dataset's link base under `base` in place of its public base (an absolute link base of its own stays). */
export function withBase(dataset: Dataset, base: string): string {
  if (!dataset.trustProxy) return dataset.linkBase;
  const path = dataset.linkBase.slice(dataset.publicBase?.length ?? 0);
  return /^https?:/i.test(path) ? path : base + path;
}

/** The URL of the server's `/` for `req`, when links are absolute (without its final slash); else ''. */
export function rootBaseFor(req: IncomingMessage, dataset: Dataset): string {
  const base = dataset.trustProxy ? forwardedBase(req.headers, schemeOf(req)) : undefined;
  return base ?? dataset.publicBase ?? '';
}

/**
 * One `Forwarded` element's `host` and `proto` (either may be absent); null when the header is
 * malformed. Only the first element is read: the proxy nearest the client wrote it.
 */
function forwardedElement(header: string): { host?: string; proto?: string } | null {
  const text = header.split(',')[0]!.trim();
  const element: { host?: string; proto?: string } = {};
  for (const pair of text.split(';')) {
    const match = /^\s*([A-Za-z]+)=("(?:[^"\\]|\\.)*"|[!#$%&'*+.^_`|~0-9A-Za-z:[\]-]+)\s*$/.exec(pair);
    if (!match) return null;
    const name = match[1]!.toLowerCase();
    const value = match[2]!.startsWith('"') ? match[2]!.slice(1, -1).replace(/\\(.)/g, '$1') : match[2]!;
    if (name === 'host' || name === 'proto') element[name] = value;
  }
  return element;
}

function first(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  return text?.split(',')[0]?.trim() || undefined;
}

/** The scheme of the connection a request came on. */
const schemeOf = (req: IncomingMessage): 'http' | 'https' => ((req.socket as TLSSocket).encrypted ? 'https' : 'http');

/**
 * A document per forwarded base, built on first use: behind one proxy there are a few bases at
 * most, so the first 16 are kept, and any beyond (headers no proxy of this deployment sets) are
 * built for their request only.
 */
export function perBase<T>(build: (base: string) => T): (base: string) => T {
  const kept = new Map<string, T>();
  return (base) => {
    let value = kept.get(base);
    if (value === undefined) {
      value = build(base);
      if (kept.size < 16) kept.set(base, value);
    }
    return value;
  };
}
