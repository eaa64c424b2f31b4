import { mkdtempSync } from 'node:fs';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Quad as N3Quad, Store as N3Store, Parser, Writer } from 'n3';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { main } from '../../src/cli/main.js';
import { loadMapping } from '../../src/mapping/load-mapping.js';
import { createOxigraphStore } from '../../src/store/oxigraph-store.js';
import type { Store } from '../../src/store/store.js';
import type { ApiClient } from '../support/api-client.js';
import { captureIo, listeningPort } from '../support/cli-io.js';
import { describeStores, SAMPLE_MAPPING } from '../support/each-store.js';
import { SAMPLE_DATA } from '../support/global-setup.js';
import { type Change, SampleChanges, seededRandom } from '../support/live-rounds.js';
import { comparedUrls, plainServer } from '../support/live-servers.js';

/** Edits in CI (each reload costs a load of the file); LIVE_WATCH_ROUNDS scales it up. */
const ROUNDS = Number(process.env.LIVE_WATCH_ROUNDS ?? 8);
const SEED = Number(process.env.LIVE_SEED ?? 26);

const dir = mkdtempSync(join(tmpdir(), 'live-watch-'));
const DATA = join(dir, 'data.nt');
const MAPPING = join(dir, 'mapping.yaml');

/** The file's triples, edited as a change says, written whole by a rename (as editors save). */
async function edit(change: Change): Promise<void> {
  const store = new N3Store(new Parser({ format: 'N-Triples' }).parse(await readFile(DATA, 'utf8')));
  // The changes' quads are n3's own (live-rounds.ts builds them with its DataFactory).
  store.removeQuads(change.deletes as N3Quad[]);
  store.addQuads(change.inserts as N3Quad[]);
  await writeNt(store.getQuads(null, null, null, null));
}

async function writeNt(quads: Parameters<Writer['quadsToString']>[0]): Promise<void> {
  await writeFile(`${DATA}.tmp`, new Writer({ format: 'N-Triples' }).quadsToString(quads));
  await rename(`${DATA}.tmp`, DATA);
}

describeStores('serve --watch: a changed data file is served as a server started fresh on it serves it', () => {
  const stopping = new AbortController();
  const io = captureIo({}, stopping.signal);
  let exited: Promise<number>;
  let base: string;
  /** Whether the log announced a reload since `since` (pino's time: ms since the epoch). */
  const reloadedSince = (since: number) =>
    io.out.some((line) => {
      const entry = JSON.parse(line);
      return entry.msg === 'dataset default reloaded' && entry.time >= since;
    });
  const logged = (pattern: RegExp) => io.out.some((line) => pattern.test(JSON.parse(line).msg ?? ''));
  const until = async (what: string, done: () => boolean) => {
    for (const deadline = Date.now() + 20_000; !done(); await new Promise((r) => setTimeout(r, 25)))
      if (Date.now() > deadline) throw new Error(`${what}: not within 20 s; log:\n${io.out.slice(-5).join('\n')}`);
  };

  beforeAll(async () => {
    await writeNt(new Parser().parse(await readFile(SAMPLE_DATA, 'utf8')));
    await writeFile(MAPPING, await readFile(SAMPLE_MAPPING, 'utf8'));
    exited = main(['serve', '--mapping', MAPPING, '--data', DATA, '--port', '0', '--watch'], io);
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

  test(`${ROUNDS} edits: after each reload, byte-identical answers and ETags`, async () => {
    const mapping = await loadMapping(MAPPING);
    let fresh: Store = await createOxigraphStore({ files: [DATA] });
    // The changes read the current data from whichever fresh store holds it.
    const current: Store = { ...fresh, select: (query, options) => fresh.select(query, options) };
    const changes = await SampleChanges.open(current, seededRandom(SEED));
    try {
      for (let round = 1; round <= ROUNDS; round++) {
        const change = await changes.next();
        const context = `seed ${SEED} (LIVE_SEED=${SEED}), edit ${round}: ${change.what}`;
        const since = Date.now();
        await edit(change);
        await until(`${context}: reload ${round}`, () => reloadedSince(since));
        await fresh.close();
        fresh = await createOxigraphStore({ files: [DATA] });
        const plain: ApiClient = await plainServer(mapping, fresh);
        try {
          const urls = comparedUrls(changes.activityIds(), changes.conceptIds(), (a) => changes.pick(a));
          for (const path of urls.filter((url) => !url.startsWith('cursor:'))) {
            const [a, b] = await Promise.all([raw(base + path), raw(plain.baseUrl + path)]);
            expect(a, `${context}: GET ${path}`).toEqual(b);
          }
        } finally {
          await plain.close();
        }
      }
    } finally {
      await fresh.close();
    }
  }, 300_000);

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

async function raw(url: string) {
  const response = await fetch(url, { headers: { accept: 'application/vnd.api+json' } });
  return { status: response.status, etag: response.headers.get('etag'), body: await response.text() };
}
