/**
 * Generates a synthetic dataset shaped like data/sample.ttl and fitting mappings/sample.yaml,
 * for load and performance tests:
 *
 *   npm run generate -- --activities 70000 [--out data/generated-70000.nt] [--seed 1]
 *
 * Output is N-Triples, byte-identical for the same arguments: all randomness comes from a
 * seeded PRNG, and quads are produced lazily and streamed so ~1M triples need little memory.
 */
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { Literal, NamedNode, Quad } from '@rdfjs/types';
import { DataFactory, Writer } from 'n3';

const { namedNode, literal, quad } = DataFactory;

export interface GenerateOptions {
  /** Number of elod:TradeActivity resources; every other count derives from it. */
  readonly activities: number;
  readonly seed?: number;
}

/** Upper bound: ids pack (kind, index) into 32 bits, leaving 27 bits for the index. */
export const MAX_ACTIVITIES = 10_000_000;

/** How many resources of each kind a dataset of `activities` trade activities holds. */
export function datasetSizes(activities: number) {
  return {
    activities,
    amounts: activities,
    concepts: Math.max(20, Math.round(activities / 35)),
    schemes: 2,
    agents: Math.max(5, Math.round(activities / 280)),
    countries: COUNTRIES.length,
    aidActivities: Math.round(activities / 10),
    publicProjects: Math.round(activities / 50),
  };
}

// --- vocabulary -------------------------------------------------------------------------------

// Exported for what writes sample data too (test/support/live-rounds.ts).
export const ELOD = 'http://linkedeconomy.org/ontology#';
export const SKOS = 'http://www.w3.org/2004/02/skos/core#';
export const MU = 'http://mu.semte.ch/vocabularies/core/';
export const GR = 'http://purl.org/goodrelations/v1#';
const DCT = 'http://purl.org/dc/terms/';
const XSD = 'http://www.w3.org/2001/XMLSchema#';
const RES = 'http://linkedeconomy.org/resource/';

const rdfType = namedNode('http://www.w3.org/1999/02/22-rdf-syntax-ns#type');
const p = {
  uuid: namedNode(`${MU}uuid`),
  financialYear: namedNode(`${ELOD}financialYear`),
  concerns: namedNode(`${ELOD}concerns`),
  hasOrigin: namedNode(`${ELOD}hasOrigin`),
  hasDestination: namedNode(`${ELOD}hasDestination`),
  amount: namedNode(`${ELOD}amount`),
  country: namedNode(`${ELOD}country`),
  isoCode: namedNode(`${ELOD}countryIsoCode`),
  budget: namedNode(`${ELOD}budget`),
  completed: namedNode(`${ELOD}completed`),
  hasPublicProject: namedNode(`${ELOD}hasPublicProject`),
  currencyValue: namedNode(`${GR}hasCurrencyValue`),
  currency: namedNode(`${GR}hasCurrency`),
  prefLabel: namedNode(`${SKOS}prefLabel`),
  notation: namedNode(`${SKOS}notation`),
  broader: namedNode(`${SKOS}broader`),
  inScheme: namedNode(`${SKOS}inScheme`),
  topConceptOf: namedNode(`${SKOS}topConceptOf`),
  title: namedNode(`${DCT}title`),
  description: namedNode(`${DCT}description`),
  subject: namedNode(`${DCT}subject`),
};
const cls = {
  tradeActivity: namedNode(`${ELOD}TradeActivity`),
  amount: namedNode(`${GR}UnitPriceSpecification`),
  agent: namedNode(`${ELOD}GroupNationalAgent`),
  country: namedNode(`${ELOD}Country`),
  concept: namedNode(`${SKOS}Concept`),
  scheme: namedNode(`${SKOS}ConceptScheme`),
  aidActivity: namedNode(`${ELOD}AidActivity`),
  publicProject: namedNode(`${ELOD}PublicProject`),
};
const dt = {
  date: namedNode(`${XSD}date`),
  decimal: namedNode(`${XSD}decimal`),
  integer: namedNode(`${XSD}integer`),
  boolean: namedNode(`${XSD}boolean`),
};

