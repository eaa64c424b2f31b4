/**
 * Keeps data/sample.ttl and scripts/generate.ts honest: both must fit mappings/sample.yaml,
 * and the sample must keep every edge case its comments promise (other suites rely on them).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Quad, Term } from '@rdfjs/types';
import { Parser, Store, Writer } from 'n3';
import oxigraph from 'oxigraph';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { datasetSizes, generateDataset, parseArguments, writeDataset } from '../../scripts/generate.js';

const ROOT = new URL('../../', import.meta.url);
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const SKOS = 'http://www.w3.org/2004/02/skos/core#';
const ELOD = 'http://linkedeconomy.org/ontology#';
const XSD = 'http://www.w3.org/2001/XMLSchema#';
const MU_UUID = 'http://mu.semte.ch/vocabularies/core/uuid';
const GR = 'http://purl.org/goodrelations/v1#';
const DCT = 'http://purl.org/dc/terms/';
const RES = 'http://linkedeconomy.org/resource/';
const HEX = /^[0-9a-f]+$/;

// --- the mapping, read independently of src/mapping so a loader bug cannot hide a data bug ---

type IdSpec = { predicate: string } | { hex: { base: string } } | { template: string };
interface MappingFile {
  prefixes: Record<string, string>;
  id: IdSpec;
  types: Record<string, { class: string; id?: IdSpec }>;
}
interface TypeInfo {
  name: string;
  classIri: string;
  id: IdSpec;
}

async function loadMappingTypes(): Promise<TypeInfo[]> {
  const file = parseYaml(await readFile(new URL('mappings/sample.yaml', ROOT), 'utf8')) as MappingFile;
  const expand = (name: string) => {
    const colon = name.indexOf(':');
    const namespace = file.prefixes[name.slice(0, colon)];
    return namespace === undefined ? name : namespace + name.slice(colon + 1);
  };
  return Object.entries(file.types).map(([name, type]) => {
    const id = type.id ?? file.id;
    return {
      name,
      classIri: expand(type.class),
      id: 'predicate' in id ? { predicate: expand(id.predicate) } : id,
    };
  });
}

// --- quad helpers --------------------------------------------------------------------------

const objects = (store: Store, s: string, p: string): Term[] => store.getObjects(s, p, null);
const values = (store: Store, s: string, p: string) =>
  objects(store, s, p)
    .map((o) => o.value)
    .sort();
const instances = (store: Store, classIri: string) =>
  store
    .getSubjects(RDF_TYPE, classIri, null)
    .map((s) => s.value)
    .sort();
const isA = (store: Store, s: string, classIri: string) => store.countQuads(s, RDF_TYPE, classIri, null) > 0;
const labels = (store: Store, s: string) =>
  store
    .getObjects(s, `${SKOS}prefLabel`, null)
    .map((o) => `${o.value}@${(o as { language?: string }).language ?? ''}`)
    .sort();

function templateParts(template: string) {
  const [prefix, suffix] = template.split('{id}') as [string, string];
  return { prefix, suffix };
}
/** Members of a template type: IRIs that fit prefix + lowercase hex + suffix. */
function fitsTemplate(iri: string, template: string) {
  const { prefix, suffix } = templateParts(template);
  return (
    iri.startsWith(prefix) && iri.endsWith(suffix) && HEX.test(iri.slice(prefix.length, iri.length - suffix.length))
  );
}

