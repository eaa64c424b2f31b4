/**
 * The benchmark of issue 5: `npm run bench -- [--size 10k|100k|1m|10m] [--store embedded|virtuoso] [--smoke]`,
 * and its variants: `--sort-corpus` (issue 27), `--deltas` (issue 26); `--scaling-chart FILE...`
 * runs nothing and draws p50 against size from result files (issue 27).
 * Prints a markdown report on stdout (progress goes to stderr), writes the raw JSON and a chart
 * under bench/results/. See docs/performance.md for what each figure means.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderChart } from './chart.js';
import { benchDataset } from './datasets.js';
import { renderDeltasRun } from './deltas-report.js';
import { MAX_SOCKETS } from './keep-alive-client.js';
import { machineInfo } from './machine.js';
import { parseBenchOptions, type ScalingChartCommand, SIZES, type StoreKind, USAGE } from './options.js';
import { renderRun } from './report.js';
import type { RunResult, StoreResult } from './results.js';
import { runDeltas } from './run-deltas.js';
import { renderSortCorpus, runSortCorpus } from './run-sort-corpus.js';
import { benchStore } from './run-store.js';
import { renderScalingChart } from './scaling-chart.js';
import { virtuosoTools } from './stores.js';

const RESULTS = fileURLToPath(new URL('./results/', import.meta.url));

const parsed = parseBenchOptions(process.argv.slice(2), process.env);
if (typeof parsed === 'string' || 'help' in parsed) {
  (typeof parsed === 'string' ? console.error : console.log)(
    typeof parsed === 'string' ? `${parsed}\n${USAGE}` : USAGE,
  );
  process.exit(typeof parsed === 'string' ? 2 : 0);
}
// Before anything of a run (Virtuoso's tools, a work directory): the chart only reads files.
if ('scalingChart' in parsed) process.exit(await scalingChart(parsed));
const options = parsed;
// Ctrl-C: exit through 'exit', whose handlers stop the server processes and Virtuoso this run started.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));
const started = performance.now();
const tools = virtuosoTools();
const skipped: { store: StoreKind; reason: string }[] = [];
const stores = options.stores.filter((store) => {
  if (store !== 'virtuoso' || !('missing' in tools)) return true;
  skipped.push({ store, reason: tools.missing });
  console.error(`\n!!! SKIPPED the Virtuoso part of the benchmark: ${tools.missing}\n`);
  if (options.storesExplicit) process.exitCode = 1;
  return false;
});

const workDir = await mkdtemp(join(tmpdir(), 'sparql-jsonapi-bench-'));
await mkdir(RESULTS, { recursive: true });
try {
  for (const size of options.sizes) {
    const loadAtStart = loadavg()[0]!;
    const dataset = await benchDataset(size);
    console.error(
      `[bench] ${size}: ${dataset.triples} triples (${dataset.activities} activities) in ${dataset.file}${dataset.generatedMs ? `, generated in ${dataset.generatedMs} ms` : ''}`,
    );
    if (options.sortCorpus) {
      await sortCorpus(dataset);
      continue;
    }
    if (options.deltas) {
      await deltas(dataset);
      continue;
    }
    const results: StoreResult[] = [];
    const failures = [...skipped];
    for (const store of stores) {
      try {
        results.push(await benchStore(store, dataset, options, workDir, 'missing' in tools ? undefined : tools));
      } catch (error) {
        // One store failing (Virtuoso would not start, say) still leaves the other's figures.
        console.error(`\n!!! ${size} ${store} FAILED: ${(error as Error).stack ?? error}\n`);
        failures.push({ store, reason: `failed: ${(error as Error).message}` });
        process.exitCode = 1;
      }
    }
    const date = new Date().toISOString();
    const run: RunResult = {
      date,
      machine: machineInfo(results.find((r) => r.version)?.version),
      size,
      smoke: options.smoke,
      settings: {
        durationSeconds: options.durationSeconds,
        iterations: options.iterations,
        connections: options.connections,
        serverProcess: 'child process: node --import tsx src/cli/bin.ts serve --config …',
        windowCache: options.windowCacheTtlSeconds ?? 'server default',
        loader: options.loader,
        clients: options.clients,
        keepAlive: { ...options.keepAlive, maxSockets: MAX_SOCKETS },
      },
      stores: results,
      loadAverage: { start: loadAtStart, end: loadavg()[0]! },
      skipped: failures,
    };
    // One file per run (runs are repeated for medians: bench/cold-medians.ts), and the latest per size.
    const name = options.smoke ? `smoke-${size}` : `${date.slice(0, 19).replaceAll(':', '')}-${size}`;
    await writeFile(join(RESULTS, `${name}.json`), `${JSON.stringify(run, null, 1)}\n`);
    if (!options.smoke) await writeFile(join(RESULTS, `latest-${size}.json`), `${JSON.stringify(run, null, 1)}\n`);
    console.log(renderRun(run));
  }
  // The chart shows the latest full run of every size (runs of one size at a time add up).
  if (!options.sortCorpus && !options.deltas) {
    const runs = options.smoke
      ? [JSON.parse(await readFile(join(RESULTS, 'smoke-10k.json'), 'utf8')) as RunResult]
      : await latestRuns();
    const chart = join(RESULTS, options.smoke ? 'smoke.svg' : 'latest.svg');
    await writeFile(chart, renderChart(runs));
    console.log(
      `Raw figures in ${RESULTS}, chart in ${chart}; ${((performance.now() - started) / 1000).toFixed(0)} s.`,
    );
  }
} finally {
  await rm(workDir, { recursive: true, force: true });
}

/** The sort corpus on each store (`--sort-corpus`): its table on stdout, its figures in results/. */
async function sortCorpus(dataset: Awaited<ReturnType<typeof benchDataset>>): Promise<void> {
  for (const store of stores) {
    const run = await runSortCorpus(store, dataset, options, workDir, 'missing' in tools ? undefined : tools);
    const name = `sort-corpus-${options.smoke ? 'smoke' : run.date.slice(0, 10)}-${dataset.size}-${store}`;
    const json = `${JSON.stringify(run, null, 1)}\n`;
    await writeFile(join(RESULTS, `${name}.json`), json);
    if (!options.smoke) await writeFile(join(RESULTS, `sort-corpus-latest-${dataset.size}-${store}.json`), json);
    console.log(`${renderSortCorpus(run)}\n`);
  }
}

