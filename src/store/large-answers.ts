/*
 * Why some queries go on a connection of their own. Virtuoso's HTTP server writes an answer's
 * headers and its body in two sends, without TCP_NODELAY. Over loopback, whose segments hold
 * 64 KiB, a body of about 32 to 64 KiB leaves as one small segment that Nagle's algorithm holds
 * until the headers' segment is acknowledged; on a keep-alive connection the client's kernel
 * delays that ACK (Linux: 40 ms), expecting to send it with the next request. Measured on the
 * bench's Virtuoso at 100k triples: the include query of a page of 20 (112 rows, 52 KB) took
 * 45 ms on a keep-alive connection, 5.4 ms on one that closes after the answer, and 5.0 ms with
 * the route's `quickack` set; a one-row query pays about 0.5 ms more on a new connection. Over an
 * ordinary network (1,448-byte segments) such a body leaves in full-size segments, which the
 * receiver acknowledges without delay: the rule is for loopback, where the wait was measured.
 */

/** Answers at least this long (characters of the SPARQL JSON) are taken as large. */
export const LARGE_ANSWER_CHARS = 16 * 1024;

/** Whether `url`'s host is this machine's loopback (`localhost`, 127.0.0.0/8, `::1`). */
export function isLoopback(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * Which queries to send on a connection that closes after the answer: over loopback, those whose
 * kind (the query's `label`: `include-1`, `fetch`, `list`, …) answered with a large body last
 * time, so the next one of the kind does not wait 40 ms for an acknowledgement. Elsewhere, none.
 * A kind that answers small again goes back to the kept connections.
 *
 * @example
 * const rule = new LargeAnswers({ loopback: isLoopback(new URL('http://127.0.0.1:8890/sparql')) });
 * rule.answered('include-1', 52_847);
 * rule.ownConnection('include-1'); // true
 */
export class LargeAnswers {
  /** Kinds whose last answer was large. Labels are a handful of fixed names: no bound needed. */
  private readonly large = new Set<string>();

  private readonly enabled: boolean;

  /** `loopback`: whether the endpoint is on this machine's loopback, the only place the rule applies. */
  constructor({ loopback }: { loopback: boolean }) {
    this.enabled = loopback;
  }

  /** Whether a query of this kind should go on a connection of its own. */
  ownConnection(label: string | undefined): boolean {
    return this.enabled && label !== undefined && this.large.has(label);
  }

  /** Records the length of the answer a query of this kind got. */
  answered(label: string | undefined, chars: number): void {
    if (!this.enabled || label === undefined) return;
    if (chars >= LARGE_ANSWER_CHARS) this.large.add(label);
    else this.large.delete(label);
  }
}
