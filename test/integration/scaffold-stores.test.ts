/**
 * The same scaffold on every store: `scaffold --data FILE` on the embedded store, and `scaffold
 * --endpoint` on Virtuoso and on Jena holding the same triples, write the same mapping, byte for
 * byte but for the header's first line (which names where the data came from). On three real
 * datasets nobody here wrote, of different shapes (test/support/real-datasets.ts), and the
 * project's sample, as N-Triples.
 * The oracle is each store's own scaffold: the three must agree, and each mapping must load.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Parser, Writer } from 'n3';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { loadFiles } from '../../src/load/load-files.js';
import { loadMapping } from '../../src/mapping/load-mapping.js';
import { captureIo } from '../support/cli-io.js';
import { ENDPOINT_STORE_NAMES, sharedEndpoint } from '../support/each-store.js';
import { SAMPLE_DATA } from '../support/global-setup.js';
import { REAL_DATASETS } from '../support/real-datasets.js';

const dir = await mkdtemp(join(tmpdir(), 'scaffold-stores-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

/**
 * The sample's triples as N-Triples: a Turtle file's own prefix names (`dct:`) are no triples, and
 * only `--data` can reuse them, so the file scaffold would name `dct:` what an endpoint's names `dcterms:`.
 */
const SAMPLE_TRIPLES = join(dir, 'sample.nt');
await writeFile(
  SAMPLE_TRIPLES,
  new Writer({ format: 'N-Triples' }).quadsToString(new Parser().parse(await readFile(SAMPLE_DATA, 'utf8'))),
);
const DATASETS = { ...REAL_DATASETS, sample: [SAMPLE_TRIPLES] };

/** Runs `scaffold ARGS --out FILE` in process; resolves the mapping's text. */
async function scaffold(args: readonly string[]): Promise<string> {
  const file = join(dir, `${randomUUID()}.yaml`);
  const io = captureIo();
  const code = await main(['scaffold', ...args, '--out', file], io);
  expect(code, io.err.join('\n')).toBe(0);
  await loadMapping(file);
  return readFile(file, 'utf8');
}

/** The mapping without its first line, the one that names the source (`from FILE`, `from URL <graph>`). */
const body = (yaml: string) => yaml.slice(yaml.indexOf('\n') + 1);

const endpoints = ENDPOINT_STORE_NAMES.map((name) => ({ name, endpoint: sharedEndpoint(name) }));
const missing = endpoints.flatMap(({ endpoint }) => ('skip' in endpoint ? [endpoint.skip] : []));
if (missing.length > 0 && process.env.CI !== 'true')
  console.warn(`\n!!! SKIPPED scaffold-stores: ${missing.join('; ')}\n`);

describe('scaffold: the same mapping from the embedded store, Virtuoso and Jena', () => {
  for (const [name, files] of Object.entries(DATASETS)) {
    it.skipIf(missing.length > 0 && process.env.CI !== 'true')(
      `${name}: byte-identical YAML`,
      async () => {
        const fromFile = await scaffold(files.flatMap((f) => ['--data', f]));
        expect(fromFile).toMatch(/^# Scaffolded by `sparql-jsonapi scaffold` from /);
        for (const { name: store, endpoint } of endpoints) {
          if ('skip' in endpoint) throw new Error(`CI=true: ${endpoint.skip}`);
          const graph = `http://example.org/sparql-jsonapi-test/${randomUUID()}`;
          await loadFiles({ endpointUrl: endpoint.endpointUrl, graph, files: [...files] });
          const fromStore = await scaffold(['--endpoint', endpoint.endpointUrl, '--graph', graph]);
          expect(body(fromStore), `${name}: ${store} against the file`).toBe(body(fromFile));
        }
      },
      180_000,
    );
  }
});
