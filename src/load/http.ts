import { setTimeout as sleep } from 'node:timers/promises';
import { describeFetchError, retryStaleSocket } from '../store/fetch-retry.js';
import { DigestAuth, parseDigestChallenge } from './digest.js';
import { type Credentials, redactCredentials } from './redact.js';
import type { Refusal } from './refusal.js';

export type { Credentials } from './redact.js';
export { bodyExcerpt, type Refusal, refusalMessage } from './refusal.js';

/** A store refused or could not take the data; the message is meant for the user, without a stack. */
export class LoadError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(redactCredentials(message));
    this.name = 'LoadError';
  }
}

/**
 * No answer: every attempt timed out or lost its connection, so whether the last one took effect
 * is unknown (the store may still be working on it).
 */
export class NoAnswerError extends LoadError {
  /** Some attempt timed out (rather than failing to connect). */
  readonly timedOut: boolean;

  constructor(message: string, { timedOut }: { timedOut: boolean }) {
    super(message);
    this.timedOut = timedOut;
    this.name = 'NoAnswerError';
  }
}

/** How one request is sent: its time limit, how often it is tried, and what stops it. */
export interface RequestPolicy {
  /** Time limit of each attempt, answer body included, in ms. Default 60,000. */
  timeoutMs: number;
  /** Attempts in all, the first included. Default 3. */
  attempts: number;
  /** Wait before the second attempt, in ms; doubled before each further one. Default 1,000. */
  retryDelayMs: number;
  /**
   * Sending it twice does no harm (INSERT DATA of ground triples, ADD, DROP), so an attempt whose
   * outcome is unknown (timed out, connection lost mid-request) may be repeated. Otherwise (blank
   * nodes: each request makes new ones) only an attempt the store answered with a 5xx, or that
   * never connected, is repeated. Default true.
   */
  idempotent: boolean;
  /** Once aborted, no further attempt is made (the load is stopping). */
  stop?: AbortSignal;
  /** Aborts the attempt in flight. */
  abort?: AbortSignal;
  /** Told before each retry, with what failed and when the next attempt goes: for the user. */
  onRetry?: (notice: string) => void;
  /** The Accept header (default any: an update's answer is not read). */
  accept?: string;
}

export const DEFAULT_POLICY: RequestPolicy = { timeoutMs: 60_000, attempts: 3, retryDelayMs: 1_000, idempotent: true };

/** Backoff before attempt `attempt` (2, 3, …): `retryDelayMs`, then doubled each time. */
export function retryDelay(attempt: number, retryDelayMs: number): number {
  return retryDelayMs * 2 ** (attempt - 2);
}

/** Jena 4.5's refusal of ADD and COPY from a named graph (see staging.ts patternMoveUpdate). */
export function isJenaGraphMoveRefusal(body: string): boolean {
  return /Invalid source target for operation/.test(body);
}

/**
 * A 5xx other than "not implemented", and not one of the stores' permanent ones: Virtuoso's SR186
 * (no grant, answered with a 500) and SR325 (the transaction outgrew its log limit; it fails the
 * same way again), and Jena 4.5's refusal of ADD and COPY from a named graph (staging.ts).
 */
export function isTransient(status: number, body: string): boolean {
  return (
    status >= 500 &&
    status !== 501 &&
    status !== 505 &&
    !/\bSR186\b|\bSR325\b|SECURITY/.test(body) &&
    !isJenaGraphMoveRefusal(body)
  );
}