/** The shapes under a stream of deltas on Virtuoso (`--deltas`): its table on stdout, its figures in results/. */
async function deltas(dataset: Awaited<ReturnType<typeof benchDataset>>): Promise<void> {
  if ('missing' in tools) return;
  const run = await runDeltas(dataset, options, workDir, tools);
  // One file per run (runs are repeated for medians), and the latest per size.
  const json = `${JSON.stringify(run, null, 1)}\n`;
  await writeFile(join(RESULTS, `deltas-${run.date.slice(0, 19).replaceAll(':', '')}-${dataset.size}.json`), json);
  await writeFile(join(RESULTS, `deltas-latest-${dataset.size}.json`), json);
  console.log(`${renderDeltasRun(run)}\n`);
}

async function latestRuns(): Promise<RunResult[]> {
  const files = new Set(await readdir(RESULTS));
  const runs: RunResult[] = [];
  for (const size of SIZES) {
    if (files.has(`latest-${size}.json`))
      runs.push(JSON.parse(await readFile(join(RESULTS, `latest-${size}.json`), 'utf8')) as RunResult);
  }
  return runs;
}

/** `--scaling-chart`: reads the result files, writes results/scaling.svg; the exit code. */
async function scalingChart(command: ScalingChartCommand): Promise<number> {
  try {
    const runs: RunResult[] = [];
    for (const file of command.scalingChart) {
      const run = JSON.parse(await readFile(file, 'utf8')) as RunResult;
      // A deltas or sort-corpus file is JSON too, of another shape: say so rather than fail inside the chart.
      if (!Array.isArray(run.stores) || typeof run.size !== 'string' || run.loadAverage === undefined)
        throw new Error(`${file}: not the result of a run of the shapes (bench/results/<date and time>-<size>.json)`);
      runs.push(run);
    }
    const chart = join(RESULTS, 'scaling.svg');
    await writeFile(chart, `${renderScalingChart(runs, { store: command.store })}\n`);
    console.log(`Scaling chart of ${runs.map((r) => r.size).join(', ')} (${command.store}) in ${chart}`);
    return 0;
  } catch (error) {
    console.error(`--scaling-chart: ${(error as Error).message}`);
    return 1;
  }
}
