import { describeFetchError, retryStaleSocket } from '../store/fetch-retry.js';
import { DigestAuth, parseDigestChallenge } from './digest.js';

/** A store refused or could not take the data; the message is meant for the user, without a stack. */
export class LoadError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'LoadError';
  }
}

export interface Credentials {
  user: string;
  password: string;
}

/** The store's answer to a request that did not succeed. */
export interface Refusal {
  status: number;
  statusText: string;
  body: string;
}

/** First ~300 characters of an error body, with HTML tags and runs of whitespace removed. */
export function bodyExcerpt(body: string, max = 300): string {
  const text = body
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** The user-facing message for a refused request. */
export function refusalMessage(what: string, url: string, refusal: Refusal): string {
  const excerpt = bodyExcerpt(refusal.body);
  return `${what} ${url} refused the data: HTTP ${refusal.status} ${refusal.statusText}${excerpt ? `: ${excerpt}` : ''}`;
}

/**
 * POSTs bodies to one store with the store's credentials. Basic or Digest is chosen by
 * the server's first 401 challenge and then sent up front, so only the first request
 * of a load pays the extra round trip.
 */
export class StoreClient {
  private digest?: DigestAuth;
  private basic = false;

  constructor(private readonly credentials?: Credentials) {}

  /** Sends one POST; resolves on 2xx, resolves with the refusal otherwise, rejects with a LoadError when unreachable. */
  async post(url: string, body: string, contentType: string): Promise<Refusal | undefined> {
    let response = await this.send(url, body, contentType);
    if (response.status === 401 && this.credentials) {
      const challenge = parseDigestChallenge(response.headers.get('www-authenticate'));
      // A new challenge (first request, or stale nonce) is answered once; a second 401 is a real refusal.
      if (challenge) this.digest = new DigestAuth(challenge, this.credentials.user, this.credentials.password);
      else if (/^\s*Basic\b/i.test(response.headers.get('www-authenticate') ?? '')) this.basic = true;
      if (challenge || this.basic) {
        await response.body?.cancel();
        response = await this.send(url, body, contentType);
      }
    }
    if (response.ok) {
      await response.body?.cancel();
      return undefined;
    }
    return { status: response.status, statusText: response.statusText, body: await response.text().catch(() => '') };
  }

  private async send(url: string, body: string, contentType: string): Promise<Response> {
    const headers: Record<string, string> = { 'content-type': contentType, accept: '*/*' };
    const auth = this.authorization(url);
    if (auth) headers.authorization = auth;
    try {
      return await retryStaleSocket(() => fetch(url, { method: 'POST', headers, body }));
    } catch (error) {
      throw new LoadError(`Could not reach ${url}: ${describeFetchError(error)}`);
    }
  }

  private authorization(url: string): string | undefined {
    if (!this.credentials) return undefined;
    if (this.digest) {
      const u = new URL(url);
      return this.digest.authorization('POST', `${u.pathname}${u.search}`);
    }
    if (this.basic) {
      const token = Buffer.from(`${this.credentials.user}:${this.credentials.password}`).toString('base64');
      return `Basic ${token}`;
    }
    return undefined;
  }
}
