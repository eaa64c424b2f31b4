import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { WindowCacheStats } from '../cache/list-windows.js';
import type { WindowCache } from '../cache/window-cache.js';
import { DeltaMetrics } from '../live/delta-metrics.js';
import { decorateStore } from '../store/decorate-store.js';
import type { EngineFindings } from '../store/probes/engine-check.js';
import { type Store, StoreError } from '../store/store.js';
import type { Handler } from './handler.js';
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
 * One server's Prometheus metrics, in a registry of its own (tests create many apps in one process;
 * the global registry would mix them). Requests are counted by the URL's shape, never its raw path.
 * One instance may outlive an app: the CLI keeps one across the apps a `--watch` reload builds
 * (`AppOptions.sharedMetrics`), so that counters keep counting and process metrics are collected once.
 *
 * @example
 * const metrics = new Metrics({ datasets: ['sample'], defaultDataset: 'sample' });
 * app.use(metrics.observe());
 * app.get('/metrics', metrics.expose());
 */
export class Metrics {
  readonly registry = new Registry();
  /** Live data's figures (`delta-listener.ts`, `live-data.ts`). */
  readonly deltas = new DeltaMetrics(this.registry);
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

  /** The window cache whose figures are read at each scrape (`watchWindowCache`). */
  private windowCache: WindowCache | undefined;
  /** Lookups of the window caches it replaced (a reload's old app's), so that the counters only grow. */
  private readonly retiredLookups = {
    hits: new Map<string, number>(),
    misses: new Map<string, number>(),
    patched: new Map<string, number>(),
  };
  private readonly windowEntries: Gauge = new Gauge({
    name: 'window_cache_entries',
    help: 'Whole ordered lists kept in the window cache',
    registers: [this.registry],
    collect: (): void => this.windowEntries.set(this.windowTotal('entries')),
  });
  private readonly windowBytes: Gauge = new Gauge({
    name: 'window_cache_bytes',
    help: 'Memory the window cache holds, as estimated for its bound',
    registers: [this.registry],
    collect: (): void => this.windowBytes.set(this.windowTotal('bytes')),
  });

  /** Engine findings read at each scrape (`watchEngines`). */
  private engines: EngineFindings = new Map();
  private readonly engineChecks: Gauge<'dataset' | 'check' | 'severity'> = new Gauge({
    name: 'engine_check',
    help: 'The start-up engine check, by dataset and question: 1 with the severity of what was found (ok, limit: the store holds less than it was given, warning: a promise does not hold)',
    labelNames: ['dataset', 'check', 'severity'] as const,
    registers: [this.registry],
    collect: (): void => {
      this.engineChecks.reset();
      for (const [dataset, found] of this.engines)
        for (const f of found) this.engineChecks.set({ dataset, check: f.check, severity: f.severity }, 1);
    },
  });

  constructor(private readonly options: MetricsOptions) {
    this.datasets = new Set(options.datasets);
    if (options.processMetrics) collectDefaultMetrics({ register: this.registry });
    // Copies of the window cache's own counts, read at each scrape (never incremented here).
    for (const [kind, name, help] of WINDOW_COUNTS) this.windowCount(kind, name, help);
  }

  /** Middleware that counts and times every response once it has been sent. */
  observe(): Handler {
    return (req, res, next) => {
      const stop = this.requestSeconds.startTimer();
      res.once('finish', () => {
        const { dataset, route } = routeLabel(req, this.datasets, this.options.defaultDataset);
        const labels = { dataset, route, method: req.method };
        stop(labels);
        this.requests.inc({ ...labels, status: String(res.statusCode) });
      });
      next();
    };
  }

  /** The `/metrics` handler: Prometheus text format, never cached. */
  expose(): Handler {
    return async (_req, res) => {
      const text = await this.registry.metrics();
      res.setHeader('Content-Type', this.registry.contentType);
      res.setHeader('Cache-Control', 'no-store');
      res.end(text);
    };
  }

  /** Wraps a dataset's store so that each query is counted and timed; everything else passes through. */
  instrument(dataset: string, store: Store): Store {
    return decorateStore(store, {
      select: async (query, options, next) => {
        const stop = this.querySeconds.startTimer({ dataset });
        let outcome = 'ok';
        try {
          return await next(query, options);
        } catch (error) {
          outcome = error instanceof StoreError ? error.kind : 'error';
          throw error;
        } finally {
          stop();
          this.queries.inc({ dataset, outcome });
        }
      },
    });
  }

  /**
   * Reports a window cache in `/metrics`: hits, misses and patches by dataset, entries and bytes, read
   * from the cache at each scrape. A later call replaces it (a reload's new app): the hits and
   * misses it counted stay in the counters, its entries leave the gauges.
   */
  watchWindowCache(cache: WindowCache): void {
    const replaced = this.windowCache?.stats();
    for (const [kind] of WINDOW_COUNTS)
      for (const [dataset, n] of replaced?.[kind] ?? [])
        this.retiredLookups[kind].set(dataset, (this.retiredLookups[kind].get(dataset) ?? 0) + n);
    this.windowCache = cache;
  }

  /** Reports the engine checks' findings in `/metrics` (`engine_check`), read at each scrape. */
  watchEngines(engines: EngineFindings): void {
    this.engines = engines;
  }

  /** Registers a counter by dataset of one of the window cache's counts, copied in at each scrape. */
  private windowCount(kind: WindowCount, name: string, help: string): void {
    const counter: Counter<'dataset'> = new Counter({
      name,
      help,
      labelNames: ['dataset'] as const,
      registers: [this.registry],
      collect: (): void => this.readWindowLookups(counter, kind),
    });
  }

  /** The cache keeps its own counts; each scrape copies them into the counter. */
  private readWindowLookups(counter: Counter<'dataset'>, kind: WindowCount): void {
    counter.reset();
    for (const counts of [this.retiredLookups[kind], this.windowCache?.stats()[kind] ?? []])
      for (const [dataset, n] of counts) counter.inc({ dataset: this.datasets.has(dataset) ? dataset : '' }, n);
  }

  private windowTotal(figure: keyof Pick<WindowCacheStats, 'entries' | 'bytes'>): number {
    return this.windowCache?.stats()[figure] ?? 0;
  }

  /** Counts one lookup in the response cache. */
  readonly cacheLookup = (dataset: string, outcome: 'hit' | 'miss'): void => {
    (outcome === 'hit' ? this.cacheHits : this.cacheMisses).inc({ dataset });
  };
}

/** The window cache's counts by dataset that `/metrics` reports. */
type WindowCount = 'hits' | 'misses' | 'patched';

/** Each count's counter: its name and help. */
const WINDOW_COUNTS: readonly (readonly [WindowCount, string, string])[] = [
  ['hits', 'window_cache_hits_total', 'List pages cut from a whole list kept in the window cache, by dataset'],
  [
    'misses',
    'window_cache_misses_total',
    'List pages whose whole list was not in the window cache (read from the store, or too large to keep), by dataset',
  ],
  [
    'patched',
    'window_cache_patched_total',
    'Stale whole lists the window cache patched (their changed members read again and moved) rather than read whole, by dataset',
  ],
];
