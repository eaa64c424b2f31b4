import { loadavg } from 'node:os';
import { loadMapping } from '../src/mapping/load-mapping.js';
import type { BenchDataset } from './datasets.js';
import type { BenchOptions, Loader, StoreKind } from './options.js';
import { MAPPING } from './run-store.js';
import { type ServerProcess, startServer } from './server-process.js';
import {
  type CorpusResult,
  EMBEDDED_FIRST_READ_LIMIT_MS,
  ENDPOINT_LIMIT_MS,
  measureOrder,
  sortCorpusOrders,
} from './sort-corpus.js';
import { type BenchStore, embeddedServerConfig, virtuosoStore } from './stores.js';

/** The sort corpus on one store at one size, each order with the load average when it ran. */
export interface SortCorpusRun {
  readonly date: string;
  readonly store: StoreKind;
  readonly size: string;
  readonly triples: number;
  readonly commit?: string;
  /** How the data went into Virtuoso (absent: the embedded store, or an older run, bulk-loaded). */
  readonly loader?: Loader;
  readonly orders: readonly (CorpusResult & { readonly loadAverage: number })[];
}

const log = (line: string) => console.error(`[sort corpus ${(performance.now() / 1000).toFixed(1)}s] ${line}`);

/**
 * Runs the sort corpus (`sort-corpus.ts`) against a fresh server on `kind` with the server's
 * default settings: Virtuoso without the window cache and with the default 10 s deadline (the
 * bench's other shapes raise it), the embedded store with its window cache, so that an order's
 * first read reads its whole list.
 *
 * @example await runSortCorpus('embedded', await benchDataset('10k'), options, workDir)
 */
export async function runSortCorpus(
  kind: StoreKind,
  dataset: BenchDataset,
  options: BenchOptions,
  workDir: string,
  virtuosoTools?: { binary: string; isql: string },
): Promise<SortCorpusRun> {
  const mapping = await loadMapping(MAPPING);
  const orders = sortCorpusOrders(mapping, options.corpusTypes);
  let store: BenchStore | undefined;
  let server: ServerProcess | undefined;
  try {
    if (kind === 'virtuoso')
      store = await virtuosoStore(dataset, virtuosoTools!, {
        loader: options.loader,
        muUuids: false,
        ...(options.windowCacheTtlSeconds !== undefined && { windowCacheTtlSeconds: options.windowCacheTtlSeconds }),
      });
    const { timeoutMs: _raised, ...config } = (store?.serverConfig ?? {}) as { timeoutMs?: number };
    const dataset_ = store ? config : embeddedServerConfig(dataset, options.windowCacheTtlSeconds);
    server = await startServer({ mapping: MAPPING, ...dataset_ }, workDir);
    log(`${dataset.size} ${kind}: ${orders.length} orders on ${server.url}`);
    const results: SortCorpusRun['orders'][number][] = [];
    for (const order of orders) {
      const loadAverage = loadavg()[0]!;
      const result = await measureOrder(server.url, order, kind, options.smoke ? 1 : 3);
      log(`${order.type}?sort=${order.sort}: ${result.pages.map(pageText).join(', ')}${result.cliff ? ' CLIFF' : ''}`);
      results.push({ ...result, loadAverage });
    }
    return {
      date: new Date().toISOString(),
      store: kind,
      size: dataset.size,
      triples: dataset.triples,
      ...(store?.loader !== undefined && { loader: store.loader }),
      orders: results,
    };
  } finally {
    await server?.stop();
    await store?.stop();
  }
}

const ms = (value: number | undefined) => (value === undefined ? '–' : value.toFixed(value < 10 ? 1 : 0));

function pageText(page: CorpusResult['pages'][number]): string {
  const first = page.first.status === 200 ? `${ms(page.first.ms)} ms` : String(page.first.status);
  return `page ${page.page} first ${first}, median ${ms(page.medianMs)} ms`;
}

/**
 * The corpus as a markdown table: per order, each page's first read and the median of the later
 * reads (ms), the load average when it ran, and the cliff when it misses its target.
 *
 * @example console.log(renderSortCorpus(run))
 */
export function renderSortCorpus(run: SortCorpusRun): string {
  const target =
    run.store === 'virtuoso'
      ? `no page over ${ENDPOINT_LIMIT_MS / 1000} s (median)`
      : `no 504, each first read ≤ ${EMBEDDED_FIRST_READ_LIMIT_MS / 1000} s`;
  const cliffs = run.orders.filter((o) => o.cliff);
  const lines = [
    `## Sort corpus: ${run.store}, ${run.size} (${run.triples} triples${run.store === 'virtuoso' ? `, loaded by ${run.loader ?? 'bulk'}` : ''}), ${run.date}`,
    '',
    `Target: ${target}. ${cliffs.length} of ${run.orders.length} orders miss it.`,
    '',
    '| list | sort | first page: first / median ms | deep page: first / median ms | load | cliff |',
    '|---|---|---|---|---|---|',
    ...run.orders.map((o) => {
      const [first, deep] = o.pages;
      const cell = (p?: CorpusResult['pages'][number]) =>
        p ? `${p.first.status === 200 ? ms(p.first.ms) : p.first.status} / ${ms(p.medianMs)}` : '–';
      const deepCell = deep ? `${cell(deep)} (page ${deep.page})` : '–';
      return `| ${o.type} | \`${o.sort}\` | ${cell(first)} | ${deepCell} | ${o.loadAverage.toFixed(1)} | ${o.cliff ?? ''} |`;
    }),
  ];
  return lines.join('\n');
}
