import { type FSWatcher, statSync, watch } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import type { Logger } from 'pino';
import type { Dataset } from '../dataset.js';
import { DEFAULT_DATASET_OPTIONS } from '../dataset.js';
import type { ServerConfig } from './config.js';
import { mappingOf } from './open-datasets.js';

export interface WatchOptions {
  readonly config: ServerConfig;
  /** The datasets served now; a reload replaces one entry. */
  readonly datasets: Dataset[];
  readonly logger: Logger;
  /** Stops watching. */
  readonly signal: AbortSignal;
  /** Serves these datasets from now on (a new app with empty caches); resolves once it serves them. */
  readonly serve: (datasets: readonly Dataset[]) => Promise<void>;
  /** Quiet time after the last change before a reload starts; 200 ms by default (editors write in steps). */
  readonly debounceMs?: number;
}

/**
 * `serve --watch`: reloads a dataset whose data file (embedded store) or mapping file changed, in
 * the background, and serves it once loaded: the store's workers load the files again beside the
 * data they serve (`Store.reload`), `serve` swaps in a new app, so requests in flight finish on the
 * old one and its data (dropped once no request can still read it: after the dataset's deadline),
 * and the new app's caches start empty. A data file that fails to
 * parse keeps the old data, a mapping that fails to load keeps the old mapping; both are logged
 * with the reason (the parser's line and column). Reloads run one at a time.
 *
 * Directories are watched rather than files, since editors often replace a file by renaming a
 * new one over it, which ends a watch on the file itself.
 *
 * @example watchFiles({ config, datasets, logger, signal, serve: (d) => swapApp(d) })
 */
export function watchFiles(options: WatchOptions): void {
  const { config, logger, signal } = options;
  const watched = new Map<string, { dataset: string; kind: 'data' | 'mapping' }[]>();
  for (const [name, d] of Object.entries(config.datasets)) {
    const files = [
      ...(d.mapping ? [{ file: d.mapping, kind: 'mapping' as const }] : []),
      ...(d.endpoint ? [] : (d.data ?? []).map((file) => ({ file, kind: 'data' as const }))),
    ];
    for (const { file, kind } of files) {
      const path = resolve(file);
      watched.set(path, [...(watched.get(path) ?? []), { dataset: name, kind }]);
    }
  }
  const pending = new Map<string, { timer: NodeJS.Timeout; kinds: Set<'data' | 'mapping'> }>();
  // What each file looked like when last read: a directory's events also come for files that did
  // not change (a neighbour's rename, an editor's swap file, an event repeated), which must not
  // reload anything.
  const seen = new Map([...watched.keys()].map((path) => [path, signature(path)]));
  let chain = Promise.resolve();
  const changed = (path: string) => {
    const now = signature(path);
    if (!watched.has(path) || now === seen.get(path)) return;
    seen.set(path, now);
    for (const { dataset, kind } of watched.get(path) ?? []) {
      const entry = pending.get(dataset) ?? { timer: undefined as unknown as NodeJS.Timeout, kinds: new Set() };
      clearTimeout(entry.timer);
      entry.kinds.add(kind);
      entry.timer = setTimeout(() => {
        pending.delete(dataset);
        chain = chain
          .then(() => reload(options, dataset, entry.kinds))
          .catch((error: unknown) => {
            logger.error({ dataset, err: error }, `reload of dataset ${dataset} failed`);
          });
      }, options.debounceMs ?? 200);
      pending.set(dataset, entry);
    }
  };
  const watchers: FSWatcher[] = [];
  for (const directory of new Set([...watched.keys()].map((path) => dirname(path)))) {
    const watcher = watch(directory, (_event, name) => {
      if (name) changed(resolve(directory, name.toString()));
    });
    watcher.on('error', (error) => logger.warn({ err: error, directory }, 'watching stopped'));
    watchers.push(watcher);
  }
  signal.addEventListener('abort', () => {
    for (const watcher of watchers) watcher.close();
    for (const { timer } of pending.values()) clearTimeout(timer);
  });
  logger.info(
    { files: [...watched.keys()].map((path) => basename(path)) },
    `watching ${watched.size} files: a change reloads its dataset`,
  );
}

async function reload(options: WatchOptions, name: string, kinds: ReadonlySet<'data' | 'mapping'>): Promise<void> {
  const { config, datasets, logger } = options;
  const index = datasets.findIndex((d) => d.name === name);
  const current = datasets[index]!;
  const d = config.datasets[name]!;
  const log = logger.child({ dataset: name });
  const started = performance.now();
  let mapping = current.mapping;
  if (kinds.has('mapping') && d.mapping) {
    try {
      mapping = await mappingOf(d, d.mapping);
    } catch (error) {
      log.error(
        `${d.mapping}: the changed mapping cannot be used; keeping the old mapping: ${(error as Error).message}`,
      );
    }
  }
  let store = current.store;
  // The embedded store loads the files again in its own workers, beside the data it serves.
  if (kinds.has('data') && current.store.reload) {
    try {
      store = await current.store.reload();
    } catch (error) {
      log.error(`the changed data cannot be loaded; keeping the old data: ${(error as Error).message}`);
    }
  }
  if (mapping === current.mapping && store === current.store) return;
  datasets[index] = { ...current, mapping, store };
  await options.serve([...datasets]);
  log.info(
    {
      ms: Math.round(performance.now() - started),
      mapping: mapping !== current.mapping,
      data: store !== current.store,
    },
    `dataset ${name} reloaded`,
  );
  if (store !== current.store) {
    // No request runs past its deadline: by then none is left on the old data.
    const deadline = d.timeoutMs ?? DEFAULT_DATASET_OPTIONS.timeoutMs;
    setTimeout(() => void current.store.close(), deadline + 1000).unref();
  }
}

/** A file's modification time and size, or `missing` (between an editor's delete and its write). */
function signature(path: string): string {
  try {
    const stat = statSync(path);
    return `${stat.mtimeMs}:${stat.size}`;
  } catch {
    return 'missing';
  }
}
