import type { RequestHandler } from 'express';
import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import { requestTarget } from '../request/request-target.js';
import { type Store, StoreError } from '../store/store.js';
import { routeLabel } from './route-label.js';

export interface MetricsOptions {
  /** Dataset names, for the `dataset` label; any other name is counted as `''`. */
  readonly datasets: readonly string[];
  /** The dataset served without the `/api/<dataset>` prefix. */
  readonly defaultDataset: string;
  /** Adds prom-client's process metrics (CPU, memory, event loop lag, GC); the CLI turns them on. */
  readonly processMetrics?: boolean;
}

/** Seconds: a cache hit takes well under a millisecond, a heavy sort on a big store several seconds. */
const HTTP_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const SPARQL_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * One app's Prometheus metrics, in a registry of its own (tests create many apps in one process;
 * the global registry would mix them). Requests are counted by the URL's shape, never its raw path.
 *
 * @example
 * const metrics = new Metrics({ datasets: ['sample'], defaultDataset: 'sample' });
 * app.use(metrics.observe());
 * app.get('/metrics', metrics.expose());
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly datasets: ReadonlySet<string>;
  private readonly requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by dataset, URL shape, method and status',
    labelNames: ['dataset', 'route', 'method', 'status'] as const,
    registers: [this.registry],
  });
  private readonly requestSeconds = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from receiving a request to the end of its response, by dataset, URL shape and method',
    labelNames: ['dataset', 'route', 'method'] as const,
    buckets: HTTP_BUCKETS,
    registers: [this.registry],
  });
  private readonly queries = new Counter({
    name: 'sparql_queries_total',
    help: 'SPARQL queries sent to the store, by dataset and outcome (ok, or the store error kind)',
    labelNames: ['dataset', 'outcome'] as const,
    registers: [this.registry],
  });
  private readonly querySeconds = new Histogram({
    name: 'sparql_query_duration_seconds',
    help: 'Time the store took to answer one SPARQL query, by dataset',
    labelNames: ['dataset'] as const,
    buckets: SPARQL_BUCKETS,
    registers: [this.registry],
  });
  private readonly cacheHits = new Counter({
    name: 'response_cache_hits_total',
    help: 'Requests answered from the in-process response cache, by dataset',
    labelNames: ['dataset'] as const,
    registers: [this.registry],
  });
  private readonly cacheMisses = new Counter({
    name: 'response_cache_misses_total',
    help: 'Requests the response cache could not answer (its dataset has a TTL), by dataset',
    labelNames: ['dataset'] as const,
    registers: [this.registry],
  });

  constructor(private readonly options: MetricsOptions) {
    this.datasets = new Set(options.datasets);
    if (options.processMetrics) collectDefaultMetrics({ register: this.registry });
  }

  /** Middleware that counts and times every response once it has been sent. */
  observe(): RequestHandler {
    return (req, res, next) => {
      const stop = this.requestSeconds.startTimer();
      res.once('finish', () => {
        const { dataset, route } = routeLabel(
          requestTarget(req.originalUrl).path,
          this.datasets,
          this.options.defaultDataset,
        );
        const labels = { dataset, route, method: req.method };
        stop(labels);
        this.requests.inc({ ...labels, status: String(res.statusCode) });
      });
      next();
    };
  }

  /** The `/metrics` handler: Prometheus text format, never cached. */
  expose(): RequestHandler {
    return async (_req, res) => {
      res
        .set('Content-Type', this.registry.contentType)
        .set('Cache-Control', 'no-store')
        .send(await this.registry.metrics());
    };
  }

  /** Wraps a dataset's store so that each query is counted and timed; everything else passes through. */
  instrument(dataset: string, store: Store): Store {
    return {
      select: async (query, options) => {
        const stop = this.querySeconds.startTimer({ dataset });
        let outcome = 'ok';
        try {
          return await store.select(query, options);
        } catch (error) {
          outcome = error instanceof StoreError ? error.kind : 'error';
          throw error;
        } finally {
          stop();
          this.queries.inc({ dataset, outcome });
        }
      },
      ping: (options) => store.ping(options),
      close: () => store.close(),
      get description() {
        return store.description;
      },
    };
  }

  /** Counts one lookup in the response cache. */
  readonly cacheLookup = (dataset: string, hit: boolean): void => {
    (hit ? this.cacheHits : this.cacheMisses).inc({ dataset });
  };
}
