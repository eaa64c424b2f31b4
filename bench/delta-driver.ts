/**
 * The delta stream of `npm run bench -- --deltas`, in a process of its own so that the load
 * generator's event loop does not delay it (`run-deltas.ts` starts it):
 *
 *   node --import tsx bench/delta-driver.ts '{"endpoint":…,"graph":…,"deltaUrl":…,"rate":10,…}'
 *
 * At `rate` messages a second, each message changes a few trade activities with a SPARQL UPDATE
 * straight on the store (`delta-changes.ts`), then posts the change's delta, in delta-notifier's
 * `resourceFormat: "v0.0.1"` shape, to the server's listener. Messages go one after the other, as
 * the notifier sends them, each on its own tick; a message that takes longer than a tick delays
 * the next. Each message is one JSON line on stdout (`DeltaSample`, deltas-report.ts). It stops when its
 * stdin closes (the parent ends or goes away), or after `maxSeconds`.
 */
import { createHttpStore } from '../src/store/http-store.js';
import { deltaOf, seededRandom, updateOf } from '../test/support/live-rounds.js';
import { ActivityChanges } from './delta-changes.js';
import type { DeltaSample } from './deltas-report.js';

/** What the parent passes, as JSON in the first argument. */
export interface DriverArguments {
  readonly endpoint: string;
  readonly graph: string;
  readonly deltaUrl: string;
  readonly rate: number;
  readonly seed: number;
  readonly activities: number;
  /** mu:uuid of the activities the bench's shapes show: every message changes one of them. */
  readonly shownIds: readonly string[];
  readonly maxSeconds: number;
}

const args = JSON.parse(process.argv[2] ?? '{}') as DriverArguments;
let stopped = false;
process.stdin.on('close', () => (stopped = true)).resume();
setTimeout(() => (stopped = true), args.maxSeconds * 1000).unref();

const store = createHttpStore({ endpointUrl: args.endpoint, graph: args.graph });
const changes = await ActivityChanges.open(store, seededRandom(args.seed), args.activities, args.shownIds);
const tick = 1000 / args.rate;
const started = performance.now();
for (let n = 0; !stopped; n++) {
  const wait = started + n * tick - performance.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  if (stopped) break;
  const t0 = performance.now();
  const { change, kinds } = await changes.message();
  const t1 = performance.now();
  const update = await fetch(args.endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/sparql-update' },
    body: updateOf(change, args.graph),
  });
  const answer = await update.text();
  if (!update.ok) console.error(`[delta driver] the UPDATE answered ${update.status}: ${answer.slice(0, 300)}`);
  const t2 = performance.now();
  const at = Date.now();
  let status = 0;
  if (update.ok) {
    const response = await fetch(args.deltaUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(deltaOf(change, args.graph)),
    });
    await response.arrayBuffer();
    status = response.status;
  }
  const sample: DeltaSample = {
    at,
    readMs: t1 - t0,
    updateMs: t2 - t1,
    deltaMs: performance.now() - t2,
    status,
    triples: change.deletes.length + change.inserts.length,
    kinds,
  };
  process.stdout.write(`${JSON.stringify(sample)}\n`);
}
await store.close();
