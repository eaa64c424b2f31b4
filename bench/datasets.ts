import { createHash } from 'node:crypto';
import { access, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { generateDataset, writeDataset } from '../scripts/generate.js';
import { loadMapping } from '../src/mapping/load-mapping.js';
import { MU_UUID, muUuidTriples } from './mu-uuids.js';
import type { Size } from './options.js';

/**
 * Trade activities per size: the generator's ~13.4 triples each; 1M ≈ 70,000 activities, 2,000
 * concepts, 250 agents. 10M (700,000) is generated only when asked for (never in CI or tests).
 */
export const ACTIVITIES: Readonly<Record<Size, number>> = { '10k': 700, '100k': 7_000, '1m': 70_000, '10m': 700_000 };

/** How many different ids the sequential and concurrent runs rotate through. */
const ROTATION = 50;

const DATA_DIR = fileURLToPath(new URL('./.data/', import.meta.url));
const GENERATOR = fileURLToPath(new URL('../scripts/generate.ts', import.meta.url));
const MAPPING = fileURLToPath(new URL('../mappings/sample.yaml', import.meta.url));
const CONCERNS = 'http://linkedeconomy.org/ontology#concerns';
const ACTIVITY = 'http://linkedeconomy.org/resource/TradeActivity/';
const ISO_CODE = 'http://linkedeconomy.org/ontology#countryIsoCode';

/** A generated dataset on disk, with the ids the request shapes rotate through. */
export interface BenchDataset {
  readonly size: Size;
  readonly file: string;
  readonly triples: number;
  readonly activities: number;
  /** Ids of trade activities that have concepts, spread evenly over the dataset. */
  readonly activityIds: readonly string[];
  /** ISO codes of the countries, for filters. */
  readonly countryCodes: readonly string[];
  /** Milliseconds it took to generate, or 0 when it came from the cache. */
  readonly generatedMs: number;
  /**
   * The `mu:uuid` triples the peer needs and the data lacks (`mu-uuids.ts`), in a file of their
   * own: the store under test gets them beside the data, so that the peer can serve the same graph.
   */
  readonly muUuids?: { readonly file: string; readonly triples: number };
}

interface CachedMeta extends Omit<BenchDataset, 'file' | 'generatedMs' | 'size' | 'muUuids'> {
  readonly generator: string;
}

/**
 * The dataset of `size`, generated into `bench/.data/` the first time and reused after that
 * (the cache is keyed by the generator's source, so a change to the generator regenerates).
 *
 * @example const { file, activityIds } = await benchDataset('10k');
 */
export async function benchDataset(size: Size): Promise<BenchDataset> {
  const activities = ACTIVITIES[size];
  const file = `${DATA_DIR}generated-${activities}.nt`;
  const metaFile = `${DATA_DIR}generated-${activities}.meta.json`;
  const generator = createHash('sha256')
    .update(await readFile(GENERATOR))
    .digest('hex')
    .slice(0, 16);
  const cached = await readFile(metaFile, 'utf8').then(
    (text) => JSON.parse(text) as CachedMeta,
    () => undefined,
  );
  if (
    cached?.generator === generator &&
    (await access(file).then(
      () => true,
      () => false,
    ))
  ) {
    return {
      size,
      file,
      generatedMs: 0,
      ...withoutGenerator(cached),
      muUuids: await muUuidFile(activities, generator),
    };
  }
  const started = performance.now();
  const triples = await writeDataset({ activities }, file);
  const meta: CachedMeta = { generator, triples, activities, ...sampleIds(activities) };
  await writeFile(metaFile, JSON.stringify(meta, null, 1));
  const generatedMs = Math.round(performance.now() - started);
  return { size, file, generatedMs, ...withoutGenerator(meta), muUuids: await muUuidFile(activities, generator) };
}

/** The dataset's `mu:uuid` supplement, written beside it the first time (keyed by the generator too). */
async function muUuidFile(activities: number, generator: string): Promise<NonNullable<BenchDataset['muUuids']>> {
  const file = `${DATA_DIR}generated-${activities}.mu-uuid.nt`;
  const metaFile = `${DATA_DIR}generated-${activities}.mu-uuid.meta.json`;
  const cached = await readFile(metaFile, 'utf8').then(
    (text) => JSON.parse(text) as { generator: string; triples: number },
    () => undefined,
  );
  const present = await access(file).then(
    () => true,
    () => false,
  );
  // The ids come from the mapping as much as from the generator.
  const key = `${generator}:${createHash('sha256')
    .update(await readFile(MAPPING))
    .digest('hex')
    .slice(0, 16)}`;
  if (cached?.generator === key && present) return { file, triples: cached.triples };
  const lines = muUuidTriples(generateDataset({ activities }), await loadMapping(MAPPING));
  await writeFile(file, lines.map((line) => `${line}\n`).join(''));
  await writeFile(metaFile, JSON.stringify({ generator: key, triples: lines.length }));
  return { file, triples: lines.length };
}

function withoutGenerator({ generator: _, ...rest }: CachedMeta): Omit<CachedMeta, 'generator'> {
  return rest;
}

/** One pass over the generator (same seed, so the same data) to pick ids without parsing the file. */
function sampleIds(activities: number): { activityIds: string[]; countryCodes: string[] } {
  const withConcerns: string[] = [];
  const countryCodes: string[] = [];
  let current: { subject: string; id?: string; listed: boolean } | undefined;
  for (const q of generateDataset({ activities })) {
    const subject = q.subject.value;
    if (q.predicate.value === ISO_CODE) countryCodes.push(q.object.value);
    if (!subject.startsWith(ACTIVITY)) continue;
    if (current?.subject !== subject) current = { subject, listed: false };
    if (q.predicate.value === MU_UUID) current.id = q.object.value;
    if (q.predicate.value === CONCERNS && !current.listed && current.id !== undefined) {
      withConcerns.push(current.id);
      current.listed = true;
    }
  }
  const step = Math.max(1, Math.floor(withConcerns.length / ROTATION));
  const activityIds = withConcerns.filter((_, index) => index % step === 0).slice(0, ROTATION);
  return { activityIds, countryCodes };
}