/** The checks every dataset served with mappings/sample.yaml must pass. */
function expectFitsMapping(store: Store, types: TypeInfo[], nonMembers: Record<string, string[]>) {
  const classes = new Set(types.map((t) => t.classIri));
  for (const object of store.getObjects(null, RDF_TYPE, null)) {
    expect(classes, `unmapped class ${object.value}`).toContain(object.value);
  }
  for (const type of types) {
    const members = instances(store, type.classIri);
    expect(members.length, type.name).toBeGreaterThan(0);
    if ('predicate' in type.id) {
      const ids = members.map((s) => {
        const found = objects(store, s, type.id && 'predicate' in type.id ? type.id.predicate : '');
        expect(found, `${s} must have exactly one id`).toHaveLength(1);
        expect(found[0]?.termType).toBe('Literal');
        return found[0]?.value ?? '';
      });
      for (const id of ids) expect(id).toMatch(HEX);
      expect(new Set(ids).size, `${type.name} ids are unique`).toBe(ids.length);
    } else {
      // Ids come from the IRI: a stray mu:uuid would mislead readers of the data.
      for (const s of members) expect(objects(store, s, MU_UUID), s).toEqual([]);
      if ('template' in type.id) {
        const template = type.id.template;
        expect(
          members.filter((s) => !fitsTemplate(s, template)),
          type.name,
        ).toEqual(nonMembers[type.name] ?? []);
      } else {
        const base = type.id.hex.base;
        for (const s of members) expect(s.startsWith(base) && s.length > base.length, s).toBe(true);
      }
    }
  }
}

// --- the sample ------------------------------------------------------------------------------