/** [ISO code, English name, Greek name or ''] — fixed so every seed shares the country ids. */
const COUNTRIES: readonly (readonly [string, string, string])[] = [
  ['AT', 'Austria', ''],
  ['BE', 'Belgium', ''],
  ['BG', 'Bulgaria', 'Βουλγαρία'],
  ['CH', 'Switzerland', ''],
  ['CY', 'Cyprus', 'Κύπρος'],
  ['CZ', 'Czechia', ''],
  ['DE', 'Germany', 'Γερμανία'],
  ['DK', 'Denmark', ''],
  ['EE', 'Estonia', ''],
  ['ES', 'Spain', 'Ισπανία'],
  ['FI', 'Finland', ''],
  ['FR', 'France', 'Γαλλία'],
  ['GB', 'United Kingdom', ''],
  ['GR', 'Greece', 'Ελλάδα'],
  ['HR', 'Croatia', ''],
  ['HU', 'Hungary', ''],
  ['IE', 'Ireland', ''],
  ['IT', 'Italy', 'Ιταλία'],
  ['LT', 'Lithuania', ''],
  ['LU', 'Luxembourg', ''],
  ['LV', 'Latvia', ''],
  ['MT', 'Malta', ''],
  ['NL', 'Netherlands', ''],
  ['NO', 'Norway', ''],
  ['PL', 'Poland', ''],
  ['PT', 'Portugal', ''],
  ['RO', 'Romania', ''],
  ['SE', 'Sweden', ''],
  ['SI', 'Slovenia', ''],
  ['TR', 'Türkiye', 'Τουρκία'],
];

const ADJECTIVES = [
  'Fresh',
  'Dried',
  'Frozen',
  'Live',
  'Processed',
  'Raw',
  'Roasted',
  'Salted',
  'Smoked',
  'Refined',
  'Crude',
  'Ground',
  'Whole',
  'Preserved',
  'Organic',
  'Chilled',
];
const NOUNS = [
  'olives',
  'grapes',
  'cereals',
  'fish',
  'poultry',
  'cheese',
  'honey',
  'cotton',
  'tobacco',
  'citrus fruit',
  'nuts',
  'legumes',
  'vegetables',
  'oils',
  'wine',
  'crème fraîche',
  'purée',
  'wool',
  'hides',
  'seeds',
];
const GREEK = [
  'Ελιές',
  'Σταφύλια',
  'Δημητριακά',
  'Ψάρια',
  'Πουλερικά',
  'Τυρί',
  'Μέλι',
  'Βαμβάκι',
  'Καπνός',
  'Εσπεριδοειδή',
  'Ξηροί καρποί',
  'Όσπρια',
  'Λαχανικά',
  'Έλαια',
  'Κρασί',
];
const KEYWORDS = [
  'water',
  'agriculture',
  'infrastructure',
  'education',
  'transport',
  'ports',
  'energy',
  'health',
  'tourism',
  'fisheries',
  'roads',
  'culture',
  'housing',
  'digital',
];
const PLACES = [
  'Thessaly',
  'Attica',
  'Crete',
  'Epirus',
  'Macedonia',
  'Thrace',
  'Peloponnese',
  'Ionian Islands',
  'Aegean',
  'Cyclades',
];
const WORKS = [
  'water works',
  'school services',
  'rural recovery',
  'road network',
  'port upgrade',
  'energy efficiency',
  'hospital wing',
  'heritage restoration',
];

// --- randomness --------------------------------------------------------------------------------

/** mulberry32: small, fast, and good enough for test data. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** murmur3's finaliser: a bijection on 32 bits, so distinct inputs give distinct ids. */
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

// --- the dataset -------------------------------------------------------------------------------

