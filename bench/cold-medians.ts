/**
 * The medians of several runs of the shapes (`npm run bench`, one file per run) at one size, as a
 * markdown table against issue 27's done-when lines, then the keep-alive client's medians beside the peer (issue 40):
 *
 *   npx tsx bench/cold-medians.ts bench/results/2026-11-28T1*-1m.json [--store virtuoso]
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { renderKeepAliveMedians, renderMedians } from './medians.js';
import type { RunResult } from './results.js';

const { values, positionals } = parseArgs({ options: { store: { type: 'string' } }, allowPositionals: true });
const runs = await Promise.all(positionals.map(async (file) => JSON.parse(await readFile(file, 'utf8')) as RunResult));
const store = values.store ?? 'virtuoso';
console.log(renderMedians(runs, store));
// Under the keep-alive client (issue 40), when the runs have its figures.
const keepAlive = renderKeepAliveMedians(runs.flatMap((run) => run.stores.filter((r) => r.store === store)));
if (keepAlive) console.log(`\nUnder the keep-alive client (a front-end's), beside the peer:\n\n${keepAlive}`);
