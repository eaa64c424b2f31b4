import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { convertDomain, DomainError } from '../../../src/import-mu/convert-domain.js';
import { mappingYaml } from '../../../src/import-mu/mapping-yaml.js';
import { compileMapping } from '../../../src/mapping/load-mapping.js';
import { thrown } from '../../support/thrown.js';

const FIXTURE = 'test/fixtures/mu/domain.json';
const fixture = JSON.parse(readFileSync(FIXTURE, 'utf8'));
const XSD = 'http://www.w3.org/2001/XMLSchema#';

/** A one-resource domain with the given attributes and relationships, and anything else for the resource. */
const domainWith = (resource: Record<string, unknown>, prefixes: Record<string, string> = {}) => ({
  version: '0.1',
  prefixes: { ex: 'http://example.org/', ...prefixes },
  resources: { things: { class: 'ex:Thing', 'new-resource-base': 'http://example.org/things/', ...resource } },
});

describe('convertDomain: the fixture domain', () => {
  const conversion = convertDomain(fixture);
  const mapping = compileMapping(conversion.mapping, FIXTURE);

  it('makes one type per resource, named by its path (mu’s JSON:API type), with mu:uuid ids', () => {
    expect([...mapping.types.keys()]).toEqual(['people', 'accounts', 'books', 'libraries']);
    for (const type of mapping.types.values())
      expect(type.id).toEqual({ kind: 'predicate', predicate: 'http://mu.semte.ch/vocabularies/core/uuid' });
    expect(mapping.types.get('libraries')!.classIri).toBe('http://schema.org/Library'); // mu's { type: url } form
  });

  it('converts every relationship, resolving targets by mu name, with inverse and self references', () => {
    const rel = (type: string, name: string) => {
      const { target, cardinality, inverse, predicate } = mapping.types.get(type)!.relationships.get(name)!;
      return { target, cardinality, inverse, predicate };
    };
    expect(rel('people', 'accounts')).toEqual({
      target: 'accounts',
      cardinality: 'many',
      inverse: false,
      predicate: 'http://xmlns.com/foaf/0.1/account',
    });
    expect(rel('accounts', 'owner')).toMatchObject({ target: 'people', cardinality: 'one', inverse: true });
    expect(rel('people', 'mentor')).toMatchObject({ target: 'people', cardinality: 'one', inverse: false });
    expect(rel('people', 'mentees')).toMatchObject({ target: 'people', cardinality: 'many', inverse: true });
    expect(rel('books', 'library')).toMatchObject({
      target: 'libraries', // mu name 'library', on the path 'libraries'
      predicate: 'http://mu.semte.ch/vocabularies/ext/holds', // mu's { type: prefix } form
      inverse: true,
    });
    expect(rel('libraries', 'holdings')).toMatchObject({ cardinality: 'many' }); // "Many": mu ignores case
  });

  it('lists everything it could not convert, and says so in the YAML too', () => {
    expect(conversion.skipped).toEqual([
      expect.stringMatching(/^resources\.drafts\.class: 'draft:Draft' uses a prefix .*skipped/),
      expect.stringMatching(/^resources\.people\.features: 'include-uri'/),
      expect.stringMatching(/^resources\.books\.features: 'no-pagination-defaults'/),
      expect.stringMatching(/^resources\.books\.attributes\.isbn\.type: 'keyword' .*served as text/),
      expect.stringMatching(/^resources\.books\.relationships\.reviews: the target 'review'/),
    ]);
    const yaml = mappingYaml(conversion, FIXTURE);
    for (const line of conversion.skipped) expect(yaml).toContain(`#   - ${line}`);
    expect(mapping.types.get('books')!.attributes.get('isbn')!.datatype).toBeUndefined();
  });

  it('notes mu’s internal name and resource base on each type', () => {
    expect(conversion.typeNotes.get('libraries')).toEqual([
      'mu name: library',
      expect.stringContaining('http://example.org/libraries/'),
    ]);
  });

  it('writes YAML that reads back as the same mapping', () => {
    expect(parseYaml(mappingYaml(conversion, FIXTURE))).toEqual(conversion.mapping);
  });
});

