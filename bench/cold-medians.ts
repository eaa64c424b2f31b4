/**
 * The medians of several runs of the shapes (`npm run bench`, one file per run) at one size, as a
 * markdown table against issue 27's done-when lines:
 *
 *   npx tsx bench/cold-medians.ts bench/results/2026-11-28T1*-1m.json [--store virtuoso]
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { renderMedians } from './medians.js';
import type { RunResult } from './results.js';

const { values, positionals } = parseArgs({ options: { store: { type: 'string' } }, allowPositionals: true });
const runs = await Promise.all(positionals.map(async (file) => JSON.parse(await readFile(file, 'utf8')) as RunResult));
console.log(renderMedians(runs, values.store ?? 'virtuoso'));
