import { mkdtempSync, readFileSync } from 'node:fs';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Quad as N3Quad, Store as N3Store, Parser, Writer } from 'n3';
import oxigraph from 'oxigraph';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { main } from '../../src/cli/main.js';
import { loadMapping } from '../../src/mapping/load-mapping.js';
import { parseSelectResults } from '../../src/store/parse-select-results.js';
import type { Store } from '../../src/store/store.js';
import { captureIo, listeningPort } from '../support/cli-io.js';
import { describeStores, SAMPLE_MAPPING } from '../support/each-store.js';
import { SAMPLE_DATA } from '../support/global-setup.js';
import { type Change, SampleChanges, seededRandom } from '../support/live-rounds.js';
import { comparedUrls, expectSame, listenOn, plainApp } from '../support/live-servers.js';
import { metricValue } from '../support/metrics-text.js';

/** Edits in CI, each followed by its reload; LIVE_WATCH_ROUNDS scales it up. LIVE_SEED picks the walk (a number, or `random`). */
const ROUNDS = Number(process.env.LIVE_WATCH_ROUNDS ?? 200);
const SEED =
  process.env.LIVE_SEED === 'random' ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.LIVE_SEED ?? 26);
/** URLs compared after each reload, drawn from the set: every URL is compared often over the rounds. */
const COMPARED_PER_ROUND = 2;

const dir = mkdtempSync(join(tmpdir(), 'live-watch-'));
const DATA = join(dir, 'data.nt');
const MAPPING = join(dir, 'mapping.yaml');

/** The triples of the data file, as the suite last wrote it. */
const written = new N3Store();

/** The file's triples, edited as a change says, written whole by a rename (as editors save). */
async function edit(change: Change): Promise<void> {
  // The changes' quads are n3's own (live-rounds.ts builds them with its DataFactory).
  written.removeQuads(change.deletes as N3Quad[]);
  written.addQuads(change.inserts as N3Quad[]);
  await writeNt(written.getQuads(null, null, null, null));
}

async function writeNt(quads: Parameters<Writer['quadsToString']>[0]): Promise<void> {
  await writeFile(`${DATA}.tmp`, new Writer({ format: 'N-Triples' }).quadsToString(quads));
  await rename(`${DATA}.tmp`, DATA);
}

