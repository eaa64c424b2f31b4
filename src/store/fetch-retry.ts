/*
 * What the two HTTP clients (the store's queries and the loader's writes) share about fetch: a
 * keep-alive socket the server already closed fails before any response, so the request never
 * reached the server and one retry is safe; and `fetch failed` says nothing, so messages carry
 * the causes.
 */

/** Failures of a reused keep-alive socket that the server had already closed (Virtuoso drops idle ones after 10 s). */
const STALE_SOCKET_CODES: ReadonlySet<string> = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

/**
 * Runs `attempt`, and once more when it failed on a stale keep-alive socket (unless `signal` has
 * aborted meanwhile). Any other failure, or the second one, rejects as it came.
 *
 * @example const response = await retryStaleSocket(() => fetch(url, { signal }), { signal, onRetry: (e) => log.debug(e) })
 */
export async function retryStaleSocket<T>(
  attempt: () => Promise<T>,
  options: { signal?: AbortSignal; onRetry?: (error: unknown) => void } = {},
): Promise<T> {
  try {
    return await attempt();
  } catch (error) {
    if (options.signal?.aborted || !hasCode(error, STALE_SOCKET_CODES)) throw error;
    options.onRetry?.(error);
    return attempt();
  }
}

/** Whether an error or any error in its `cause` chain (or an AggregateError's members) has one of `codes`. */
function hasCode(error: unknown, codes: ReadonlySet<string>): boolean {
  for (
    let e = error, depth = 0;
    e !== null && typeof e === 'object' && depth < 8;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && codes.has(code)) return true;
    if (e instanceof AggregateError && e.errors.some((inner) => hasCode(inner, codes))) return true;
  }
  return false;
}

/**
 * A fetch failure's message with the messages (and codes) of its causes appended:
 * `fetch failed: connect ECONNREFUSED 127.0.0.1:1`.
 */
export function describeFetchError(error: unknown): string {
  const parts: string[] = [];
  for (
    let e = error, depth = 0;
    e !== undefined && e !== null && depth < 8;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const code = (e as { code?: unknown }).code;
    const message = e instanceof Error ? e.message : String(e);
    parts.push(typeof code === 'string' && !message.includes(code) ? `${message} (${code})` : message);
  }
  return parts.filter((part) => part !== '').join(': ');
}
