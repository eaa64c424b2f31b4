import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileMapping, loadMapping, MappingError } from '../../../src/mapping/load-mapping.js';
import type { Mapping } from '../../../src/mapping/model.js';
import { thrown } from '../../support/thrown.js';

const SKOS = 'http://www.w3.org/2004/02/skos/core#';
const ELOD = 'http://linkedeconomy.org/ontology#';
const XSD = 'http://www.w3.org/2001/XMLSchema#';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'load-mapping-test-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const mappingError = (fn: () => unknown) => thrown(MappingError, fn);

async function rejected(promise: Promise<unknown>): Promise<MappingError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MappingError);
  return error as MappingError;
}

describe('loadMapping: the sample mapping', () => {
  let mapping: Mapping;
  beforeAll(async () => {
    mapping = await loadMapping('mappings/sample.yaml');
  });

  it('has every type of the file, in order', () => {
    expect([...mapping.types.keys()]).toEqual([
      'trade-activities',
      'amounts',
      'group-national-agents',
      'countries',
      'concepts',
      'concept-schemes',
      'aid-activities',
      'public-projects',
    ]);
    expect(mapping.source).toBe('mappings/sample.yaml');
  });

  it('compiles the three id strategies, with the top-level default where a type sets none', () => {
    expect(mapping.types.get('concepts')!.id).toEqual({
      kind: 'template',
      prefix: 'http://linkedeconomy.org/resource/concept/',
      suffix: '',
    });
    expect(mapping.types.get('countries')!.id).toEqual({
      kind: 'hex',
      base: 'http://linkedeconomy.org/resource/country/',
    });
    expect(mapping.types.get('trade-activities')!.id).toEqual({
      kind: 'predicate',
      predicate: 'http://mu.semte.ch/vocabularies/core/uuid',
    });
  });

  it('compiles attributes: shorthand, language, datatype, many', () => {
    const concepts = mapping.types.get('concepts')!;
    expect(concepts.attributes.get('label')).toEqual({
      name: 'label',
      predicate: `${SKOS}prefLabel`,
      language: 'en',
      many: false,
    });
    expect(concepts.attributes.get('notation')).toEqual({
      name: 'notation',
      predicate: `${SKOS}notation`,
      many: false,
    });
    expect(mapping.types.get('trade-activities')!.attributes.get('financial-year')).toEqual({
      name: 'financial-year',
      predicate: `${ELOD}financialYear`,
      datatype: `${XSD}date`,
      many: false,
    });
    expect(mapping.types.get('aid-activities')!.attributes.get('keywords')).toMatchObject({
      predicate: 'http://purl.org/dc/terms/subject',
      many: true,
    });
  });

  it('compiles relationships, inverse ones too', () => {
    const concepts = mapping.types.get('concepts')!;
    expect(concepts.relationships.get('narrower-concepts')).toEqual({
      name: 'narrower-concepts',
      predicate: `${SKOS}broader`,
      target: 'concepts',
      cardinality: 'many',
      inverse: true,
    });
    expect(concepts.relationships.get('broader-concepts')).toMatchObject({ inverse: false, cardinality: 'many' });
    expect(mapping.types.get('trade-activities')!.relationships.get('origin')).toMatchObject({
      target: 'group-national-agents',
      cardinality: 'one',
    });
  });

  it('expands every prefixed name to a full IRI', () => {
    expect(mapping.types.get('concepts')!.classIri).toBe(`${SKOS}Concept`);
    expect(mapping.types.get('amounts')!.classIri).toBe('http://purl.org/goodrelations/v1#UnitPriceSpecification');
    for (const type of mapping.types.values()) {
      expect(type.classIri).toMatch(/^http:\/\//);
      for (const attribute of type.attributes.values()) {
        expect(attribute.predicate).toMatch(/^http:\/\//);
        if (attribute.datatype !== undefined) expect(attribute.datatype).toMatch(/^http:\/\//);
      }
      for (const relationship of type.relationships.values()) expect(relationship.predicate).toMatch(/^http:\/\//);
    }
  });

  it('compiles defaultSort into sort keys, and freezes what it compiles', () => {
    const tradeActivities = mapping.types.get('trade-activities')!;
    expect(
      tradeActivities.defaultSort.map(({ field, descending, path }) => ({
        field,
        descending,
        end: path.end === 'id' ? 'id' : path.end.name,
        hops: path.hops.length,
      })),
    ).toEqual([{ field: 'financial-year', descending: true, end: 'financial-year', hops: 0 }]);
    expect(tradeActivities.defaultSort[0]!.path.end).toBe(tradeActivities.attributes.get('financial-year'));
    expect(Object.isFrozen(tradeActivities.defaultSort)).toBe(true);
    expect(mapping.types.get('concepts')!.defaultSort).toEqual([]);
    expect(Object.isFrozen(mapping)).toBe(true);
    expect(Object.isFrozen(tradeActivities)).toBe(true);
    expect(Object.isFrozen(tradeActivities.id)).toBe(true);
    expect(Object.isFrozen(tradeActivities.attributes.get('financial-year'))).toBe(true);
  });
});

describe('loadMapping: files', () => {
  it('accepts a JSON mapping file', async () => {
    const file = join(dir, 'books.json');
    await writeFile(
      file,
      JSON.stringify({
        prefixes: { schema: 'http://schema.org/' },
        types: {
          books: {
            class: 'schema:Book',
            id: { hex: true },
            defaultSort: ['title'],
            attributes: {
              title: 'schema:name',
              pages: { predicate: 'schema:numberOfPages', datatype: '<http://www.w3.org/2001/XMLSchema#integer>' },
            },
            relationships: { author: { predicate: 'schema:author', target: 'people', cardinality: 'one' } },
          },
          people: { class: 'http://schema.org/Person', id: { template: 'urn:person:{id}' } },
          places: { class: 'http://schema.org/Place', id: { local: { base: 'http://x/place/' } } },
        },
      }),
    );
    const mapping = await loadMapping(file);
    expect(mapping.source).toBe(file);
    expect([...mapping.types.keys()]).toEqual(['books', 'people', 'places']);
    const books = mapping.types.get('books')!;
    expect(books.id).toEqual({ kind: 'hex', base: '' });
    expect(books.classIri).toBe('http://schema.org/Book');
    expect(books.attributes.get('pages')).toEqual({
      name: 'pages',
      predicate: 'http://schema.org/numberOfPages',
      datatype: `${XSD}integer`,
      many: false,
    });
    expect(mapping.types.get('people')!.id).toEqual({ kind: 'template', prefix: 'urn:person:', suffix: '' });
    expect(mapping.types.get('places')!.id).toEqual({ kind: 'local', base: 'http://x/place/' });
  });

  it('reports a YAML syntax error with the file name', async () => {
    const file = join(dir, 'broken.yaml');
    await writeFile(file, 'types:\n  concepts:\n    class: [skos:Concept\n');
    const error = await rejected(loadMapping(file));
    expect(error.file).toBe(file);
    expect(error.problems).toHaveLength(1);
    expect(error.problems[0]).toMatch(/^cannot read the file: /);
    expect(error.message).toContain(`${file}: invalid mapping`);
    expect(error.message).toContain(`${file}: cannot read the file`);
  });

  it('reports a missing file', async () => {
    const file = join(dir, 'missing.yaml');
    const error = await rejected(loadMapping(file));
    expect(error.problems).toEqual([expect.stringMatching(/^cannot read the file: .*ENOENT/)]);
  });

  it('reports the problems of a file by key path, each line naming the file', async () => {
    const file = join(dir, 'faults.yaml');
    await writeFile(file, 'id: { hex: true }\ntypes:\n  things:\n    class: Thing\n    attributes:\n      id: ex:id\n');
    const error = await rejected(loadMapping(file));
    expect(error.problems).toHaveLength(3);
    expect(error.problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^types\.things\.class: 'Thing' is neither a known prefixed name/),
        expect.stringMatching(/^types\.things\.attributes\.id: 'id' is reserved by JSON:API/),
        expect.stringMatching(
          /^types\.things\.attributes\.id\.predicate: 'ex:id' is neither a known prefixed name \(prefixes: none\)/,
        ),
      ]),
    );
    const lines = error.message.split('\n');
    expect(lines[0]).toBe(`${file}: invalid mapping`);
    expect(lines.slice(1)).toEqual(error.problems.map((problem) => `  ${file}: ${problem}`));
  });
});

/** A small valid mapping; each row of the table below breaks one thing in a fresh copy. */
function base(): any {
  return {
    prefixes: { skos: SKOS },
    types: {
      concepts: {
        class: 'skos:Concept',
        id: { template: 'http://x/concept/{id}' },
        attributes: { label: { predicate: 'skos:prefLabel', language: 'en' } },
        relationships: { broader: { predicate: 'skos:broader', target: 'concepts', cardinality: 'many' } },
      },
    },
  };
}

describe('compileMapping', () => {
  it('compiles the base mapping of the table', () => {
    const mapping = compileMapping(base(), 'test.yaml');
    expect(mapping.types.get('concepts')!.relationships.get('broader')).toMatchObject({
      predicate: `${SKOS}broader`,
      target: 'concepts',
    });
  });

  it('every XSD datatype loads without a word; a datatype outside XSD loads with a warning naming the file and key', () => {
    const raw = base();
    raw.prefixes.xsd = XSD;
    for (const name of ['decimal', 'integer', 'dateTime', 'gYear', 'unsignedByte', 'anyURI', 'dayTimeDuration'])
      raw.types.concepts.attributes[name] = { predicate: 'skos:notation', datatype: `xsd:${name}` };
    expect(compileMapping(raw, 'test.yaml').warnings).toBeUndefined();
    raw.types.concepts.attributes.shape = {
      predicate: 'skos:notation',
      datatype: '<http://www.opengis.net/ont/geosparql#wktLiteral>',
    };
    const mapping = compileMapping(raw, 'test.yaml');
    expect(mapping.types.get('concepts')!.attributes.get('shape')!.datatype).toBe(
      'http://www.opengis.net/ont/geosparql#wktLiteral',
    );
    expect(mapping.warnings).toEqual([
      expect.stringMatching(
        /^test\.yaml: types\.concepts\.attributes\.shape\.datatype: '<http:\/\/www\.opengis\.net\/ont\/geosparql#wktLiteral>' is not an XSD datatype/,
      ),
    ]);
  });

  it('compiles language choices: a tag (lowercased), strictLanguage, and * (which sorts as multi-valued)', () => {
    const raw = base();
    raw.types.concepts.attributes = {
      label: { predicate: 'skos:prefLabel', language: 'pt-BR' },
      strict: { predicate: 'skos:prefLabel', language: 'de', strictLanguage: true },
      loose: { predicate: 'skos:prefLabel', language: 'de', strictLanguage: false },
      labels: { predicate: 'skos:prefLabel', language: '*' },
    };
    raw.types.concepts.defaultSort = ['-labels'];
    const concepts = compileMapping(raw, 'test.yaml').types.get('concepts')!;
    const label = { name: 'label', predicate: `${SKOS}prefLabel`, many: false };
    expect(concepts.attributes.get('label')).toEqual({ ...label, language: 'pt-br' });
    expect(concepts.attributes.get('strict')).toEqual({
      ...label,
      name: 'strict',
      language: 'de',
      strictLanguage: true,
    });
    expect(concepts.attributes.get('loose')).toEqual({ ...label, name: 'loose', language: 'de' });
    expect(concepts.attributes.get('labels')).toEqual({ ...label, name: 'labels', language: '*' });
    expect(concepts.defaultSort).toMatchObject([{ field: 'labels', descending: true, path: { multiValued: true } }]);
  });

  it.each<{ name: string; change: (m: any) => void; path: string; expected: RegExp[] }>([
    {
      name: 'unknown relationship target',
      change: (m) => (m.types.concepts.relationships.broader.target = 'nope'),
      path: 'types.concepts.relationships.broader.target',
      expected: [/^[^(]*'nope' is not a type of this mapping$/],
    },
    {
      name: 'relationship target that is an Object.prototype member',
      change: (m) => (m.types.concepts.relationships.broader.target = 'toString'),
      path: 'types.concepts.relationships.broader.target',
      expected: [/'toString' is not a type of this mapping/],
    },
    {
      name: 'relationship without target',
      change: (m) => delete m.types.concepts.relationships.broader.target,
      path: 'types.concepts.relationships.broader.target',
      expected: [/expected the name of a type of this mapping/],
    },
    {
      name: 'unknown prefix in a predicate',
      change: (m) => (m.types.concepts.attributes.label.predicate = 'foaf:name'),
      path: 'types.concepts.attributes.label.predicate',
      expected: [/'foaf:name' is neither a known prefixed name \(prefixes: skos\) nor an absolute IRI/],
    },
    {
      name: 'unknown prefix in a relationship predicate',
      change: (m) => (m.types.concepts.relationships.broader.predicate = 'sk:broader'),
      path: 'types.concepts.relationships.broader.predicate',
      expected: [/'sk:broader' is neither a known prefixed name/],
    },
    {
      name: 'unknown prefix in a datatype',
      change: (m) => (m.types.concepts.attributes.label.datatype = 'xsd:string'),
      path: 'types.concepts.attributes.label.datatype',
      expected: [/'xsd:string' is neither a known prefixed name/],
    },
    {
      name: 'a typo in an XSD datatype',
      change: (m) => {
        m.prefixes.xsd = XSD;
        m.types.concepts.attributes.label.datatype = 'xsd:decmal';
      },
      path: 'types.concepts.attributes.label.datatype',
      expected: [/'xsd:decmal' is no XSD datatype; did you mean xsd:decimal\?/],
    },
    {
      name: 'an XSD datatype in the wrong case',
      change: (m) => (m.types.concepts.attributes.label.datatype = `<${XSD}Integer>`),
      path: 'types.concepts.attributes.label.datatype',
      expected: [/is no XSD datatype; did you mean xsd:integer\?/],
    },
    {
      name: 'a bare word as class',
      change: (m) => (m.types.concepts.class = 'Concept'),
      path: 'types.concepts.class',
      expected: [/'Concept' is neither a known prefixed name .* nor an absolute IRI/],
    },
    {
      name: 'an IRI with a space as class',
      change: (m) => (m.types.concepts.class = '<http://x/a b>'),
      path: 'types.concepts.class',
      expected: [/'<http:\/\/x\/a b>' is neither/],
    },
    {
      name: 'missing class',
      change: (m) => delete m.types.concepts.class,
      path: 'types.concepts.class',
      expected: [/expected a prefixed name .* or an absolute IRI/],
    },
    {
      name: 'wrong cardinality value',
      change: (m) => (m.types.concepts.relationships.broader.cardinality = 'several'),
      path: 'types.concepts.relationships.broader.cardinality',
      expected: [/expected one or many/],
    },
    {
      name: 'unknown key in a type',
      change: (m) => (m.types.concepts.colour = 'red'),
      path: 'types.concepts',
      expected: [/Unrecognized key/, /"colour"/],
    },
    {
      name: 'unknown key in a relationship',
      change: (m) => (m.types.concepts.relationships.broader.inverted = true),
      path: 'types.concepts.relationships.broader',
      expected: [/Unrecognized key/, /"inverted"/],
    },
    {
      name: 'unknown top-level key',
      change: (m) => (m.typess = {}),
      path: '(top level)',
      expected: [/Unrecognized key/, /"typess"/],
    },
    {
      name: 'template without {id}',
      change: (m) => (m.types.concepts.id = { template: 'http://x/concept/' }),
      path: 'types.concepts.id.template',
      expected: [/expected an absolute IRI with exactly one \{id\}/, /got 'http:\/\/x\/concept\/'/],
    },
    {
      name: 'template with two {id}',
      change: (m) => (m.types.concepts.id = { template: 'http://x/{id}/{id}' }),
      path: 'types.concepts.id.template',
      expected: [/exactly one \{id\}/, /got 'http:\/\/x\/\{id\}\/\{id\}'/],
    },
    {
      name: 'template that is not an absolute IRI',
      change: (m) => (m.types.concepts.id = { template: 'concept/{id}' }),
      path: 'types.concepts.id.template',
      expected: [/expected an absolute IRI/],
    },
    {
      name: 'hex base not an IRI',
      change: (m) => (m.types.concepts.id = { hex: { base: 'concepts/' } }),
      path: 'types.concepts.id.hex.base',
      expected: [/expected an absolute IRI, got 'concepts\/'/],
    },
    {
      name: 'id predicate with an unknown prefix',
      change: (m) => (m.types.concepts.id = { predicate: 'mu:uuid' }),
      path: 'types.concepts.id.predicate',
      expected: [/'mu:uuid' is neither a known prefixed name/],
    },
    {
      name: 'id with two strategies',
      change: (m) => (m.types.concepts.id = { template: 'http://x/{id}', hex: true }),
      path: 'types.concepts.id',
      expected: [
        /expected \{ predicate: P \}, \{ template: .* \}, \{ hex: true \}, \{ hex: \{ base: IRI \} \} or \{ local: \{ base: IRI \} \}/,
      ],
    },
    {
      name: 'local base not an IRI',
      change: (m) => (m.types.concepts.id = { local: { base: 'concepts/' } }),
      path: 'types.concepts.id.local.base',
      expected: [/expected an absolute IRI, got 'concepts\/'/],
    },
    {
      name: 'local without a base',
      change: (m) => (m.types.concepts.id = { local: true }),
      path: 'types.concepts.id',
      expected: [/\{ local: \{ base: IRI \} \}/],
    },
    {
      name: 'local with an empty base',
      change: (m) => (m.types.concepts.id = { local: { base: '' } }),
      path: 'types.concepts.id.local.base',
      expected: [/expected an absolute IRI/],
    },
    {
      name: 'no id strategy anywhere',
      change: (m) => delete m.types.concepts.id,
      path: 'types.concepts.id',
      expected: [/no id strategy/, /top-level id/],
    },
    {
      name: 'a bad default id strategy',
      change: (m) => {
        delete m.types.concepts.id;
        m.id = { template: 'http://x/' };
      },
      path: 'id.template',
      expected: [/exactly one \{id\}/],
    },
    {
      name: 'attribute named id',
      change: (m) => (m.types.concepts.attributes.id = 'skos:notation'),
      path: 'types.concepts.attributes.id',
      expected: [/'id' is reserved by JSON:API/],
    },
    {
      name: 'attribute named type',
      change: (m) => (m.types.concepts.attributes.type = 'skos:notation'),
      path: 'types.concepts.attributes.type',
      expected: [/'type' is reserved by JSON:API/],
    },
    {
      name: 'relationship named links',
      change: (m) =>
        (m.types.concepts.relationships.links = { predicate: 'skos:related', target: 'concepts', cardinality: 'many' }),
      path: 'types.concepts.relationships.links',
      expected: [/'links' is reserved by JSON:API/],
    },
    {
      name: 'field name that is not a member name',
      change: (m) => (m.types.concepts.attributes['pref label'] = 'skos:prefLabel'),
      path: 'types.concepts.attributes.pref label',
      expected: [/'pref label' is not a JSON:API member name/, /letters, digits, - and _/],
    },
    {
      name: 'field used as both attribute and relationship',
      change: (m) =>
        (m.types.concepts.relationships.label = { predicate: 'skos:related', target: 'concepts', cardinality: 'many' }),
      path: 'types.concepts.relationships.label',
      expected: [/'label' is also an attribute/, /one namespace/],
    },
    {
      name: 'invalid type name',
      change: (m) => (m.types['-concepts'] = { class: 'skos:Concept', id: { hex: true } }),
      path: 'types.-concepts',
      expected: [/'-concepts' is not a usable type name/, /letters, digits, - and _/],
    },
    {
      name: 'type name with a slash',
      change: (m) => (m.types['a/b'] = { class: 'skos:Concept', id: { hex: true } }),
      path: 'types.a/b',
      expected: [/'a\/b' is not a usable type name/],
    },
    {
      name: 'reserved type name api',
      change: (m) => (m.types.api = { class: 'skos:Concept', id: { hex: true } }),
      path: 'types.api',
      expected: [/'api' is not a usable type name/, /not api or health/],
    },
    {
      name: 'reserved type name health',
      change: (m) => (m.types.health = { class: 'skos:Concept', id: { hex: true } }),
      path: 'types.health',
      expected: [/'health' is not a usable type name/],
    },
    {
      name: 'invalid language tag',
      change: (m) => (m.types.concepts.attributes.label.language = 'en_US'),
      path: 'types.concepts.attributes.label.language',
      expected: [/expected a language tag such as en or pt-BR/],
    },
    {
      name: 'strictLanguage without a language',
      change: (m) => (m.types.concepts.attributes.label = { predicate: 'skos:prefLabel', strictLanguage: true }),
      path: 'types.concepts.attributes.label.strictLanguage',
      expected: [/needs a language tag \(language: de\), not no language/],
    },
    {
      name: "strictLanguage with language '*'",
      change: (m) => Object.assign(m.types.concepts.attributes.label, { language: '*', strictLanguage: false }),
      path: 'types.concepts.attributes.label.strictLanguage',
      expected: [/needs a language tag \(language: de\), not '\*'/],
    },
    {
      name: 'strictLanguage not a boolean',
      change: (m) => (m.types.concepts.attributes.label.strictLanguage = 'yes'),
      path: 'types.concepts.attributes.label',
      expected: [/language\?, strictLanguage\?, many\?/],
    },
    {
      name: "language '**'",
      change: (m) => (m.types.concepts.attributes.label.language = '**'),
      path: 'types.concepts.attributes.label.language',
      expected: [/expected a language tag such as en or pt-BR, or '\*'/],
    },
    {
      name: 'defaultSort naming an unknown field',
      change: (m) => (m.types.concepts.defaultSort = ['nope']),
      path: 'types.concepts.defaultSort.0',
      expected: [/'concepts' has no attribute 'nope'/],
    },
    {
      name: 'defaultSort: the second field descending and unknown',
      change: (m) => (m.types.concepts.defaultSort = ['label', '-broader.nope']),
      path: 'types.concepts.defaultSort.1',
      expected: [/'concepts' has no attribute 'nope'/],
    },
    {
      name: 'defaultSort ending on a relationship',
      change: (m) => (m.types.concepts.defaultSort = ['broader']),
      path: 'types.concepts.defaultSort.0',
      expected: [/ends on the relationship 'broader'/],
    },
    {
      name: 'defaultSort that is not a list',
      change: (m) => (m.types.concepts.defaultSort = '-label'),
      path: 'types.concepts.defaultSort',
      expected: [/expected array/],
    },
    {
      // Today every use of the prefix is blamed instead ("'skos:Concept' is neither a known
      // prefixed name (prefixes: skos)"), which contradicts itself.
      name: 'prefix that is not an IRI',
      change: (m) => (m.prefixes.skos = 'skos'),
      path: 'prefixes.skos',
      expected: [/absolute IRI/],
    },
    {
      name: 'types missing',
      change: (m) => delete m.types,
      path: 'types',
      expected: [/expected a map of type names to type definitions/],
    },
    {
      name: 'types a list',
      change: (m) => (m.types = [m.types.concepts]),
      path: 'types',
      expected: [/expected a map of type names to type definitions/],
    },
  ])('$name → $path', ({ change, path, expected }) => {
    const raw = base();
    change(raw);
    const error = mappingError(() => compileMapping(raw, 'test.yaml'));
    expect(error.file).toBe('test.yaml');
    const problem = error.problems.find((p) => p.startsWith(`${path}: `));
    expect(problem, `a problem at ${path} among ${JSON.stringify(error.problems)}`).toBeDefined();
    for (const pattern of expected) expect(problem).toMatch(pattern);
    expect(error.message).toContain(`  test.yaml: ${problem}`);
  });

  it('a document that is not a mapping at all', () => {
    expect(mappingError(() => compileMapping(null, 'test.yaml')).problems).toEqual([
      expect.stringMatching(/^\(top level\): .*expected object/),
    ]);
    expect(mappingError(() => compileMapping('types', 'test.yaml')).problems).toEqual([
      expect.stringMatching(/^\(top level\): .*expected object/),
    ]);
  });

  it('reports several faults of one mapping together', () => {
    const raw = base();
    raw.types.concepts.class = 'Concept';
    raw.types.concepts.relationships.broader.target = 'nope';
    raw.types.concepts.attributes.type = 'skos:notation';
    raw.types.api = { class: 'skos:Concept' };
    raw.types.concepts.defaultSort = ['nope'];
    const error = mappingError(() => compileMapping(raw, 'test.yaml'));
    expect(error.problems.map((p) => p.slice(0, p.indexOf(': '))).sort()).toEqual(
      [
        'types.concepts.class',
        'types.concepts.attributes.type',
        'types.concepts.relationships.broader.target',
        'types.concepts.defaultSort.0',
        'types.api',
        'types.api.id',
        'types',
      ].sort(),
    );
  });

  it('names the types a mapping has once, however many relationships target one it lacks', () => {
    const raw = base();
    raw.types.schemes = { class: 'skos:ConceptScheme', id: { hex: true } };
    raw.types.concepts.relationships.broader.target = 'old-name';
    raw.types.concepts.relationships.narrower = { predicate: 'skos:narrower', target: 'old-name', cardinality: 'many' };
    const error = mappingError(() => compileMapping(raw, 'test.yaml'));
    const lists = error.problems.filter((p) => p.includes('concepts, '));
    expect(lists).toEqual([`types: the types of this mapping are ${Object.keys(raw.types).join(', ')}`]);
    expect(error.problems.filter((p) => p.endsWith("'old-name' is not a type of this mapping"))).toHaveLength(2);
  });

  it('reports several schema faults together', () => {
    const raw = base();
    delete raw.types.concepts.class;
    raw.types.concepts.relationships.broader.cardinality = 'lots';
    raw.types.concepts.attributes.label.language = 'not a tag';
    const error = mappingError(() => compileMapping(raw, 'test.yaml'));
    expect(error.problems).toHaveLength(3);
    expect(error.problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^types\.concepts\.class: /),
        expect.stringMatching(/^types\.concepts\.relationships\.broader\.cardinality: expected one or many/),
        expect.stringMatching(/^types\.concepts\.attributes\.label\.language: expected a language tag/),
      ]),
    );
  });

  it('a defaultSort through a relationship with an unknown target is a problem, not a crash', () => {
    const raw = base();
    raw.types.concepts.relationships.broader.target = 'nope';
    raw.types.concepts.defaultSort = ['broader.label'];
    const error = mappingError(() => compileMapping(raw, 'test.yaml'));
    expect(error.problems).toContainEqual(
      expect.stringMatching(/^types\.concepts\.relationships\.broader\.target: 'nope' is not a type/),
    );
  });
});
