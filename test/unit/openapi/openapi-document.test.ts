import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, test } from 'vitest';
import { DEFAULT_DATASET_OPTIONS } from '../../../src/dataset.js';
import { JsonApiError } from '../../../src/errors/json-api-error.js';
import { loadMapping } from '../../../src/mapping/load-mapping.js';
import type { Mapping, ResourceType } from '../../../src/mapping/model.js';
import { MAX_HOPS } from '../../../src/mapping/resolve-path.js';
import { openApiDocument } from '../../../src/openapi/openapi-document.js';
import { planRequest } from '../../../src/plan/plan-request.js';
import { FILTER_OPERATORS, parseFilter } from '../../../src/request/parse-filter.js';
import { parseInclude } from '../../../src/request/parse-include.js';
import { parsePath } from '../../../src/request/parse-path.js';
import { parseQuery } from '../../../src/request/parse-query.js';
import { parseSort } from '../../../src/request/parse-sort.js';

/** A value a filter of the path accepts, by the values schema the document names for it. */
const VALUE_BY_KIND: Record<string, string> = {
  text: 'x',
  id: '41',
  relationship: '41',
  integer: '7',
  decimal: '1.5',
  double: '1.5',
  float: '1.5',
  boolean: 'true',
  date: '2016-01-01Z',
  dateTime: '2016-01-01T00:00:00Z',
  time: '12:00:00',
  gYear: '2016',
  gYearMonth: '2016-01',
};

const refused = (run: () => unknown): boolean => {
  try {
    run();
    return false;
  } catch (error) {
    if (error instanceof JsonApiError && error.status === 400) return true;
    throw error;
  }
};

/** The type a dot path of relationships from `type` ends on. */
function endOf(mapping: Mapping, type: ResourceType, path: string): ResourceType {
  return path.split('.').reduce((from, name) => mapping.types.get(from.relationships.get(name)!.target)!, type);
}

/**
 * What a client could try to sort `type` by: `id`, and every attribute and relationship name at the
 * end of each chain of up to `maxHops` relationships, walked here from the mapping itself.
 */
function candidateSortFields(mapping: Mapping, type: ResourceType, maxHops: number): string[] {
  const fields = ['id'];
  let level: { prefix: string; end: ResourceType }[] = [{ prefix: '', end: type }];
  for (let hops = 0; hops <= maxHops; hops++) {
    const next: typeof level = [];
    for (const { prefix, end } of level) {
      for (const name of end.attributes.keys()) fields.push(prefix + name);
      for (const [name, relationship] of end.relationships) {
        fields.push(prefix + name);
        const target = mapping.types.get(relationship.target);
        if (target) next.push({ prefix: `${prefix}${name}.`, end: target });
      }
    }
    level = next;
  }
  return fields;
}

