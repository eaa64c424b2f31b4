/** A signal with a deadline, and what its owner does with it. */
export interface DeadlineSignal {
  readonly signal: AbortSignal;
  /** Whether the deadline has passed (whatever else also aborted the signal). */
  expired(): boolean;
  /** Aborts the signal now, with `reason`. */
  abort(reason: unknown): void;
  /** Clears the deadline's timer and leaves `source`: call once the work is done. */
  dispose(): void;
}

/**
 * A signal that aborts when `timeoutMs` pass (reason: a `TimeoutError`, as `AbortSignal.timeout`
 * gives) or when `source` aborts (its reason). One controller, one timer cleared and one listener
 * removed by `dispose`: `AbortSignal.any([AbortSignal.timeout(ms), …])` costs tens of
 * microseconds and leaves a timer behind for the whole of `timeoutMs`, thousands of them at a few
 * hundred requests a second. Used per request (`http/json-api-handler.ts`) and per store query
 * (`http-store.ts`).
 *
 * @example const deadline = deadlineSignal(10_000, shutdown); try { await work(deadline.signal) } finally { deadline.dispose() }
 */
export function deadlineSignal(timeoutMs: number, source: AbortSignal | undefined): DeadlineSignal {
  const controller = new AbortController();
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
  }, timeoutMs);
  timer.unref();
  const onAbort = () => controller.abort(source?.reason);
  if (source?.aborted) onAbort();
  else source?.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    expired: () => expired,
    abort: (reason) => controller.abort(reason),
    dispose: () => {
      clearTimeout(timer);
      source?.removeEventListener('abort', onAbort);
    },
  };
}
