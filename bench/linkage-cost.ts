/**
 * What resource linkage costs, shape by shape: the bench's shapes (bench/shapes.ts) on the
 * generated data in the embedded store, served three ways side by side: linkage off (`none`),
 * `to-one`, and `to-one` with the sample's to-many `concerns` marked `linkage: true` in the
 * mapping (docs/api.md#linkage). For each: the queries a request sends (from `Server-Timing`),
 * the median time of a request over the shape's URLs, and the median size of a document.
 *
 *   npx tsx bench/linkage-cost.ts [--size 10k|100k|1m] [--rounds N]     (defaults: 100k, 5)
 *
 * Requests are sequential, over keep-alive, each URL asked once before the rounds (the server's
 * hints and the store's pages warm); the three servers take turns, URL by URL.
 */
import { parseArgs } from 'node:util';
import { createApp } from '../src/app.js';
import { withLinkage } from '../src/mapping/linkage.js';
import { loadMapping } from '../src/mapping/load-mapping.js';
import type { Mapping } from '../src/mapping/model.js';
import { createOxigraphStore } from '../src/store/oxigraph-store.js';
import { ApiClient } from '../test/support/api-client.js';
import { benchDataset } from './datasets.js';
import type { Size } from './options.js';
import { SHAPES } from './shapes.js';
import { median, parseServerTiming } from './stats.js';

const { values } = parseArgs({
  options: { size: { type: 'string', default: '100k' }, rounds: { type: 'string', default: '5' } },
});
const size = values.size as Size;
const rounds = Number(values.rounds);

/** The sample mapping with `concerns` (trade activities' to-many concepts) marked `linkage: true`. */
function withConcernsLinked(mapping: Mapping): Mapping {
  const types = new Map(mapping.types);
  const type = types.get('trade-activities')!;
  const relationships = new Map(type.relationships);
  relationships.set('concerns', { ...relationships.get('concerns')!, linkage: true });
  types.set(type.name, { ...type, relationships });
  return { ...mapping, types };
}

const dataset = await benchDataset(size);
const mapping = await loadMapping('mappings/sample.yaml');
const store = await createOxigraphStore({ files: [dataset.file] });
const variants = [
  { name: 'none', mapping: withLinkage(mapping, 'none') },
  { name: 'to-one', mapping: withLinkage(mapping, 'to-one') },
  { name: 'to-one + concerns', mapping: withLinkage(withConcernsLinked(mapping), 'to-one') },
];
const servers = await Promise.all(
  variants.map((v) =>
    ApiClient.listen(
      createApp({
        datasets: [{ name: 'bench', mapping: v.mapping, store, linkBase: '', options: { windowCacheTtlSeconds: 0 } }],
      }),
    ),
  ),
);
const get = async (path: string, accept?: string) => {
  const { status, body } = await servers[0]!.get(path, { Accept: accept ?? 'application/vnd.api+json' });
  return { status, body };
};

console.log(
  `linkage cost, ${size} (${dataset.triples} triples), embedded store, ${rounds} rounds, load ${(await import('node:os')).loadavg()[0]!.toFixed(2)}`,
);
console.log('| shape | linkage | queries | median ms | median bytes |');
console.log('| --- | --- | --- | --- | --- |');
for (const shape of SHAPES) {
  const urls = (await shape.urls({ dataset, get })).slice(0, 20);
  const seen = variants.map(() => ({ queries: new Set<number>(), ms: [] as number[], bytes: [] as number[] }));
  for (let round = 0; round <= rounds; round++) {
    for (const url of urls) {
      for (const [i, server] of servers.entries()) {
        const started = performance.now();
        const response = await fetch(server.baseUrl + url, { headers: { Accept: shape.accept } });
        const text = await response.text();
        if (round === 0) continue;
        seen[i]!.ms.push(performance.now() - started);
        seen[i]!.bytes.push(Buffer.byteLength(text));
        seen[i]!.queries.add(parseServerTiming(response.headers.get('server-timing'))?.queries ?? Number.NaN);
      }
    }
  }
  for (const [i, v] of variants.entries()) {
    const s = seen[i]!;
    console.log(
      `| ${shape.key} | ${v.name} | ${[...s.queries].sort().join('/')} | ${median(s.ms).toFixed(1)} | ${median(s.bytes).toFixed(0)} |`,
    );
  }
}
for (const server of servers) await server.close();
await store.close();