describe('data/sample.ttl', () => {
  let text: string;
  let store: Store;
  let types: TypeInfo[];
  const ta = (n: string) => `${RES}TradeActivity/${n}`;
  const concept = (code: string) => `${RES}concept/${code}`;
  const country = (code: string) => `${RES}country/${code}`;
  const aid = (n: string) => `${RES}AidActivity/${n}`;
  const NOT_HEX_CONCEPT = concept('XY-not-hex');

  beforeAll(async () => {
    text = await readFile(new URL('data/sample.ttl', ROOT), 'utf8');
    store = new Store(new Parser().parse(text));
    types = await loadMappingTypes();
  });

  it('parses with n3 and loads into oxigraph with the same number of triples', () => {
    const ox = new oxigraph.Store();
    ox.load(text, { format: 'text/turtle' });
    expect(store.size).toBeGreaterThan(200);
    expect(ox.size).toBe(store.size);
  });

  it('fits the mapping: mapped classes only, valid unique ids, template members', () => {
    expectFitsMapping(store, types, { concepts: [NOT_HEX_CONCEPT] });
  });

  it('has the documented number of resources per class', () => {
    const count = (classIri: string) => instances(store, classIri).length;
    expect(count(`${ELOD}TradeActivity`)).toBe(12);
    expect(count(`${GR}UnitPriceSpecification`)).toBe(12);
    expect(count(`${ELOD}GroupNationalAgent`)).toBe(5);
    expect(count(`${ELOD}Country`)).toBe(5);
    expect(count(`${SKOS}Concept`)).toBe(16); // 15 members + XY-not-hex
    expect(count(`${SKOS}ConceptScheme`)).toBe(2);
    expect(count(`${ELOD}AidActivity`)).toBe(4);
    expect(count(`${ELOD}PublicProject`)).toBe(3);
  });

  describe('trade activities', () => {
    const all = () => instances(store, `${ELOD}TradeActivity`);
    const id = (s: string) => values(store, s, MU_UUID)[0] ?? '';
    const year = (s: string) => values(store, s, `${ELOD}financialYear`)[0];

    it('sort by id, by IRI and by year give different orders', () => {
      const byIri = all();
      const byId = [...byIri].sort((a, b) => (id(a) < id(b) ? -1 : 1));
      const byYear = [...byIri].sort(
        (a, b) => (year(a) ?? '').localeCompare(year(b) ?? '') || (id(a) < id(b) ? -1 : 1),
      );
      expect(byId).not.toEqual(byIri);
      expect(byYear).not.toEqual(byIri);
      expect(byYear).not.toEqual(byId);
      for (const s of byIri) expect(id(s)).toMatch(/^[0-9a-f]{8,12}$/);
    });

    it('share years, so the default sort must break ties by id', () => {
      const perYear = new Map<string, number>();
      for (const s of all()) {
        const y = year(s);
        if (y) perYear.set(y, (perYear.get(y) ?? 0) + 1);
      }
      expect([...perYear.values()].filter((n) => n >= 2).length).toBeGreaterThanOrEqual(3);
      expect(perYear.get('2016-01-01Z')).toBe(3);
      expect(perYear.size).toBeGreaterThanOrEqual(5);
      for (const s of all()) {
        for (const o of objects(store, s, `${ELOD}financialYear`)) {
          expect((o as { datatype?: { value: string } }).datatype?.value).toBe(`${XSD}date`);
          expect(o.value).toMatch(/^20(1[2-8])-01-01Z$/);
        }
      }
    });

    it('ta:008 has no financial year (missing attribute)', () => {
      expect(all().filter((s) => !year(s))).toEqual([ta('008')]);
    });

    it('ta:005 has no destination (empty to-one)', () => {
      expect(all().filter((s) => objects(store, s, `${ELOD}hasDestination`).length === 0)).toEqual([ta('005')]);
    });

    it('ta:006 concerns nothing (empty to-many); others concern 1-3 concepts', () => {
      const concepts = (s: string) =>
        values(store, s, `${ELOD}concerns`).filter(
          (c) => isA(store, c, `${SKOS}Concept`) && fitsTemplate(c, `${RES}concept/{id}`),
        );
      expect(all().filter((s) => concepts(s).length === 0)).toEqual([ta('006')]);
      expect(values(store, ta('006'), `${ELOD}concerns`)).toEqual([]);
      expect(all().filter((s) => concepts(s).length >= 2).length).toBeGreaterThanOrEqual(3);
      expect(concepts(ta('003'))).toHaveLength(3);
    });

    it('ta:007 also concerns concept/ee, which fits the template but is not a skos:Concept', () => {
      expect(values(store, ta('007'), `${ELOD}concerns`)).toEqual([concept('0b0101'), concept('ee')]);
      expect(fitsTemplate(concept('ee'), `${RES}concept/{id}`)).toBe(true);
      expect(objects(store, concept('ee'), RDF_TYPE)).toEqual([]);
    });

    it('ta:009 also concerns concept/XY-not-hex, a skos:Concept outside the template', () => {
      expect(values(store, ta('009'), `${ELOD}concerns`)).toEqual([concept('0201'), NOT_HEX_CONCEPT]);
      expect(isA(store, NOT_HEX_CONCEPT, `${SKOS}Concept`)).toBe(true);
    });

    it('ta:009 has an origin agent without a country', () => {
      const origin = values(store, ta('009'), `${ELOD}hasOrigin`);
      expect(origin).toEqual([`${RES}GroupNationalAgent/nocountry`]);
      expect(objects(store, origin[0] ?? '', `${ELOD}country`)).toEqual([]);
      const agentsWithoutCountry = instances(store, `${ELOD}GroupNationalAgent`).filter(
        (a) => objects(store, a, `${ELOD}country`).length === 0,
      );
      expect(agentsWithoutCountry).toEqual(origin);
    });

    it('every activity has one origin and one amount', () => {
      for (const s of all()) {
        expect(objects(store, s, `${ELOD}hasOrigin`), s).toHaveLength(1);
        expect(objects(store, s, `${ELOD}amount`), s).toHaveLength(1);
      }
    });
  });

  describe('amounts', () => {
    const value = (n: string) => objects(store, `${RES}UnitPriceSpecification/${n}`, `${GR}hasCurrencyValue`)[0];
    const datatype = (t: Term | undefined) => (t as { datatype?: { value: string } } | undefined)?.datatype?.value;

    it('amount:001 is an integer-valued xsd:decimal, amount:002 a fractional one', () => {
      expect([value('001')?.value, datatype(value('001'))]).toEqual(['1250', `${XSD}decimal`]);
      expect([value('002')?.value, datatype(value('002'))]).toEqual(['98765.43', `${XSD}decimal`]);
    });

    it('amount:003 is an xsd:integer beyond 2^53', () => {
      expect(datatype(value('003'))).toBe(`${XSD}integer`);
      const big = BigInt(value('003')?.value ?? '0');
      expect(big > 2n ** 53n).toBe(true);
      expect(BigInt(Number(big))).not.toBe(big); // a JS number would round it
    });

    it('every amount has one value and currency EUR', () => {
      for (const s of instances(store, `${GR}UnitPriceSpecification`)) {
        expect(objects(store, s, `${GR}hasCurrencyValue`), s).toHaveLength(1);
        expect(values(store, s, `${GR}hasCurrency`), s).toEqual(['EUR']);
      }
    });
  });

  describe('countries', () => {
    it('have ISO-code IRIs and codes', () => {
      for (const s of instances(store, `${ELOD}Country`)) {
        const code = s.slice(`${RES}country/`.length);
        expect(code).toMatch(/^[A-Z]{2}$/);
        expect(values(store, s, `${ELOD}countryIsoCode`)).toEqual([code]);
      }
    });

    it('exercise label language preference: GR en+el, FR untagged only, ES @es only', () => {
      expect(labels(store, country('GR'))).toEqual(['Greece@en', 'Ελλάδα@el']);
      expect(labels(store, country('FR'))).toEqual(['France@']);
      expect(labels(store, country('ES'))).toEqual(['España@es']);
    });

    it('ES is referenced by no agent', () => {
      expect(store.getSubjects(`${ELOD}country`, country('ES'), null)).toEqual([]);
    });
  });

  describe('concepts and schemes', () => {
    const members = () => instances(store, `${SKOS}Concept`).filter((s) => s !== NOT_HEX_CONCEPT);
    const code = (s: string) => s.slice(`${RES}concept/`.length);
    const enLabel = (s: string) =>
      objects(store, s, `${SKOS}prefLabel`).find((o) => (o as { language?: string }).language === 'en')?.value;

    it('have their code as notation and a scheme; top concepts are topConceptOf it', () => {
      for (const s of members()) {
        expect(values(store, s, `${SKOS}notation`), s).toEqual([code(s)]);
        const schemes = values(store, s, `${SKOS}inScheme`);
        expect(schemes, s).toHaveLength(1);
        const broader = values(store, s, `${SKOS}broader`);
        const top = values(store, s, `${SKOS}topConceptOf`);
        expect(top, s).toEqual(broader.length === 0 ? schemes : []);
      }
      expect(store.getSubjects(`${SKOS}topConceptOf`, `${RES}scheme/c0de`, null).length).toBe(3);
      expect(store.getSubjects(`${SKOS}topConceptOf`, `${RES}scheme/0b1e`, null).length).toBe(2);
    });

    it('form a three-level hierarchy', () => {
      expect(values(store, concept('010201'), `${SKOS}broader`)).toEqual([concept('0102')]);
      expect(values(store, concept('0102'), `${SKOS}broader`)).toEqual([concept('01')]);
      expect(values(store, concept('0b0101'), `${SKOS}broader`)).toEqual([concept('0b01')]);
    });

    it('0201 has two broader concepts (02 and 0102)', () => {
      expect(values(store, concept('0201'), `${SKOS}broader`)).toEqual([concept('0102'), concept('02')]);
    });

    it('03 is a top concept with no narrower concepts', () => {
      expect(store.getSubjects(`${SKOS}broader`, concept('03'), null)).toEqual([]);
    });

    it("XY-not-hex claims 01 as broader, so 01's narrower concepts must filter it out", () => {
      expect(values(store, NOT_HEX_CONCEPT, `${SKOS}broader`)).toEqual([concept('01')]);
    });

    it('label edge cases: 0102 untagged+el, 0a02 only @el, 0a03 no label at all', () => {
      expect(labels(store, concept('0102'))).toEqual(['Live bovine animals@', 'Βοοειδή@el']);
      expect(labels(store, concept('0a02'))).toEqual(['Σπορέλαιο@el']);
      expect(labels(store, concept('0a03'))).toEqual([]);
      expect(members().filter((s) => labels(store, s).some((l) => l.endsWith('@el'))).length).toBeGreaterThanOrEqual(4);
    });

    it('label order differs from id order, and code-point order from locale order', () => {
      const labelled = members().filter((s) => enLabel(s) !== undefined);
      const byLabel = [...labelled].sort((a, b) => ((enLabel(a) ?? '') < (enLabel(b) ?? '') ? -1 : 1));
      expect(byLabel).not.toEqual(labelled); // members() is in IRI (= id) order
      const english = labelled.map((s) => enLabel(s) ?? '');
      expect(english).toContain('calves, pure-bred');
      expect(english).toContain('Éclairs and pastries');
      const codePoint = [...english].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      const locale = [...english].sort((a, b) => a.localeCompare(b, 'en'));
      expect(codePoint).not.toEqual(locale);
    });

    it('the two schemes have hex ids and English labels', () => {
      expect(instances(store, `${SKOS}ConceptScheme`)).toEqual([`${RES}scheme/0b1e`, `${RES}scheme/c0de`]);
      for (const s of instances(store, `${SKOS}ConceptScheme`)) {
        expect(
          labels(store, s).some((l) => l.endsWith('@en')),
          s,
        ).toBe(true);
      }
    });
  });

  describe('aid activities and public projects', () => {
    const all = () => instances(store, `${ELOD}AidActivity`);
    const missing = (p: string) => all().filter((s) => objects(store, s, p).length === 0);

    it('aid:2 has no description', () => {
      expect(missing(`${DCT}description`)).toEqual([aid('2')]);
    });

    it('completed is true, false, or (aid:3) missing', () => {
      expect(missing(`${ELOD}completed`)).toEqual([aid('3')]);
      const completed = all().flatMap((s) => values(store, s, `${ELOD}completed`));
      expect(new Set(completed)).toEqual(new Set(['true', 'false']));
    });

    it('keywords range from none (aid:3) to three (aid:1)', () => {
      expect(missing(`${DCT}subject`)).toEqual([aid('3')]);
      expect(values(store, aid('1'), `${DCT}subject`)).toHaveLength(3);
      for (const o of store.getObjects(null, `${DCT}subject`, null)) expect(o.termType).toBe('Literal');
    });

    it('budgets are xsd:integer; every activity has a title', () => {
      for (const s of all()) {
        const budget = objects(store, s, `${ELOD}budget`);
        expect(budget, s).toHaveLength(1);
        expect((budget[0] as { datatype?: { value: string } }).datatype?.value).toBe(`${XSD}integer`);
        expect(objects(store, s, `${DCT}title`), s).toHaveLength(1);
      }
    });

    it('aid:4 has no public project; the others have one of the three titled projects', () => {
      expect(missing(`${ELOD}hasPublicProject`)).toEqual([aid('4')]);
      for (const s of instances(store, `${ELOD}PublicProject`)) {
        expect(objects(store, s, `${DCT}title`), s).toHaveLength(1);
      }
    });
  });
});