describe('convertDomain: attribute types', () => {
  it.each([
    ['string', {}],
    ['url', {}],
    ['number', { datatype: `${XSD}decimal` }],
    ['integer', { datatype: `${XSD}integer` }],
    ['float', { datatype: `${XSD}float` }],
    ['boolean', { datatype: `${XSD}boolean` }],
    ['date', { datatype: `${XSD}date` }],
    ['datetime', { datatype: `${XSD}dateTime` }],
    ['time', { datatype: `${XSD}time` }],
    ['g-year', { datatype: `${XSD}gYear` }],
    ['geometry', { datatype: 'http://www.opengis.net/ont/geosparql#wktLiteral' }],
    ['string-set', { many: true }],
    ['uri-set', { many: true }],
    ['language-string', { language: '*', many: false }],
    ['language-string-set', { language: '*', many: true }],
    ['DateTime', { datatype: `${XSD}dateTime` }],
  ])('%s', (muType, expected) => {
    const conversion = convertDomain(domainWith({ attributes: { value: { type: muType, predicate: 'ex:value' } } }));
    const attribute = compileMapping(conversion.mapping, 'test').types.get('things')!.attributes.get('value')!;
    const { predicate, datatype, language, many } = attribute;
    expect({ predicate, datatype, language, many }).toEqual({
      predicate: 'http://example.org/value',
      datatype: undefined,
      language: undefined,
      many: false,
      ...expected,
    });
    expect(conversion.skipped).toEqual([]);
  });

  it('serves an unknown type as text, and says so', () => {
    const conversion = convertDomain(domainWith({ attributes: { value: { type: 'constructor', predicate: 'ex:v' } } }));
    expect(conversion.mapping.types.things!.attributes).toEqual({ value: 'ex:v' });
    expect(conversion.skipped).toEqual([expect.stringContaining("'constructor' is not a type")]);
  });
});

describe('convertDomain: what it skips, and why', () => {
  it.each([
    [
      'an attribute name that is reserved',
      { attributes: { id: { type: 'string', predicate: 'ex:id' } } },
      'resources.things.attributes.id',
    ],
    [
      'a relationship named like an attribute',
      {
        attributes: { name: { type: 'string', predicate: 'ex:name' } },
        relationships: { name: { predicate: 'ex:n', target: 'things', cardinality: 'one' } },
      },
      'resources.things.relationships.name',
    ],
    [
      'a bad cardinality',
      { relationships: { parts: { predicate: 'ex:part', target: 'things', cardinality: 'several' } } },
      'resources.things.relationships.parts',
    ],
    [
      'a predicate with an undeclared prefix',
      { attributes: { name: { type: 'string', predicate: 'nope:name' } } },
      'resources.things.attributes.name',
    ],
    ['an unknown key', { 'on-path': 'things' }, 'resources.things.on-path'],
    ['an attribute that is not an object', { attributes: { name: 'ex:name' } }, 'resources.things.attributes.name'],
  ])('%s', (_, resource, where) => {
    const conversion = convertDomain(domainWith(resource));
    expect(conversion.skipped).toEqual([expect.stringMatching(new RegExp(`^${where.replaceAll('.', '\\.')}: `))]);
    compileMapping(conversion.mapping, 'test');
  });

  it('lowercases attribute names, as mu does', () => {
    const conversion = convertDomain(domainWith({ attributes: { FullName: { type: 'string', predicate: 'ex:n' } } }));
    expect(Object.keys(conversion.mapping.types.things!.attributes!)).toEqual(['fullname']);
  });

  it('drops a relationship whose target resource was skipped', () => {
    const domain = domainWith({
      relationships: { parts: { predicate: 'ex:part', target: 'bad', cardinality: 'many' } },
    });
    (domain.resources as Record<string, unknown>).bad = { class: 'nope:Bad', 'new-resource-base': 'http://x/' };
    const conversion = convertDomain(domain);
    expect(conversion.mapping.types.things!.relationships ?? {}).toEqual({});
    expect(conversion.skipped).toEqual([
      expect.stringMatching(/^resources\.bad\.class: /),
      expect.stringMatching(/^resources\.things\.relationships\.parts: the target 'bad'/),
    ]);
  });

  it('keeps a domain’s own mu prefix, writing mu:uuid in full then', () => {
    const conversion = convertDomain(domainWith({}, { mu: 'http://example.org/mine/' }));
    expect(conversion.mapping.id).toEqual({ predicate: 'http://mu.semte.ch/vocabularies/core/uuid' });
    expect(conversion.mapping.prefixes!.mu).toBe('http://example.org/mine/');
  });

  it('reports a version other than 0.1 and converts it all the same', () => {
    const conversion = convertDomain({ ...domainWith({}), version: '0.2' });
    expect(conversion.skipped).toEqual([expect.stringMatching(/^version: '0\.2'/)]);
    expect(Object.keys(conversion.mapping.types)).toEqual(['things']);
  });

  it.each([[[]], [{}], [{ resources: 3 }], ['domain']])('refuses %j: no domain at all', (raw) => {
    expect(thrown(DomainError, () => convertDomain(raw)).problems.length).toBeGreaterThan(0);
  });
});