// The connection was never made: the request did not reach the store.
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
function neverConnected(error: unknown): boolean {
  for (let e = error, depth = 0; e !== null && typeof e === 'object' && depth < 8; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && NOT_CONNECTED.has(code)) return true;
    if (e instanceof AggregateError && e.errors.some(neverConnected)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(3))} s`;
const TIMED_OUT = Symbol('timed out');

/**
 * POSTs bodies to one store with the store's credentials, each request with a time limit and
 * retried with exponential backoff on a 5xx or a network failure (a 4xx is the store's final
 * word). Basic or Digest is chosen by the server's first 401 challenge and then sent up front,
 * so only the first request of a load pays the extra round trip.
 */
export class StoreClient {
  private digest?: DigestAuth;
  private basic = false;
  private readonly defaults: RequestPolicy;

  constructor(
    private readonly credentials?: Credentials,
    defaults: Partial<RequestPolicy> = {},
  ) {
    this.defaults = { ...DEFAULT_POLICY, ...defaults };
  }

  /**
   * Sends one POST: resolves on 2xx, resolves with the refusal otherwise (after the retries a 5xx
   * gets), rejects with a {@link NoAnswerError} when no attempt got an answer, or with a
   * {@link LoadError} when aborted.
   */
  async post(
    url: string,
    body: string,
    contentType: string,
    policy: Partial<RequestPolicy> = {},
  ): Promise<Refusal | undefined> {
    return (await this.request(url, body, contentType, policy)).refusal;
  }

  /** Like {@link post}, with the body of a successful answer. */
  async request(
    url: string,
    body: string,
    contentType: string,
    policy: Partial<RequestPolicy> = {},
  ): Promise<{ refusal?: Refusal; body?: string }> {
    const p: RequestPolicy = { ...this.defaults, ...policy };
    let timedOut = false;
    for (let attempt = 1; ; attempt++) {
      let outcome: { refusal?: Refusal; body?: string } | { error: unknown; timeout: boolean };
      try {
        outcome = await this.attempt(url, body, contentType, p);
      } catch (error) {
        if (p.abort?.aborted && error !== TIMED_OUT) throw new LoadError(`Request to ${url} aborted`);
        outcome = { error, timeout: error === TIMED_OUT };
        timedOut ||= error === TIMED_OUT;
      }
      const again =
        'error' in outcome
          ? p.idempotent || (!outcome.timeout && neverConnected(outcome.error))
          : outcome.refusal !== undefined && isTransient(outcome.refusal.status, outcome.refusal.body);
      if (again && attempt < p.attempts && !p.stop?.aborted) {
        const delay = retryDelay(attempt + 1, p.retryDelayMs);
        const failed =
          'error' in outcome
            ? outcome.timeout
              ? `no answer within ${seconds(p.timeoutMs)}`
              : describeFetchError(outcome.error)
            : `HTTP ${outcome.refusal!.status} ${outcome.refusal!.statusText}`;
        p.onRetry?.(`${url}: ${failed}; attempt ${attempt + 1} of ${p.attempts} in ${seconds(delay)}`);
        await sleep(delay, undefined, { signal: p.stop }).catch(() => undefined);
        if (!p.stop?.aborted) continue;
      }
      // The last attempt, or the load is stopping.
      if (!('error' in outcome)) {
        if (outcome.refusal) outcome.refusal.attempts = attempt;
        return outcome;
      }
      const tries = attempt > 1 ? ` (${attempt} attempts)` : '';
      throw outcome.timeout
        ? new NoAnswerError(`${url} did not answer within ${seconds(p.timeoutMs)}${tries}`, { timedOut: true })
        : new NoAnswerError(`Could not reach ${url}${tries}: ${describeFetchError(outcome.error)}`, { timedOut });
    }
  }

  /** One attempt, the 401 challenge round trip included; rejects with TIMED_OUT when over the time limit. */
  private async attempt(
    url: string,
    body: string,
    contentType: string,
    p: RequestPolicy,
  ): Promise<{ refusal?: Refusal; body?: string }> {
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(TIMED_OUT), p.timeoutMs);
    const signal = p.abort ? AbortSignal.any([deadline.signal, p.abort]) : deadline.signal;
    try {
      const headers = { 'content-type': contentType, accept: p.accept ?? '*/*' };
      let response = await this.send(url, body, headers, signal);
      if (response.status === 401 && this.credentials) {
        const challenge = parseDigestChallenge(response.headers.get('www-authenticate'));
        // A new challenge (first request, or stale nonce) is answered once; a second 401 is a real refusal.
        if (challenge) this.digest = new DigestAuth(challenge, this.credentials.user, this.credentials.password);
        else if (/^\s*Basic\b/i.test(response.headers.get('www-authenticate') ?? '')) this.basic = true;
        if (challenge || this.basic) {
          await response.body?.cancel();
          response = await this.send(url, body, headers, signal);
        }
      }
      const text = await response.text();
      if (response.ok) return { body: text };
      return { refusal: { status: response.status, statusText: response.statusText, body: text, attempts: 1 } };
    } catch (error) {
      throw deadline.signal.aborted ? TIMED_OUT : error;
    } finally {
      clearTimeout(timer);
    }
  }

  private send(url: string, body: string, base: Record<string, string>, signal: AbortSignal): Promise<Response> {
    const headers: Record<string, string> = { ...base };
    const auth = this.authorization(url);
    if (auth) headers.authorization = auth;
    return retryStaleSocket(() => fetch(url, { method: 'POST', headers, body, signal }), { signal });
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
