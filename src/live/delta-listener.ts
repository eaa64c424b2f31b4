import express, { type ErrorRequestHandler, type Express } from 'express';
import type { Logger } from 'pino';
import { JsonApiError } from '../errors/json-api-error.js';
import { bearerOnly } from '../http/bearer.js';
import type { Request } from '../http/handler.js';
import { send } from '../http/send.js';
import { errorDocument } from '../shape/documents.js';
import { parseDeltaBody } from './delta-body.js';
import type { DeltaMetrics, DeltaOutcome } from './delta-metrics.js';
import type { LiveData } from './live-data.js';

/** Where delta-notifier posts, as for mu-cl-resources. */
export const DELTA_PATH = '/.mu/delta';

/** The largest body taken by default: a bulk import's message of tens of thousands of triples. */
export const DEFAULT_DELTA_MAX_BYTES = 16 * 2 ** 20;

export interface DeltaListenerOptions {
  /** When set, only `Authorization: Bearer <token>` is heard (compared in constant time). */
  readonly token?: string;
  /** Bodies beyond this many bytes get 413 (and drop every cache: a change was announced). */
  readonly maxBytes?: number;
}

/**
 * The app of the second listener, the one delta-notifier calls (never the public one): `POST
 * /.mu/delta` with a `resourceFormat: "v0.0.1"` body. It answers 204 once every cache entry the
 * changes can reach is dropped (`LiveData.apply`), so the notifier's 2xx means no request from
 * then on sees the old data. A body it cannot read (not JSON, not a delta, too big) still says
 * that something changed: every dataset's caches are dropped whole before the 400 or 413.
 *
 * @example deltaListener(live, metrics, logger, { token: process.env.DELTA_TOKEN }).listen(8081, '127.0.0.1')
 */
export function deltaListener(
  live: LiveData,
  metrics: DeltaMetrics,
  logger: Logger,
  options: DeltaListenerOptions = {},
): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  const arrival = new WeakMap<object, number>();
  const answer = (req: Request, outcome: DeltaOutcome) =>
    metrics.received(outcome, (performance.now() - (arrival.get(req) ?? performance.now())) / 1000);
  app.use((req, _res, next) => {
    arrival.set(req, performance.now());
    next();
  });
  app.post(
    DELTA_PATH,
    bearerOnly(options.token, DELTA_PATH, (req) => answer(req, 'unauthorized')),
    express.text({ type: () => true, limit: options.maxBytes ?? DEFAULT_DELTA_MAX_BYTES }),
    (req, res) => {
      const parsed = parseDeltaBody(typeof req.body === 'string' ? req.body : '');
      if ('problem' in parsed) throw unreadable(400, `Not a delta message (resourceFormat v0.0.1): ${parsed.problem}`);
      const effects = live.apply(parsed.changeSets);
      answer(req, 'applied');
      logger.debug({ effects }, 'delta applied');
      res.status(204).end();
    },
  );
  app.all(DELTA_PATH, () => {
    throw new JsonApiError(405, 'Method Not Allowed', `${DELTA_PATH} takes POST only.`, { headers: { Allow: 'POST' } });
  });
  app.use(() => {
    throw new JsonApiError(404, 'Not Found', `This listener serves ${DELTA_PATH} only.`);
  });
  app.use(deltaErrors(live, logger, answer));
  return app;
}

/** A body the listener could not read: the caches go whole, since a change was announced. */
class Unreadable extends JsonApiError {}
const unreadable = (status: 400 | 413, detail: string) =>
  new Unreadable(status, status === 400 ? 'Bad Request' : 'Content Too Large', detail);

/** Body-parser's failures and unreadable deltas drop every cache; every error is a JSON:API document. */
function deltaErrors(
  live: LiveData,
  logger: Logger,
  answer: (req: Request, outcome: DeltaOutcome) => void,
): ErrorRequestHandler {
  return (error, req, res, _next) => {
    let failure = error instanceof JsonApiError ? error : undefined;
    const parserType = (error as { type?: unknown }).type;
    if (!failure && typeof parserType === 'string')
      failure =
        parserType === 'entity.too.large'
          ? unreadable(413, `The body is larger than ${(error as { limit?: number }).limit} bytes.`)
          : unreadable(400, `The body could not be read (${parserType}).`);
    if (failure instanceof Unreadable) {
      live.dropWhole('invalid-body');
      answer(req, failure.status === 413 ? 'oversized' : 'invalid');
      logger.warn(
        { status: failure.status, detail: failure.errors[0]?.detail },
        'delta unreadable: every cache dropped',
      );
    }
    failure ??= new JsonApiError(
      500,
      'Internal Server Error',
      'The delta could not be applied; the failure has been logged.',
    );
    if (failure.status >= 500) {
      // Whatever went wrong, nothing stale may stay.
      live.dropWhole('invalid-body');
      logger.error({ err: error }, 'delta failed');
    }
    send(res, failure.status, errorDocument(failure.errors), failure.headers);
  };
}
