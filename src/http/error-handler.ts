import type { Logger } from 'pino';
import { JsonApiError } from '../errors/json-api-error.js';
import { errorDocument } from '../shape/documents.js';
import { StoreError, type StoreErrorKind } from '../store/store.js';
import type { ErrorHandler } from './handler.js';
import { ClientGone } from './request-signal.js';
import { routeLabel } from './route-label.js';
import { send } from './send.js';

/** What each store failure becomes: its status, title, and what the client can do about it. */
const STORE_FAILURE: Readonly<Record<StoreErrorKind, { status: number; title: string; detail: string }>> = {
  unavailable: {
    status: 502,
    title: 'Triplestore unavailable',
    detail: 'The triplestore behind this API could not be reached; try again later.',
  },
  timeout: {
    status: 504,
    title: 'Triplestore timeout',
    detail: 'The triplestore behind this API did not answer in time; ask for less or try again later.',
  },
  query: {
    status: 502,
    title: 'Triplestore error',
    detail: 'The triplestore behind this API failed on this request; the same request will fail again.',
  },
  truncated: {
    status: 502,
    title: 'Triplestore truncated the result',
    detail: 'The triplestore cut its answer short; ask for a smaller page.',
  },
  overloaded: {
    status: 503,
    title: 'Server busy',
    detail: 'Too many requests are waiting for the triplestore; try again shortly.',
  },
  unexpected: {
    status: 502,
    title: 'Unexpected answer from the triplestore',
    detail: 'The triplestore answered in a form this API does not understand.',
  },
};

/** Logs name the URL's shape only, not the dataset: no set of dataset names is needed. */
const NO_DATASETS: ReadonlySet<string> = new Set();

/** Maps any error to a JSON:API error response; what it does not know becomes an opaque 500. */
export function toJsonApiError(error: unknown): JsonApiError {
  if (error instanceof JsonApiError) return error;
  if (error instanceof StoreError) {
    const { status, title } = STORE_FAILURE[error.kind];
    // The limit a store cut its answer at tells the client (and a log) how much less to ask for.
    const detail = Number.isSafeInteger(error.limit)
      ? `The triplestore cut its answer at its limit of ${error.limit} rows; ask for a smaller page.`
      : STORE_FAILURE[error.kind].detail;
    // Busy is the one failure that passes by itself: say when to come back.
    return new JsonApiError(status, title, detail, {
      cause: error,
      ...(error.kind === 'overloaded' && { headers: { 'Retry-After': '1' } }),
    });
  }
  return new JsonApiError(500, 'Internal Server Error', 'The server failed to answer; the failure has been logged.', {
    cause: error,
  });
}

/**
 * The one place where errors become responses; none leaks a stack trace. Each is logged once:
 * client errors at info without a stack, store failures at error with the store's message, and
 * the URL's shape rather than the client's input; anything else (a bug) at error with its stack.
 * A request whose client went away gets no answer.
 */
export function errorHandler(logger: Logger): ErrorHandler {
  return (error, req, res, _next) => {
    const route = routeLabel(req, NO_DATASETS, '').route;
    if (error instanceof ClientGone) {
      logger.info({ method: req.method, route }, 'client went away; its store work was stopped');
      return;
    }
    const jsonApiError = toJsonApiError(error);
    const status = jsonApiError.status;
    const cause = jsonApiError.cause;
    if (cause instanceof StoreError) {
      logger.error(
        { method: req.method, route, status, store: { kind: cause.kind, message: cause.message } },
        'store failed',
      );
    } else if (status === 503 || status === 504) {
      logger.warn({ method: req.method, route, status, detail: jsonApiError.errors[0]?.detail }, 'request stopped');
    } else if (status >= 500) {
      logger.error({ method: req.method, route, status, err: cause ?? error }, 'request failed');
    } else {
      logger.info({ method: req.method, route, status, detail: jsonApiError.errors[0]?.detail }, 'request rejected');
    }
    send(res, status, errorDocument(jsonApiError.errors), jsonApiError.headers);
  };
}
