/**
 * How a request ends before its answer: its deadline passes, the server stops, or the client
 * leaves; the signal that tells the store work to stop, and the error each end becomes.
 */
import { JsonApiError } from '../errors/json-api-error.js';
import { type DeadlineSignal, deadlineSignal } from '../store/deadline-signal.js';
import type { Response } from './handler.js';

/**
 * The client closed the connection before its answer: nothing can be sent, and its store work
 * has been stopped. The error middleware logs it at info and sends nothing.
 */
export class ClientGone extends Error {
  override name = 'ClientGone';
}

/**
 * The signal of one request: it aborts when its deadline passes, when the server stops (the
 * shutdown signal's reason), or when the response's connection closes before the response was
 * sent in full ({@link ClientGone}).
 */
export function requestSignal(res: Response, timeoutMs: number, shutdown: AbortSignal | undefined): DeadlineSignal {
  const deadline = deadlineSignal(timeoutMs, shutdown);
  res.once('close', () => {
    if (!res.writableFinished) deadline.abort(new ClientGone('the client closed the connection'));
  });
  return deadline;
}

/** The 504 of a request that outlasted its deadline. */
export function requestTimeout(timeoutMs: number, cause: unknown): JsonApiError {
  return new JsonApiError(
    504,
    'Request timeout',
    `The request took longer than its limit of ${timeoutMs} ms; ask for less (a smaller page, fewer includes) or try again later.`,
    { cause },
  );
}

/** The 503 of a request still running when the server stopped: the client may try again at once. */
export function serverStopping(cause: unknown): JsonApiError {
  return new JsonApiError(503, 'Server stopping', 'The server is shutting down; try again.', {
    cause,
    headers: { 'Retry-After': '1' },
  });
}