describe.each(['mappings/sample.yaml', 'mappings/qudt.yaml', 'test/fixtures/real-shapes.yaml'])('%s', (file) => {
  let mapping: Mapping;
  let document: any;
  beforeAll(async () => {
    mapping = await loadMapping(file);
    document = openApiDocument(mapping, { dataset: 'd', serverUrl: '/', plan: DEFAULT_DATASET_OPTIONS });
  });

  test('is deterministic; its version is the server’s, and its digest changes with its content', () => {
    const again = openApiDocument(mapping, { dataset: 'd', serverUrl: '/', plan: DEFAULT_DATASET_OPTIONS });
    expect(again).toEqual(document);
    const smaller = openApiDocument(mapping, {
      dataset: 'd',
      serverUrl: '/',
      plan: { ...DEFAULT_DATASET_OPTIONS, page: { defaultSize: 5, maxSize: 10 } },
    }) as any;
    expect(smaller.info['x-digest']).not.toBe(document.info['x-digest']);
    expect(document.info.version).toBe(JSON.parse(readFileSync('package.json', 'utf8')).version);
  });

  test('summaries read as a person writes them: List trade activities, Get one trade activity', () => {
    const summaries: string[] = [];
    for (const item of Object.values(document.paths) as any[]) summaries.push(item.get.summary);
    for (const summary of summaries) {
      expect(summary).not.toMatch(/\bone of\b/);
      expect(summary).toMatch(/^(List|Get|Start) /);
    }
    for (const type of mapping.types.keys()) {
      expect(document.paths[`/${type}`].get.summary).toBe(`List ${type.replaceAll('-', ' ')}`);
      const one = document.paths[`/${type}/{id}`].get.summary as string;
      expect(one).toMatch(/^Get one [a-z0-9 ]+$/);
      expect(one).not.toContain('-');
    }
  });

  test('every link schema shows an example of this API’s links: a path from the root, never ../', () => {
    const links: any[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object') {
        if ((node as any).format === 'uri-reference') links.push(node);
        Object.values(node).forEach(walk);
      }
    };
    walk(document.components.schemas);
    expect(links.length).toBeGreaterThan(0);
    for (const schema of links) {
      expect(schema.examples, JSON.stringify(schema)).toHaveLength(1);
      expect(schema.examples[0]).toMatch(/^\//);
    }
  });

  test('the defaults the docs page’s client fills in make a request the server takes, for every operation', () => {
    const parameters = document.components.parameters as Record<string, any>;
    for (const [path, item] of Object.entries(document.paths) as [string, any][]) {
      if (path === '/') continue;
      const query = (item.get.parameters as any[])
        .map((p) => (p.$ref ? parameters[p.$ref.replace('#/components/parameters/', '')] : p))
        .filter((p) => p.in === 'query' && (p.schema?.default !== undefined || p.example !== undefined))
        .map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(String(p.example ?? p.schema.default))}`)
        .join('&');
      const route = parsePath(path.replace('{id}', '0101'));
      // A 400 is the parameters' fault; a 404 would be the made-up id's (a type whose ids are the hex of whole IRIs).
      let status = 200;
      try {
        planRequest(mapping, { route, query: parseQuery(query) }, DEFAULT_DATASET_OPTIONS);
      } catch (error) {
        status = (error as JsonApiError).status;
      }
      expect(status, `${path}?${query}`).not.toBe(400);
    }
  });

  test('the sort fields it lists are exactly those parseSort takes, each way', () => {
    for (const type of mapping.types.values()) {
      const items = document.components.parameters[`${type.name}.sort`].schema.items;
      if (!items.enum) continue;
      for (const field of items.enum)
        expect(
          refused(() => parseSort(field, mapping, type)),
          field,
        ).toBe(false);
      // and every field parseSort takes is listed: id, the attributes, and the relationships (which
      // it refuses) at the end of every chain, one relationship beyond the limit included
      for (const field of candidateSortFields(mapping, type, MAX_HOPS + 1)) {
        if (refused(() => parseSort(field, mapping, type))) continue;
        expect(items.enum, field).toContain(field);
        expect(items.enum, `-${field}`).toContain(`-${field}`);
      }
    }
  });

  test('every include path it lists is one parseInclude takes, up to the depth and no further', () => {
    let deeperChecked = 0;
    for (const type of mapping.types.values()) {
      const schema = document.components.parameters[`${type.name}.include`].schema;
      if (!schema.items.enum) continue;
      for (const path of schema.items.enum)
        expect(
          refused(() => parseInclude(path, mapping, type, { maxDepth: DEFAULT_DATASET_OPTIONS.includeDepth })),
          path,
        ).toBe(false);
      // a listed path of the full depth, one real relationship longer: only the depth can refuse it
      for (const deepest of schema.items.enum) {
        if (deepest.split('.').length !== DEFAULT_DATASET_OPTIONS.includeDepth) continue;
        const next = endOf(mapping, type, deepest).relationships.keys().next();
        if (next.done) continue;
        const deeper = `${deepest}.${next.value}`;
        expect(
          refused(() => parseInclude(deeper, mapping, type, { maxDepth: DEFAULT_DATASET_OPTIONS.includeDepth })),
          deeper,
        ).toBe(true);
        deeperChecked++;
      }
    }
    expect(deeperChecked, 'a listed path of the full depth whose end type has a relationship').toBeGreaterThan(0);
  });

  test('every filter path takes exactly the operators it lists, as parseFilter decides', () => {
    const schemas = document.components.schemas;
    for (const type of mapping.types.values()) {
      const parameter = document.components.parameters[`${type.name}.filter`];
      const object = parameter.schema.anyOf ? parameter.schema.anyOf[1] : parameter.schema;
      if (!object.properties) continue;
      for (const [path, values] of Object.entries<any>(object.properties)) {
        const kind = values.$ref.replace('#/components/schemas/filter.', '');
        const operators = Object.keys(schemas[`filter.${kind}`].anyOf[1].properties);
        for (const operator of FILTER_OPERATORS) {
          const value = operator === 'exists' ? 'true' : VALUE_BY_KIND[kind];
          expect(value, `a value for ${kind}`).toBeDefined();
          const name = `filter[${path}][${operator}]`;
          const parameters = [{ name, members: [path, operator], value: value! }];
          expect(
            refused(() => parseFilter(parameters, mapping, type)),
            `${type.name} ${name}`,
          ).toBe(!operators.includes(operator));
        }
      }
    }
  });

  test('its schemas compile, and a resource of each type with every field null or empty validates', () => {
    const ajv = new Ajv2020({ strict: false, validateSchema: false });
    ajv.addSchema(document, 'doc');
    for (const type of mapping.types.values()) {
      const validate = ajv.compile({ $ref: `doc#/components/schemas/${type.name}` });
      const attributes = Object.fromEntries(
        [...type.attributes.values()].map((a) => [a.name, a.language === '*' ? {} : a.many ? [] : null]),
      );
      const resource = { type: type.name, id: 'x', attributes, links: { self: `/${type.name}/x` } };
      expect(validate(resource), JSON.stringify(validate.errors)).toBe(true);
      expect(validate({ ...resource, type: 'other' })).toBe(false);
      expect(validate({ ...resource, attributes: { ...attributes, unknown: 1 } })).toBe(false);
    }
  });
});

