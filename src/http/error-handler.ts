import type { ErrorRequestHandler } from 'express';
import type { Logger } from 'pino';
import { JsonApiError } from '../errors/json-api-error.js';
import { errorDocument } from '../shape/documents.js';
import { StoreError, type StoreErrorKind } from '../store/store.js';
import { send } from './send.js';

const STORE_STATUS = {
  unavailable: 502,
  timeout: 504,
  query: 502,
  truncated: 502,
  overloaded: 503,
  unexpected: 502,
} as const satisfies Record<StoreErrorKind, number>;
const STORE_TITLE = {
  unavailable: 'Triplestore unavailable',
  timeout: 'Triplestore timeout',
  query: 'Triplestore error',
  truncated: 'Triplestore truncated the result',
  overloaded: 'Server busy',
  unexpected: 'Unexpected answer from the triplestore',
} as const satisfies Record<StoreErrorKind, string>;

/** Maps any error to a JSON:API error response; what it does not know becomes an opaque 500. */
export function toJsonApiError(error: unknown): JsonApiError {
  if (error instanceof JsonApiError) return error;
  if (error instanceof StoreError) {
    return new JsonApiError(
      STORE_STATUS[error.kind],
      STORE_TITLE[error.kind],
      'The triplestore behind this API could not answer; try again later.',
      { cause: error },
    );
  }
  return new JsonApiError(500, 'Internal Server Error', 'The server failed to answer; the failure has been logged.', {
    cause: error,
  });
}

/** The one place where errors become responses: every one is logged, none leaks a stack trace. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const jsonApiError = toJsonApiError(error);
    const log = {
      method: req.method,
      url: req.originalUrl,
      status: jsonApiError.status,
      err: jsonApiError.cause ?? error,
    };
    if (jsonApiError.status >= 500) logger.error(log, 'request failed');
    else logger.debug(log, 'request rejected');
    send(res.set(jsonApiError.headers), jsonApiError.status, errorDocument(jsonApiError.errors));
  };
}