/** Every quad of the dataset, lazily and in a fixed order; no graph (default graph). */
export function* generateDataset(options: GenerateOptions): Generator<Quad> {
  const n = options.activities;
  if (!Number.isInteger(n) || n < 1 || n > MAX_ACTIVITIES) {
    throw new RangeError(`activities must be an integer in 1..${MAX_ACTIVITIES}, got ${n}`);
  }
  const size = datasetSizes(n);
  const rand = mulberry32(options.seed ?? 1);
  const int = (k: number) => Math.floor(rand() * k);
  const chance = (probability: number) => rand() < probability;
  const pick = <T>(items: readonly T[]): T => items[int(items.length)] as T;
  const salt = fmix32((options.seed ?? 1) ^ 0x5eed);
  // Unique across every kind (the bijection sees distinct inputs) yet unrelated to IRI order.
  const uuid = (kind: number, index: number) =>
    literal(
      fmix32(((kind * 2 ** 27 + index) ^ salt) >>> 0)
        .toString(16)
        .padStart(8, '0'),
    );
  const hex = (value: number, width: number) => value.toString(16).padStart(width, '0');

  // Concept schemes: the same two IRIs as the sample.
  const schemes = [namedNode(`${RES}scheme/c0de`), namedNode(`${RES}scheme/0b1e`)];
  for (const [i, scheme] of schemes.entries()) {
    yield quad(scheme, rdfType, cls.scheme);
    yield quad(scheme, p.prefLabel, literal(i === 0 ? 'Animal products' : 'Vegetable products', 'en'));
  }

  // Concepts: a 3-level tree (~1 top : 4 middle : 16 leaves); a child's code is its
  // parent's code plus a fixed-width hex suffix, so codes are unique lowercase hex.
  interface Concept {
    code: string;
    scheme: number;
    level: number;
    node: NamedNode;
    parent?: Concept;
  }
  const tops = Math.max(2, Math.ceil(size.concepts / 21));
  const middles = Math.max(tops, Math.round((size.concepts - tops) / 5));
  const leaves = size.concepts - tops - middles;
  const width = (count: number, parents: number) => Math.max(2, Math.ceil(count / parents).toString(16).length);
  const concepts: Concept[] = [];
  const byLevel: Concept[][] = [[], [], []];
  const levelCounts = [tops, middles, leaves];
  for (let level = 0; level < 3; level++) {
    const parents = level === 0 ? [] : (byLevel[level - 1] as Concept[]);
    const w = level === 0 ? width(tops, 1) : width(levelCounts[level] as number, parents.length);
    for (let i = 0; i < (levelCounts[level] as number); i++) {
      // Round-robin over parents keeps the tree balanced; the child's index under its parent
      // is i / parents.length.
      const parent = parents[i % Math.max(1, parents.length)];
      const code = parent ? parent.code + hex(Math.floor(i / parents.length) + 1, w) : hex(i + 1, w);
      const concept: Concept = {
        code,
        level,
        parent,
        scheme: parent ? parent.scheme : i % 2,
        node: namedNode(`${RES}concept/${code}`),
      };
      concepts.push(concept);
      (byLevel[level] as Concept[]).push(concept);
    }
  }
  const middlesByScheme = [0, 1].map((s) => (byLevel[1] as Concept[]).filter((c) => c.scheme === s));
  for (const concept of concepts) {
    const s = concept.node;
    yield quad(s, rdfType, cls.concept);
    yield quad(s, p.notation, literal(concept.code));
    const english = `${pick(ADJECTIVES)} ${pick(NOUNS)}`;
    const roll = rand();
    if (roll < 0.02) {
      yield quad(s, p.prefLabel, literal(pick(GREEK), 'el')); // label falls back to @el
    } else if (roll >= 0.03) {
      // 0.02..0.03: no label at all
      yield quad(s, p.prefLabel, literal(english, 'en'));
      if (roll > 0.7) yield quad(s, p.prefLabel, literal(pick(GREEK), 'el'));
    }
    yield quad(s, p.inScheme, schemes[concept.scheme] as NamedNode);
    const parent = concept.parent;
    if (!parent) {
      yield quad(s, p.topConceptOf, schemes[concept.scheme] as NamedNode);
    } else {
      yield quad(s, p.broader, parent.node);
      // A few leaves have a second broader concept (multi-valued broader-concepts).
      const others = middlesByScheme[concept.scheme] as Concept[];
      if (concept.level === 2 && others.length > 1 && chance(0.05)) {
        const other = pick(others);
        if (other !== parent) yield quad(s, p.broader, other.node);
      }
    }
  }

  for (const [code, english, greek] of COUNTRIES) {
    const s = namedNode(`${RES}country/${code}`);
    yield quad(s, rdfType, cls.country);
    yield quad(s, p.isoCode, literal(code));
    yield quad(s, p.prefLabel, literal(english, 'en'));
    if (greek) yield quad(s, p.prefLabel, literal(greek, 'el'));
  }

  const agents: NamedNode[] = [];
  for (let i = 0; i < size.agents; i++) {
    const s = namedNode(`${RES}GroupNationalAgent/${i + 1}`);
    agents.push(s);
    yield quad(s, rdfType, cls.agent);
    yield quad(s, p.uuid, uuid(1, i));
    if (!chance(0.03)) yield quad(s, p.country, namedNode(`${RES}country/${pick(COUNTRIES)[0]}`));
  }

  for (let i = 0; i < n; i++) {
    const s = namedNode(`${RES}TradeActivity/${i + 1}`);
    const amount = namedNode(`${RES}UnitPriceSpecification/${i + 1}`);
    yield quad(s, rdfType, cls.tradeActivity);
    yield quad(s, p.uuid, uuid(2, i));
    if (!chance(0.02)) {
      yield quad(s, p.financialYear, literal(`${2008 + int(13)}-01-01Z`, dt.date));
    }
    if (!chance(0.03)) {
      const chosen = new Set<Concept>();
      const wanted = 1 + int(4);
      while (chosen.size < wanted) chosen.add(pick(concepts));
      for (const concept of chosen) yield quad(s, p.concerns, concept.node);
    }
    const origin = int(agents.length);
    yield quad(s, p.hasOrigin, agents[origin] as NamedNode);
    if (!chance(0.05)) {
      // Any other agent: shift by 1..agents-1 so origin and destination differ.
      const destination = (origin + 1 + int(agents.length - 1)) % agents.length;
      yield quad(s, p.hasDestination, agents[destination] as NamedNode);
    }
    yield quad(s, p.amount, amount);

    yield quad(amount, rdfType, cls.amount);
    yield quad(amount, p.uuid, uuid(3, i));
    yield quad(amount, p.currencyValue, amountValue(rand));
    yield quad(amount, p.currency, literal('EUR'));
  }

  const projects: NamedNode[] = [];
  for (let i = 0; i < size.publicProjects; i++) {
    const s = namedNode(`${RES}PublicProject/${i + 1}`);
    projects.push(s);
    yield quad(s, rdfType, cls.publicProject);
    yield quad(s, p.uuid, uuid(4, i));
    yield quad(s, p.title, literal(`${pick(PLACES)} ${pick(WORKS)}`));
  }

  for (let i = 0; i < size.aidActivities; i++) {
    const s = namedNode(`${RES}AidActivity/${i + 1}`);
    const place = pick(PLACES);
    const work = pick(WORKS);
    yield quad(s, rdfType, cls.aidActivity);
    yield quad(s, p.uuid, uuid(5, i));
    yield quad(s, p.title, literal(`${place} ${work} ${i + 1}`));
    if (!chance(0.1)) yield quad(s, p.description, literal(`Funds ${work} in ${place}.`));
    yield quad(s, p.budget, literal(String(10_000 + int(9_990_000)), dt.integer));
    if (!chance(0.05)) yield quad(s, p.completed, literal(String(chance(0.6)), dt.boolean));
    const keywords = new Set<string>();
    const wanted = int(4);
    while (keywords.size < wanted) keywords.add(pick(KEYWORDS));
    for (const keyword of keywords) yield quad(s, p.subject, literal(keyword));
    if (projects.length > 0 && !chance(0.2)) yield quad(s, p.hasPublicProject, pick(projects));
  }
}