describeStores('serve --watch: a changed data file is served as a server started fresh on it serves it', () => {
  const stopping = new AbortController();
  const captured = captureIo({}, stopping.signal);
  /** When each reload the log announced started (pino's time less the reload's `ms`), in order. */
  const reloadStarts: number[] = [];
  let logWritten = () => {};
  const io = {
    ...captured,
    stdout: {
      write: (text: string) => {
        captured.stdout.write(text);
        const entry = JSON.parse(text);
        if (entry.msg === 'dataset default reloaded') reloadStarts.push(entry.time - entry.ms);
        logWritten();
      },
    },
  };
  let exited: Promise<number>;
  let base: string;
  /** Whether a reload that started at `since` or later (ms since the epoch, rounded) has been served. */
  const reloadedSince = (since: number) => (reloadStarts.at(-1) ?? 0) >= since - 1;
  const logged = (pattern: RegExp) => io.out.some((line) => pattern.test(JSON.parse(line).msg ?? ''));
  /** Resolves once `done()` holds, checked at each line the server logs. */
  const until = (what: string, done: () => boolean) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        logWritten = () => {};
        reject(new Error(`${what}: not within 20 s; log:\n${io.out.slice(-5).join('\n')}`));
      }, 20_000);
      logWritten = () => {
        if (!done()) return;
        clearTimeout(timer);
        logWritten = () => {};
        resolve();
      };
      logWritten();
    });

  beforeAll(async () => {
    written.addQuads(new Parser().parse(await readFile(SAMPLE_DATA, 'utf8')));
    await writeNt(written.getQuads(null, null, null, null));
    await writeFile(MAPPING, await readFile(SAMPLE_MAPPING, 'utf8'));
    // No quiet time: the suite writes each file whole, by a rename.
    const watch = ['--watch', '--watch-debounce', '0'];
    exited = main(['serve', '--mapping', MAPPING, '--data', DATA, '--port', '0', ...watch], io);
    base = `http://127.0.0.1:${await listeningPort(
      () => io.out,
      exited,
      () => io.err.join('\n'),
    )}`;
  });
  afterAll(async () => {
    stopping.abort();
    await exited;
    await rm(dir, { recursive: true, force: true });
  });

  test(`${ROUNDS} edits, each reloaded: byte-identical answers and ETags`, async () => {
    const mapping = await loadMapping(MAPPING);
    let fresh = freshStore(DATA);
    // The changes read the current data from whichever fresh store holds it.
    const current: Store = { ...fresh, select: (query, options) => fresh.select(query, options) };
    const changes = await SampleChanges.open(current, seededRandom(SEED));
    const started = performance.now();
    for (let round = 1; round <= ROUNDS; round++) {
      const change = await changes.next();
      const context = `seed ${SEED} (LIVE_SEED=${SEED}), edit ${round}: ${change.what}`;
      const since = Date.now();
      await edit(change);
      await until(`${context}: reload ${round}`, () => reloadedSince(since));
      // A server started fresh on the edited file: its own store and app, every cache off.
      fresh = freshStore(DATA);
      const plain = await listenOn(plainApp(mapping, fresh));
      try {
        const urls = comparedUrls(changes.activityIds(), changes.conceptIds(), (a) => changes.pick(a));
        for (let i = 0; i < COMPARED_PER_ROUND; i++)
          await expectSame({ baseUrl: base }, { baseUrl: plain.url }, changes.pick(urls), context);
      } finally {
        await plain.close();
      }
    }
    console.log(`serve --watch: ${ROUNDS} edits in ${Math.round(performance.now() - started)} ms`);
    // One set of metrics across the reloads: every compared request counted, not the last app's.
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metricValue(metrics, 'http_requests_total')).toBeGreaterThanOrEqual(COMPARED_PER_ROUND * ROUNDS);
  }, 600_000);

  test('a data file that fails to parse keeps the old data, and the log names the line', async () => {
    const before = await raw(`${base}/trade-activities?page[size]=3`);
    const saved = await readFile(DATA, 'utf8');
    await writeFile(DATA, `${saved}\n<http://x/a> <http://x/b> "unterminated .\n`);
    await until('the parse error logged', () => logged(/keeping the old data: .*line \d+/));
    expect(await raw(`${base}/trade-activities?page[size]=3`)).toEqual(before);
    const since = Date.now();
    await writeFile(DATA, saved);
    await until('the restored file reloaded', () => reloadedSince(since));
  });

  test('a mapping that fails to load keeps the old mapping, and the log says why', async () => {
    const before = await raw(`${base}/concepts?page[size]=3`);
    const saved = await readFile(MAPPING, 'utf8');
    await writeFile(MAPPING, `${saved}\n  broken-type:\n    attributes: 42\n`);
    await until('the mapping error logged', () => logged(/cannot be used; keeping the old mapping: .+/));
    expect(await raw(`${base}/concepts?page[size]=3`)).toEqual(before);
    // A valid change of the mapping is served: an attribute renamed.
    expect(saved).toContain('      notation: skos:notation');
    const since = Date.now();
    await writeFile(MAPPING, saved.replace('      notation: skos:notation', '      code: skos:notation'));
    await until('the mapping reloaded', () => reloadedSince(since));
    const concept = (await (await fetch(`${base}/concepts/0101`)).json()) as any;
    expect(concept.data.attributes).toHaveProperty('code', '0101');
    expect(concept.data.attributes).not.toHaveProperty('notation');
  });
}, ['embedded']);

/**
 * The embedded engine on `file`, in this thread: a fresh server's store without the worker pool's
 * start-up cost (the served side runs the pool), so that each round can afford a fresh one.
 */
function freshStore(file: string): Store {
  const store = new oxigraph.Store();
  store.load(readFileSync(file, 'utf8'), { format: 'application/n-triples' });
  const select = async (query: string) =>
    parseSelectResults(
      store.query(query, {
        use_default_graph_as_union: true,
        results_format: 'application/sparql-results+json',
      }) as string,
    );
  return {
    description: `oxigraph in the test's thread (${store.size} triples)`,
    oneGraph: false,
    select,
    ping: async () => undefined,
    close: async () => undefined,
  };
}

async function raw(url: string) {
  const response = await fetch(url, { headers: { accept: 'application/vnd.api+json' } });
  return { status: response.status, etag: response.headers.get('etag'), body: await response.text() };
}
