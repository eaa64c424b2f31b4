import type { Logger } from 'pino';
import { type Dataset, type DatasetOptions, DEFAULT_DATASET_OPTIONS } from '../dataset.js';
import { withLinkage } from '../mapping/linkage.js';
import { loadMapping } from '../mapping/load-mapping.js';
import type { Mapping } from '../mapping/model.js';
import { ScaffoldError } from '../scaffold/scaffold.js';
import { scaffoldForServe } from '../scaffold/serve-scaffold.js';
import { createHttpStore } from '../store/http-store.js';
import { createOxigraphStore, GraphNotFoundError } from '../store/oxigraph-store.js';
import type { Store } from '../store/store.js';
import { ConfigError, type DatasetConfig, type ServerConfig } from './config.js';

/**
 * Compiles every dataset's mapping and opens its store. Mappings are all checked before any store
 * starts, so a bad mapping fails fast (MappingError) without loading data first. A `graph` that
 * none of a dataset's files holds is a ConfigError naming the dataset and the graph. A dataset
 * without a mapping serves one scaffolded from its store (`scaffold/serve-scaffold.ts`).
 */
export async function openDatasets(config: ServerConfig, logger: Logger): Promise<Dataset[]> {
  const entries = Object.entries(config.datasets);
  const mappings = await Promise.all(
    entries.map(([, d]) => (d.mapping === undefined ? undefined : mappingOf(d, d.mapping))),
  );
  for (const [index, [name]] of entries.entries())
    for (const warning of mappings[index]?.warnings ?? []) logger.warn({ dataset: name }, warning);
  const datasets: Dataset[] = [];
  try {
    for (const [index, [name, d]] of entries.entries()) {
      const store = await openStore(d, logger.child({ dataset: name })).catch((error: unknown) => {
        if (error instanceof GraphNotFoundError) throw new ConfigError(`dataset ${name}: ${error.message}`);
        throw error;
      });
      // No mapping: one scaffolded from the data (and written to a file the log names).
      const mapping =
        mappings[index] ??
        withLinkage(
          await scaffoldForServe(store, { dataset: name, ...d }, logger.child({ dataset: name })).catch(
            async (error: unknown) => {
              await store.close();
              throw error instanceof ScaffoldError ? new ConfigError(`dataset ${name}: ${error.message}`) : error;
            },
          ),
          d.linkage,
        );
      // The default dataset's links are the spec's type-rooted paths; the others keep their
      // /api/<name> prefix so that every link can be fetched as it stands.
      // With a public base, links are absolute: it comes before a path (an absolute link base stays).
      const path = d.linkBase ?? (name === config.default ? '' : `/api/${name}`);
      const publicBase = /^https?:/i.test(path) ? undefined : config.publicBase;
      datasets.push({
        name,
        mapping,
        store,
        linkBase: (publicBase ?? '') + path,
        ...(publicBase !== undefined && { publicBase }),
        ...(config.trustProxy && { trustProxy: true }),
        ...(d.graph && { graph: d.graph }),
        options: datasetOptions(d, { fed: config.deltas !== undefined }),
      });
    }
  } catch (error) {
    await Promise.all(datasets.map((d) => d.store.close()));
    throw error;
  }
  return datasets;
}

/**
 * A dataset's options: what its config sets, the defaults otherwise. The window cache keeps an
 * embedded store's lists without expiry (its data never changes while the server runs), and an
 * endpoint's none (its data may change) unless `windowCacheTtlSeconds` says how long. When the
 * server is `fed` changes (a delta listener), both caches keep everything without expiry unless
 * the dataset's TTLs say otherwise: each change drops what it makes stale.
 *
 * @example datasetOptions({ mapping: 'm.yaml', data: ['d.ttl'] }).windowCacheTtlSeconds // Infinity
 */
/** A dataset's mapping file, compiled, with the dataset's `linkage` setting applied (`mapping/linkage.ts`). */
export async function mappingOf(d: DatasetConfig, file: string): Promise<Mapping> {
  return withLinkage(await loadMapping(file), d.linkage);
}

export function datasetOptions(d: DatasetConfig, { fed = false }: { fed?: boolean } = {}): DatasetOptions {
  const { page, count, includeDepth, limits, cacheControl, cacheTtlSeconds, timeoutMs, filterSyntax } =
    DEFAULT_DATASET_OPTIONS;
  return {
    page: {
      defaultSize: d.page?.defaultSize ?? page.defaultSize,
      maxSize: d.page?.maxSize ?? Math.max(page.maxSize, d.page?.defaultSize ?? 0),
    },
    count: d.count ?? count,
    includeDepth: d.includeDepth ?? includeDepth,
    cacheControl: d.cacheControl ?? cacheControl,
    limits: { ...limits, ...d.limits },
    cacheTtlSeconds: d.cacheTtlSeconds ?? (fed ? Number.POSITIVE_INFINITY : cacheTtlSeconds),
    windowCacheTtlSeconds: d.windowCacheTtlSeconds ?? (d.endpoint && !fed ? 0 : Number.POSITIVE_INFINITY),
    timeoutMs: d.timeoutMs ?? timeoutMs,
    filterSyntax: d.filterSyntax ?? filterSyntax,
    explain: d.explain ?? DEFAULT_DATASET_OPTIONS.explain,
  };
}

/**
 * The dataset's store, with its admission lanes and limits: `queries` per lane (defaults: HTTP
 * `HTTP_QUERIES`, light 8 / heavy 4 / queue 64; embedded `EMBEDDED_QUERIES`, light 1 / heavy 1 /
 * queue 64 light and 16 heavy, on `light + heavy + 1` workers unless `workers` says otherwise), and `timeoutMs` (the
 * request deadline, 10 000 by default) as the store's own limit on each query.
 */
export function openStore(d: DatasetConfig, logger: Logger): Promise<Store> {
  const timeoutMs = d.timeoutMs ?? DEFAULT_DATASET_OPTIONS.timeoutMs;
  const queries = d.queries ?? {};
  if (d.endpoint) {
    return Promise.resolve(
      createHttpStore({
        endpointUrl: d.endpoint,
        ...(d.graph && { graph: d.graph }),
        ...(d.user && { user: d.user }),
        ...(d.password && { password: d.password }),
        timeoutMs,
        queries,
        logger,
      }),
    );
  }
  return createOxigraphStore({
    files: d.data ?? [],
    ...(d.graph && { graph: d.graph }),
    ...(d.workers && { workers: d.workers }),
    queries,
    timeoutMs,
    logger,
  });
}