/** Mostly 2-decimal euros; 20% integer-valued decimals; 0.1% xsd:integers beyond 2^53. */
function amountValue(rand: () => number): Literal {
  const roll = rand();
  const euros = Math.floor(rand() * 10_000_000);
  if (roll < 0.001) {
    const big = 2n ** 53n + BigInt(Math.floor(rand() * 1e9));
    return literal(big.toString(), dt.integer);
  }
  if (roll < 0.2) return literal(String(euros), dt.decimal);
  const cents = Math.floor(rand() * 100);
  return literal(`${euros}.${String(cents).padStart(2, '0')}`, dt.decimal);
}

/** Streams the dataset as N-Triples to `out`; resolves to the number of triples written. */
export async function writeDataset(options: GenerateOptions, out: string): Promise<number> {
  const writer = new Writer({ format: 'N-Triples' });
  let count = 0;
  // Serialising each quad with n3 but handing the file ~64 KiB strings is twice as fast as
  // piping quads one by one through an object-mode StreamWriter.
  function* chunks(): Generator<string> {
    let chunk = '';
    for (const q of generateDataset(options)) {
      chunk += writer.quadToString(q.subject, q.predicate, q.object);
      count++;
      if (chunk.length >= 65_536) {
        yield chunk;
        chunk = '';
      }
    }
    if (chunk) yield chunk;
  }
  await mkdir(dirname(out), { recursive: true });
  await pipeline(Readable.from(chunks()), createWriteStream(out));
  return count;
}

