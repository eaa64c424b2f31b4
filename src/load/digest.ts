import { createHash, randomBytes } from 'node:crypto';

/** The parameters of one `WWW-Authenticate: Digest ...` challenge (RFC 7616 §3.3). */
export interface DigestChallenge {
  realm: string;
  nonce: string;
  opaque?: string;
  qop?: string;
  algorithm?: string;
  stale?: string;
}

// auth-param = token "=" ( token / quoted-string ), quoted-string with backslash escapes
const AUTH_PARAM = /([A-Za-z0-9_-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))/g;

/**
 * Finds the Digest challenge in a `WWW-Authenticate` header value, which may also
 * carry other schemes (`Basic realm="x", Digest realm="y", nonce="z"`).
 * Returns undefined when there is no usable Digest challenge.
 */
export function parseDigestChallenge(header: string | null): DigestChallenge | undefined {
  if (!header) return undefined;
  const start = header.search(/(^|[\s,])Digest\s/i);
  if (start < 0) return undefined;
  const rest = header.slice(start).replace(/^[\s,]*Digest\s+/i, '');
  const params: Record<string, string> = {};
  for (const match of rest.matchAll(AUTH_PARAM)) {
    const key = match[1]!.toLowerCase();
    // A following scheme ("..., Basic realm=...") starts a new challenge: stop there.
    if (key in params) break;
    params[key] = match[2] !== undefined ? match[2].replace(/\\(.)/g, '$1') : match[3]!;
  }
  if (params.realm === undefined || params.nonce === undefined) return undefined;
  return {
    realm: params.realm,
    nonce: params.nonce,
    opaque: params.opaque,
    qop: params.qop,
    algorithm: params.algorithm,
    stale: params.stale,
  };
}

const HASHES: Record<string, string> = { MD5: 'md5', 'SHA-256': 'sha256' };

/**
 * Keeps one Digest challenge and answers it for each request, counting `nc` up so
 * the server's nonce can be reused: one extra round trip per load, not per batch.
 */
export class DigestAuth {
  private nonceCount = 0;

  constructor(
    private readonly challenge: DigestChallenge,
    private readonly user: string,
    private readonly password: string,
    private readonly cnonce: () => string = () => randomBytes(8).toString('hex'),
  ) {
    const algorithm = (challenge.algorithm ?? 'MD5').toUpperCase().replace(/-SESS$/, '');
    if (!(algorithm in HASHES)) throw new Error(`Unsupported Digest algorithm ${challenge.algorithm}`);
  }

  /** The `Authorization` header value for one request (method and request-target, e.g. `/sparql?x=1`). */
  authorization(method: string, uri: string): string {
    const c = this.challenge;
    const algorithmName = (c.algorithm ?? 'MD5').toUpperCase();
    const sess = algorithmName.endsWith('-SESS');
    const hashName = HASHES[algorithmName.replace(/-SESS$/, '')]!;
    const h = (s: string) => createHash(hashName).update(s, 'utf8').digest('hex');
    // Only qop=auth is implemented: auth-int would need a hash of every batch body.
    const qop = c.qop
      ?.split(',')
      .map((q) => q.trim())
      .includes('auth')
      ? 'auth'
      : undefined;
    const cnonce = this.cnonce();
    const nc = (++this.nonceCount).toString(16).padStart(8, '0');
    let ha1 = h(`${this.user}:${c.realm}:${this.password}`);
    if (sess) ha1 = h(`${ha1}:${c.nonce}:${cnonce}`);
    const ha2 = h(`${method}:${uri}`);
    const response = qop ? h(`${ha1}:${c.nonce}:${nc}:${cnonce}:${qop}:${ha2}`) : h(`${ha1}:${c.nonce}:${ha2}`);
    const quote = (s: string) => `"${s.replace(/(["\\])/g, '\\$1')}"`;
    const parts = [
      `username=${quote(this.user)}`,
      `realm=${quote(c.realm)}`,
      `nonce=${quote(c.nonce)}`,
      `uri=${quote(uri)}`,
      `response=${quote(response)}`,
    ];
    if (c.algorithm) parts.push(`algorithm=${c.algorithm}`);
    if (c.opaque !== undefined) parts.push(`opaque=${quote(c.opaque)}`);
    if (qop) parts.push(`qop=${qop}`, `nc=${nc}`, `cnonce=${quote(cnonce)}`);
    return `Digest ${parts.join(', ')}`;
  }
}