describe('attribute schemas', () => {
  test.each([
    ['integer', { datatype: 'http://www.w3.org/2001/XMLSchema#int' }, [7, '9007199254740993', null], [1.5, true]],
    ['decimal', { datatype: 'http://www.w3.org/2001/XMLSchema#decimal' }, [1.5, '0.1234567890123456789', null], [true]],
    ['boolean', { datatype: 'http://www.w3.org/2001/XMLSchema#boolean' }, [true, false, null], [1]],
    ['date', { datatype: 'http://www.w3.org/2001/XMLSchema#date' }, ['2016-01-01Z', null], [2016, true]],
    ['no datatype', {}, ['x', 5, true, null], [{}]],
    ['language', { language: 'en' }, ['Metre', null], [5]],
    ['many', { many: true }, [[], ['a', 2]], [null, 'a']],
    ['every language', { language: '*' }, [{}, { en: 'Metre', und: 'm' }], [null, { en: ['Metre'] }]],
    ['every language, many', { language: '*', many: true }, [{ en: ['Metre', 'Meter'] }], [{ en: 'Metre' }]],
  ])('%s', async (_, attribute, valid, invalid) => {
    const mapping: Mapping = {
      source: 'test',
      types: new Map([
        [
          't',
          {
            name: 't',
            classIri: 'http://x/T',
            id: { kind: 'hex', base: '' },
            attributes: new Map([['a', { name: 'a', predicate: 'http://x/a', many: false, ...attribute }]]),
            relationships: new Map(),
            defaultSort: [],
          },
        ],
      ]),
    };
    const document = openApiDocument(mapping, { dataset: 'd', serverUrl: '/', plan: DEFAULT_DATASET_OPTIONS }) as any;
    const ajv = new Ajv2020({ strict: false });
    // Value schemas are shared components (`value.…`): resolve the refs into the attribute's schema.
    const schemas = document.components.schemas;
    const resolved = JSON.parse(JSON.stringify(schemas.t.properties.attributes.properties.a), (_key, value) =>
      value?.$ref?.startsWith('#/components/schemas/value.')
        ? schemas[value.$ref.slice('#/components/schemas/'.length)]
        : value,
    );
    const validate = ajv.compile(resolved);
    for (const value of valid) expect(validate(value), JSON.stringify(value)).toBe(true);
    for (const value of invalid) expect(validate(value), JSON.stringify(value)).toBe(false);
  });
});