// --- CLI ---------------------------------------------------------------------------------------

const USAGE = `usage: npm run generate -- --activities N [--out FILE] [--seed S]
  --activities N  number of trade activities (1..${MAX_ACTIVITIES}); everything else scales with it
  --out FILE      output N-Triples file (default: data/generated-<N>.nt)
  --seed S        PRNG seed, a non-negative integer (default: 1)`;

/** The CLI's options, or an error message (printed with the usage). */
export function parseArguments(
  argv: readonly string[],
): { options: Required<GenerateOptions>; out: string } | { error: string } {
  const parse = () =>
    parseArgs({
      args: [...argv],
      options: {
        activities: { type: 'string', short: 'n' },
        out: { type: 'string', short: 'o' },
        seed: { type: 'string', short: 's' },
      },
      strict: true,
      allowPositionals: false,
    });
  let values: ReturnType<typeof parse>['values'];
  try {
    ({ values } = parse());
  } catch (error) {
    return { error: (error as Error).message };
  }
  const wholeNumber = /^\d+$/;
  if (values.activities === undefined) return { error: '--activities is required' };
  const activities = Number(values.activities);
  if (!wholeNumber.test(values.activities) || activities < 1 || activities > MAX_ACTIVITIES) {
    return { error: `--activities must be an integer in 1..${MAX_ACTIVITIES}` };
  }
  const seed = Number(values.seed ?? '1');
  if (!wholeNumber.test(values.seed ?? '1') || seed > 0xffffffff) {
    return { error: '--seed must be an integer in 0..4294967295' };
  }
  return { options: { activities, seed }, out: values.out ?? `data/generated-${activities}.nt` };
}

async function main(): Promise<void> {
  const parsed = parseArguments(process.argv.slice(2));
  if ('error' in parsed) {
    console.error(`${parsed.error}\n${USAGE}`);
    process.exit(2);
  }
  const started = performance.now();
  const count = await writeDataset(parsed.options, parsed.out);
  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  console.log(`${parsed.out}: ${count} triples in ${seconds}s`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main();
}
