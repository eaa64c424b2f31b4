/**
 * The medians of several `--deltas` runs at one size, as a markdown table:
 *
 *   npx tsx bench/deltas-medians.ts bench/results/deltas-2026-11-27T*-1m.json
 */
import { readFile } from 'node:fs/promises';
import { type DeltasRun, renderDeltasMedians } from './deltas-report.js';

const runs = await Promise.all(
  process.argv.slice(2).map(async (file) => JSON.parse(await readFile(file, 'utf8')) as DeltasRun),
);
console.log(renderDeltasMedians(runs));