// --- the generator ---------------------------------------------------------------------------

describe('scripts/generate.ts', () => {
  const writer = new Writer({ format: 'N-Triples' });
  const asText = (quads: Iterable<Quad>) =>
    [...quads].map((q) => writer.quadToString(q.subject, q.predicate, q.object));
  let types: TypeInfo[];
  let dir: string;

  beforeAll(async () => {
    types = await loadMappingTypes();
    dir = await mkdtemp(join(tmpdir(), 'generate-test-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('is deterministic per seed', () => {
    const a = asText(generateDataset({ activities: 200, seed: 7 }));
    expect(asText(generateDataset({ activities: 200, seed: 7 }))).toEqual(a);
    expect(asText(generateDataset({ activities: 200, seed: 8 }))).not.toEqual(a);
  });

  it('produces the expected counts for N=200 and fits the mapping', () => {
    const store = new Store([...generateDataset({ activities: 200 })]);
    const count = (classIri: string) => instances(store, classIri).length;
    expect(datasetSizes(200)).toMatchObject({ concepts: 20, agents: 5, aidActivities: 20, publicProjects: 4 });
    expect(count(`${ELOD}TradeActivity`)).toBe(200);
    expect(count(`${GR}UnitPriceSpecification`)).toBe(200);
    expect(count(`${SKOS}Concept`)).toBe(20);
    expect(count(`${SKOS}ConceptScheme`)).toBe(2);
    expect(count(`${ELOD}GroupNationalAgent`)).toBe(5);
    expect(count(`${ELOD}Country`)).toBe(30);
    expect(count(`${ELOD}AidActivity`)).toBe(20);
    expect(count(`${ELOD}PublicProject`)).toBe(4);
    expectFitsMapping(store, types, {});
    // Every link points at a resource of the right class.
    for (const [p, classIri] of [
      [`${ELOD}concerns`, `${SKOS}Concept`],
      [`${ELOD}hasOrigin`, `${ELOD}GroupNationalAgent`],
      [`${ELOD}hasDestination`, `${ELOD}GroupNationalAgent`],
      [`${ELOD}amount`, `${GR}UnitPriceSpecification`],
      [`${ELOD}country`, `${ELOD}Country`],
      [`${SKOS}broader`, `${SKOS}Concept`],
      [`${SKOS}inScheme`, `${SKOS}ConceptScheme`],
      [`${ELOD}hasPublicProject`, `${ELOD}PublicProject`],
    ] as const) {
      for (const o of store.getObjects(null, p, null))
        expect(isA(store, o.value, classIri), `${p} ${o.value}`).toBe(true);
    }
  });

  it('keeps the edge cases in proportion (N=3000)', () => {
    const store = new Store([...generateDataset({ activities: 3000 })]);
    const activities = instances(store, `${ELOD}TradeActivity`);
    const share = (p: string) => activities.filter((s) => objects(store, s, p).length === 0).length / activities.length;
    expect(share(`${ELOD}hasDestination`)).toBeGreaterThan(0.03);
    expect(share(`${ELOD}hasDestination`)).toBeLessThan(0.07);
    expect(share(`${ELOD}concerns`)).toBeGreaterThan(0.015);
    expect(share(`${ELOD}concerns`)).toBeLessThan(0.045);
    expect(share(`${ELOD}financialYear`)).toBeGreaterThan(0.01);
    expect(share(`${ELOD}financialYear`)).toBeLessThan(0.03);
    expect(Math.max(...activities.map((s) => objects(store, s, `${ELOD}concerns`).length))).toBe(4);
    const concepts = instances(store, `${SKOS}Concept`);
    expect(concepts.some((c) => objects(store, c, `${SKOS}broader`).length === 2)).toBe(true);
    const depth = (c: string): number => {
      const up = values(store, c, `${SKOS}broader`)[0];
      return up === undefined ? 1 : 1 + depth(up);
    };
    expect(Math.max(...concepts.map(depth))).toBe(3);
    expect(concepts.some((c) => labels(store, c).some((l) => l.endsWith('@el')))).toBe(true);
  });

  it('writes byte-identical, parseable N-Triples', async () => {
    const [a, b] = [join(dir, 'a.nt'), join(dir, 'b.nt')];
    const count = await writeDataset({ activities: 300, seed: 3 }, a);
    await writeDataset({ activities: 300, seed: 3 }, b);
    const text = await readFile(a, 'utf8');
    expect(await readFile(b, 'utf8')).toBe(text);
    expect(new Parser({ format: 'N-Triples' }).parse(text)).toHaveLength(count);
    expect(count).toBe([...generateDataset({ activities: 300, seed: 3 })].length);
  });

  it('rejects bad arguments', () => {
    expect(parseArguments(['--activities', '50'])).toEqual({
      options: { activities: 50, seed: 1 },
      out: 'data/generated-50.nt',
    });
    expect(parseArguments(['--activities', '5', '--seed', '9', '--out', 'x.nt'])).toEqual({
      options: { activities: 5, seed: 9 },
      out: 'x.nt',
    });
    for (const argv of [
      [],
      ['--activities', '0'],
      ['--activities', '1.5'],
      ['--activities', 'x'],
      ['--activities', '5', '--seed', '-1'],
      ['--activities', '5', '--bogus'],
      ['extra'],
    ]) {
      expect(parseArguments(argv), argv.join(' ')).toHaveProperty('error');
    }
  });
});
