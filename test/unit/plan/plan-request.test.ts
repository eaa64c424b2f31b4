/**
 * planRequest as a table: route (parsePath) + query string (parseQuery) + dataset options →
 * plan, or the 404/400 it throws before any query is built. Expectations come from the mapping
 * file read as plain YAML (names, targets, cardinalities, defaultSort) and from the sample data
 * through the oracle (real ids and IRIs), not from the compiled mapping the code under test reads.
 */
import { readFileSync } from 'node:fs';
import rdf from '@rdfjs/data-model';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { type DatasetOptions, DEFAULT_DATASET_OPTIONS } from '../../../src/dataset.js';
import { JsonApiError } from '../../../src/errors/json-api-error.js';
import { loadMapping } from '../../../src/mapping/load-mapping.js';
import type { Mapping } from '../../../src/mapping/model.js';
import type { ListRequest, Paging, Plan, PlanOptions } from '../../../src/plan/plan.js';
import { planRequest } from '../../../src/plan/plan-request.js';
import { encodeCursor } from '../../../src/request/cursor.js';
import type { IncludeNode } from '../../../src/request/parse-include.js';
import { parsePath } from '../../../src/request/parse-path.js';
import { parseQuery } from '../../../src/request/parse-query.js';
import { SAMPLE_DATA } from '../../support/global-setup.js';
import { CONCEPT_FILTERS, CONCEPT_SORT_FIELDS } from '../../support/limit-cases.js';
import { Oracle } from '../../support/oracle.js';
import { thrown as thrownError } from '../../support/thrown.js';
import { titled } from '../../support/titled.js';

const MAPPING_FILE = 'mappings/sample.yaml';
const CURSOR_PROFILE = 'https://jsonapi.org/profiles/ethanresnick/cursor-pagination';
const XSD_DATE = 'http://www.w3.org/2001/XMLSchema#date';

/** The mapping file as written: the independent side for names, targets, cardinalities and default sorts. */
interface RawType {
  id?: Record<string, unknown>;
  defaultSort?: string[];
  relationships?: Record<string, { target: string; cardinality: 'one' | 'many' }>;
}
const RAW: { types: Record<string, RawType> } = parseYaml(readFileSync(MAPPING_FILE, 'utf8'));
const TYPE_NAMES = Object.keys(RAW.types);
const RELATIONSHIPS = TYPE_NAMES.flatMap((type) =>
  Object.entries(RAW.types[type]!.relationships ?? {}).map(([name, rel]) => ({ type, name, ...rel })),
);
const TO_ONE = RELATIONSHIPS.filter((r) => r.cardinality === 'one');
const TO_MANY = RELATIONSHIPS.filter((r) => r.cardinality === 'many');
/** `-a,b` as written in the mapping or a query → what a plan's sort keys should read. */
const keysOf = (fields: readonly string[]) =>
  fields.map((raw) => ({ field: raw.replace(/^-/, ''), descending: raw.startsWith('-') }));

let mapping: Mapping;
let oracle: Oracle;
/** A real member id of each type (the plan does not ask the store; a real id keeps the cases honest). */
let idOf: (type: string) => string;

beforeAll(async () => {
  mapping = await loadMapping(MAPPING_FILE);
  oracle = Oracle.fromFile(SAMPLE_DATA, mapping);
  idOf = (type) => oracle.members(type)[0]!.id;
});

const thrown = (fn: () => unknown) => thrownError(JsonApiError, fn);

function plan(
  path: string,
  query = '',
  options: PlanOptions = DEFAULT_DATASET_OPTIONS,
  profiles: readonly string[] = [],
): Plan {
  return planRequest(mapping, { route: parsePath(path), query: parseQuery(query), profiles }, options);
}

/** A path with `{type}` placeholders replaced by a real member id of that type. */
const at = (path: string) => path.replace(/\{([a-z-]+)\}/g, (_, type: string) => idOf(type));

/** What matters of a list, by names. */
function listSummary(list: ListRequest) {
  return {
    type: list.type.name,
    ...(list.parent && { parent: { type: list.parent.type.name, relationship: list.parent.relationship.name } }),
    sort: list.sort.map((key) => ({ field: key.field, descending: key.descending })),
    filters: list.filters.length,
  };
}

/** An include tree by names: relationship → (target type, children). */
function includeSummary(nodes: readonly IncludeNode[]): unknown[] {
  return nodes.map((node) => ({
    relationship: node.relationship.name,
    type: node.type.name,
    children: includeSummary(node.children),
  }));
}

function fieldsSummary(fields: ReadonlyMap<string, ReadonlySet<string>>): Record<string, string[]> {
  return Object.fromEntries([...fields].map(([type, names]) => [type, [...names]]));
}

const asCollection = (p: Plan) => {
  expect(p.kind).toBe('collection');
  return p as Extract<Plan, { kind: 'collection' }>;
};

describe('planRequest: plan kinds', () => {
  it.each(TYPE_NAMES)(
    'GET /%s is a collection of that type, first offset page of the default size, counted, no include',
    (type) => {
      const p = asCollection(plan(`/${type}`));
      expect(listSummary(p.list)).toEqual({ type, sort: keysOf(RAW.types[type]!.defaultSort ?? []), filters: 0 });
      expect(p.paging).toEqual({
        page: { kind: 'offset', number: 0, size: DEFAULT_DATASET_OPTIONS.page.defaultSize },
        count: true,
      });
      expect('include' in p.view).toBe(false);
      expect(fieldsSummary(p.view.fields)).toEqual({});
    },
  );

  it.each(TYPE_NAMES)('GET /%s/<id> is that resource, looked up by what its id strategy says', (type) => {
    const member = oracle.members(type)[0]!;
    const p = plan(`/${type}/${member.id}`);
    expect(p.kind).toBe('resource');
    const resource = p as Extract<Plan, { kind: 'resource' }>;
    expect(resource.type.name).toBe(type);
    expect(resource.id).toBe(member.id);
    // The predicate strategy looks the id literal up; template and hex give the IRI itself.
    // (A type without its own `id` takes the file's default, the predicate strategy.)
    const strategy = RAW.types[type]!.id ?? { predicate: 'default' };
    expect(resource.lookup).toEqual(
      'predicate' in strategy ? { kind: 'literal', value: member.id } : { kind: 'iri', iri: member.iri },
    );
    expect('include' in resource.view).toBe(false);
  });

  it.each(TO_ONE)(
    'GET /$type/<id>/$name (to-one → $target) is related-one: a list of the target off the parent, unsorted, unfiltered',
    ({ type, name, target }) => {
      const p = plan(`/${type}/${idOf(type)}/${name}`);
      expect(p.kind).toBe('related-one');
      const related = p as Extract<Plan, { kind: 'related-one' }>;
      expect(listSummary(related.list)).toEqual({
        type: target,
        parent: { type, relationship: name },
        sort: [],
        filters: 0,
      });
      expect('paging' in related).toBe(false);
    },
  );

  it.each(TO_MANY)(
    "GET /$type/<id>/$name (to-many → $target) is a collection of the target with the parent, in the target's default sort",
    ({ type, name, target }) => {
      const p = asCollection(plan(`/${type}/${idOf(type)}/${name}`));
      expect(listSummary(p.list)).toEqual({
        type: target,
        parent: { type, relationship: name },
        sort: keysOf(RAW.types[target]!.defaultSort ?? []),
        filters: 0,
      });
      expect(p.paging).toEqual({
        page: { kind: 'offset', number: 0, size: DEFAULT_DATASET_OPTIONS.page.defaultSize },
        count: true,
      });
    },
  );

  it.each(TO_ONE.flatMap((r) => ['links', 'relationships'].map((form) => ({ ...r, form }))))(
    'GET /$type/<id>/$form/$name (to-one) is unpaged linkage',
    ({ type, name, target, form }) => {
      const p = plan(`/${type}/${idOf(type)}/${form}/${name}`);
      expect(p).toMatchObject({ kind: 'linkage', toMany: false });
      const linkage = p as Extract<Plan, { kind: 'linkage' }>;
      expect(linkage.paging).toBeUndefined();
      expect(listSummary(linkage.list)).toEqual({
        type: target,
        parent: { type, relationship: name },
        sort: [],
        filters: 0,
      });
    },
  );

  it.each(TO_MANY.flatMap((r) => ['links', 'relationships'].map((form) => ({ ...r, form }))))(
    'GET /$type/<id>/$form/$name (to-many) is paged linkage',
    ({ type, name, target, form }) => {
      const p = plan(`/${type}/${idOf(type)}/${form}/${name}`, 'page[size]=3&page[number]=2');
      expect(p).toMatchObject({ kind: 'linkage', toMany: true });
      const linkage = p as Extract<Plan, { kind: 'linkage' }>;
      expect(linkage.paging).toEqual({ page: { kind: 'offset', number: 2, size: 3 }, count: true });
      expect(listSummary(linkage.list)).toEqual({
        type: target,
        parent: { type, relationship: name },
        sort: keysOf(RAW.types[target]!.defaultSort ?? []),
        filters: 0,
      });
    },
  );

  it.each(
    titled(
      [
        { path: '/group-national-agents/{group-national-agents}/country', type: 'group-national-agents' },
        { path: '/concepts/{concepts}/narrower-concepts', type: 'concepts' },
        { path: '/concept-schemes/{concept-schemes}/links/top-concepts', type: 'concept-schemes' },
      ],
      (row) =>
        `${row.path}: the parent's lookup is the parent id's (literal for predicate ids, the IRI for template ids)`,
    ),
  )('%s', (_, { path, type }) => {
    const member = oracle.members(type)[0]!;
    const p = plan(at(path)) as Extract<Plan, { kind: 'collection' | 'related-one' | 'linkage' }>;
    const strategy = RAW.types[type]!.id ?? { predicate: 'default' };
    expect(p.list.parent?.lookup).toEqual(
      'predicate' in strategy ? { kind: 'literal', value: member.id } : { kind: 'iri', iri: member.iri },
    );
  });
});

describe('planRequest: sort', () => {
  it.each(TYPE_NAMES)("no sort: /%s uses the type's compiled defaultSort as the mapping file writes it", (type) => {
    const p = asCollection(plan(`/${type}`));
    expect(p.list.sort).toBe(mapping.types.get(type)!.defaultSort);
    expect(listSummary(p.list).sort).toEqual(keysOf(RAW.types[type]!.defaultSort ?? []));
  });

  it('the sample has a type with a non-empty defaultSort (else the cases above prove little)', () => {
    expect(TYPE_NAMES.some((type) => (RAW.types[type]!.defaultSort ?? []).length > 0)).toBe(true);
  });

  it.each(
    titled(
      [
        { path: '/trade-activities', sort: 'id' },
        { path: '/trade-activities', sort: 'financial-year' },
        { path: '/trade-activities', sort: 'financial-year,-id' },
        { path: '/trade-activities', sort: 'origin.country.name,-concerns.label' },
        { path: '/concepts', sort: '-label,notation' },
        { path: '/trade-activities/{trade-activities}/concerns', sort: '-notation' },
        { path: '/trade-activities/{trade-activities}/links/concerns', sort: 'label' },
      ],
      (row) => `an explicit sort=${row.sort} on ${row.path} replaces the default: exactly its keys, in order`,
    ),
  )('%s', (_, { path, sort }) => {
    const p = plan(at(path), `sort=${sort}`) as Extract<Plan, { kind: 'collection' | 'linkage' }>;
    expect(listSummary(p.list).sort).toEqual(keysOf(sort.split(',')));
  });
});

describe('planRequest: filters, include, fields', () => {
  it.each(
    titled(
      [
        { path: '/trade-activities', query: '', filters: 0 },
        { path: '/trade-activities', query: 'filter[financial-year][gte]=2014-01-01Z', filters: 1 },
        {
          path: '/trade-activities',
          query:
            'filter[financial-year][gte]=2014-01-01Z&filter[destination][exists]=true&filter[concerns.label][contains]=e',
          filters: 3,
        },
        {
          path: '/trade-activities/{trade-activities}/concerns',
          query: 'filter[notation][ne]=x&filter[label][contains]=a',
          filters: 2,
        },
        { path: '/trade-activities/{trade-activities}/links/concerns', query: 'filter[notation]=0101', filters: 1 },
      ],
      (row) => `${row.path}?${row.query} has ${row.filters} filters`,
    ),
  )('%s', (_, { path, query, filters }) => {
    const p = plan(at(path), query) as Extract<Plan, { kind: 'collection' | 'linkage' }>;
    expect(p.list.filters).toHaveLength(filters);
    expect(p.list.filters.map((f) => f.parameter)).toEqual([...new URLSearchParams(query).keys()]);
  });

  it.each(
    titled(
      [
        { path: '/trade-activities', query: 'include=concerns.broader-concepts,origin' },
        { path: '/trade-activities', query: 'include=concerns,concerns.broader-concepts' },
        { path: '/trade-activities/{trade-activities}', query: 'include=origin.country,amount' },
        { path: '/trade-activities/{trade-activities}/origin', query: 'include=country' },
        { path: '/trade-activities/{trade-activities}/concerns', query: 'include=broader-concepts.concept-scheme' },
        { path: '/concepts', query: 'include=' },
      ],
      (row) =>
        `${row.path}?${row.query}: view.include is the tree of the paths, rooted at the primary type, each prefix once`,
    ),
  )('%s', (_, { path, query }) => {
    const p = plan(at(path), query) as Extract<Plan, { kind: 'collection' | 'resource' | 'related-one' }>;
    const root = p.kind === 'resource' ? p.type.name : p.list.type.name;
    expect(includeSummary(p.view.include!)).toEqual(expectedTree(root, new URLSearchParams(query).get('include')!));
  });

  it.each(
    titled(
      [
        { path: '/trade-activities', query: 'fields[trade-activities]=financial-year,concerns&fields[concepts]=' },
        { path: '/trade-activities/{trade-activities}', query: 'fields[trade-activities]=origin' },
        { path: '/trade-activities/{trade-activities}/amount', query: 'fields[amounts]=value' },
        { path: '/concepts/{concepts}/broader-concepts', query: 'fields[concepts]=label,notation' },
      ],
      (row) => `${row.path}?${row.query}: view.fields is each type with its listed fields`,
    ),
  )('%s', (_, { path, query }) => {
    const p = plan(at(path), query) as Extract<Plan, { kind: 'collection' | 'resource' | 'related-one' }>;
    const expected = Object.fromEntries(
      [...new URLSearchParams(query)].map(([name, value]) => [
        name.slice('fields['.length, -1),
        value === '' ? [] : value.split(','),
      ]),
    );
    expect(fieldsSummary(p.view.fields)).toEqual(expected);
  });

  it("a related URL's include and fields are checked against the target type, not the parent", () => {
    // origin's target (agents) has `country`, not `concerns`; the parent has `concerns`, not `country`.
    expect(
      includeSummary(
        (
          plan(at('/trade-activities/{trade-activities}/origin'), 'include=country') as Extract<
            Plan,
            { kind: 'related-one' }
          >
        ).view.include!,
      ),
    ).toHaveLength(1);
    const error = thrown(() => plan(at('/trade-activities/{trade-activities}/origin'), 'include=concerns'));
    expect(error.errors[0]).toMatchObject({ status: '400', source: { parameter: 'include' } });
    expect(error.errors[0]!.detail).toContain("group-national-agents has no relationship 'concerns'");
  });
});

/** The include tree a comma-separated list of paths should give, from the raw mapping. */
function expectedTree(root: string, include: string): unknown[] {
  type Node = { relationship: string; type: string; children: Node[] };
  const roots: Node[] = [];
  for (const path of include === '' ? [] : include.split(',')) {
    let [level, type] = [roots, root];
    for (const name of path.split('.')) {
      const target = RAW.types[type]!.relationships![name]!.target;
      let node = level.find((n) => n.relationship === name);
      if (!node) level.push((node = { relationship: name, type: target, children: [] }));
      [level, type] = [node.children, target];
    }
  }
  return roots;
}

describe('planRequest: paging and dataset options', () => {
  const SMALL: DatasetOptions = {
    ...DEFAULT_DATASET_OPTIONS,
    page: { defaultSize: 4, maxSize: 10 },
    count: false,
    includeDepth: 1,
  };

  it.each(
    titled(
      [
        {
          query: '',
          options: DEFAULT_DATASET_OPTIONS,
          page: { kind: 'offset', number: 0, size: DEFAULT_DATASET_OPTIONS.page.defaultSize },
          count: DEFAULT_DATASET_OPTIONS.count,
        },
        {
          query: 'page[number]=3',
          options: DEFAULT_DATASET_OPTIONS,
          page: { kind: 'offset', number: 3, size: DEFAULT_DATASET_OPTIONS.page.defaultSize },
          count: true,
        },
        {
          query: 'page[size]=7&page[number]=1',
          options: DEFAULT_DATASET_OPTIONS,
          page: { kind: 'offset', number: 1, size: 7 },
          count: true,
        },
        { query: '', options: SMALL, page: { kind: 'offset', number: 0, size: SMALL.page.defaultSize }, count: false },
        {
          query: `page[size]=${SMALL.page.maxSize}`,
          options: SMALL,
          page: { kind: 'offset', number: 0, size: SMALL.page.maxSize },
          count: false,
        },
      ],
      (row) =>
        `?${row.query} with page ${JSON.stringify(row.options.page)}, count ${row.options.count} → ${row.page.kind} page ${row.page.number} of ${row.page.size}, count ${row.count}`,
    ),
  )('%s', (_, { query, options, page, count }) => {
    for (const path of [
      '/trade-activities',
      at('/trade-activities/{trade-activities}/concerns'),
      at('/trade-activities/{trade-activities}/links/concerns'),
    ]) {
      const p = plan(path, query, options) as Extract<Plan, { kind: 'collection' | 'linkage' }>;
      expect(p.paging, path).toEqual({ page, count });
    }
  });

  it("a page larger than the dataset's maxSize is a 400 naming page[size], with the maximum in meta", () => {
    const error = thrown(() => plan('/trade-activities', `page[size]=${SMALL.page.maxSize + 1}`, SMALL));
    expect(error.status).toBe(400);
    expect(error.errors[0]).toMatchObject({
      status: '400',
      title: 'Page size requested is too large',
      source: { parameter: 'page[size]' },
      meta: { page: { maxSize: SMALL.page.maxSize } },
    });
    // The same size is fine under the default limits.
    expect(asCollection(plan('/trade-activities', `page[size]=${SMALL.page.maxSize + 1}`)).paging.page.size).toBe(
      SMALL.page.maxSize + 1,
    );
  });

  it("the dataset's includeDepth bounds include paths", () => {
    const error = thrown(() => plan('/trade-activities', 'include=concerns.broader-concepts', SMALL));
    expect(error.errors[0]).toMatchObject({ status: '400', source: { parameter: 'include' } });
    expect(error.errors[0]!.detail).toContain(`at most ${SMALL.includeDepth}`);
    expect(includeSummary(asCollection(plan('/trade-activities', 'include=concerns', SMALL)).view.include!)).toEqual(
      expectedTree('trade-activities', 'concerns'),
    );
    const deep = ['concerns', 'broader-concepts', 'broader-concepts', 'broader-concepts']
      .slice(0, DEFAULT_DATASET_OPTIONS.includeDepth)
      .join('.');
    expect(asCollection(plan('/trade-activities', `include=${deep}`)).view.include).toHaveLength(1);
    const tooDeep = `${deep}.broader-concepts`;
    expect(thrown(() => plan('/trade-activities', `include=${tooDeep}`)).errors[0]!.source).toEqual({
      parameter: 'include',
    });
  });

  it('the cursor profile turns the first page into a cursor page, of the default size, no cursors', () => {
    for (const path of [
      '/trade-activities',
      at('/trade-activities/{trade-activities}/concerns'),
      at('/trade-activities/{trade-activities}/links/concerns'),
    ]) {
      const p = plan(path, '', SMALL, [CURSOR_PROFILE]) as Extract<Plan, { kind: 'collection' | 'linkage' }>;
      expect(p.paging, path).toEqual({ page: { kind: 'cursor', size: SMALL.page.defaultSize }, count: SMALL.count });
    }
  });

  it('with the cursor profile, page[number] becomes a skip of number × size', () => {
    const p = asCollection(
      plan('/trade-activities', 'page[number]=3&page[size]=5', DEFAULT_DATASET_OPTIONS, [CURSOR_PROFILE]),
    );
    expect(p.paging).toEqual({ page: { kind: 'cursor', size: 5, skip: 15 }, count: true });
  });

  it('without the profile, other profiles leave offset pages as they are', () => {
    expect(
      asCollection(plan('/trade-activities', '', DEFAULT_DATASET_OPTIONS, ['https://example.org/other-profile'])).paging
        .page.kind,
    ).toBe('offset');
  });

  it("page[after] and page[before] are decoded against the list's type and sort", () => {
    const sorted = asCollection(plan('/trade-activities', 'sort=-financial-year'));
    const [a, b] = oracle.members('trade-activities');
    const value = rdf.literal('2016-01-01Z', rdf.namedNode(XSD_DATE));
    const after = encodeCursor(sorted.list, { values: [value], id: a!.id, inclusive: false });
    const before = encodeCursor(sorted.list, { values: [null], id: b!.id, inclusive: true });
    const p = asCollection(
      plan('/trade-activities', `sort=-financial-year&page[after]=${after}&page[before]=${before}`),
    );
    expect(p.paging.page).toEqual({ kind: 'cursor', size: DEFAULT_DATASET_OPTIONS.page.maxSize, after, before });
    expect(p.paging.after).toMatchObject({ id: a!.id, idValue: a!.id, inclusive: false });
    expect(p.paging.after!.values[0]!.equals(value)).toBe(true);
    expect(p.paging.before).toMatchObject({ id: b!.id, values: [null], inclusive: true });
    // Without a sort, the default sort is the list's sort: the same cursor fits it too.
    expect((asCollection(plan('/trade-activities', `page[after]=${after}`)).paging as Paging).after?.id).toBe(a!.id);
  });

  it('a cursor made for another sort is a 400 naming page[after]', () => {
    const list = asCollection(plan('/trade-activities', 'sort=id')).list;
    const cursor = encodeCursor(list, { values: [], id: oracle.members('trade-activities')[0]!.id, inclusive: false });
    const error = thrown(() => plan('/trade-activities', `sort=financial-year&page[after]=${cursor}`));
    expect(error.errors[0]).toMatchObject({ status: '400', source: { parameter: 'page[after]' } });
    expect(error.errors[0]!.detail).toContain('does not belong to this list');
  });

  it.each(
    titled(
      [
        { path: '/trade-activities/{trade-activities}', kind: 'resource' },
        { path: '/trade-activities/{trade-activities}/origin', kind: 'related-one' },
        { path: '/trade-activities/{trade-activities}/links/origin', kind: 'linkage' },
      ],
      (row) => `${row.path} is a ${row.kind} without paging, with or without the profile`,
    ),
  )('%s', (_, { path, kind }) => {
    for (const profiles of [[], [CURSOR_PROFILE]]) {
      const p = plan(at(path), '', DEFAULT_DATASET_OPTIONS, profiles);
      expect(p.kind).toBe(kind);
      expect((p as { paging?: unknown }).paging).toBeUndefined();
    }
  });
});

describe('planRequest: refused', () => {
  it.each(
    titled<{
      name: string;
      path: string;
      query?: string;
      status: number;
      title: string;
      detail: string;
      parameter?: string;
    }>(
      [
        {
          name: 'unknown type',
          path: '/nothing-here',
          status: 404,
          title: 'Not Found',
          detail: "There is no resource type 'nothing-here'",
        },
        {
          name: 'unknown type, with an id and relationship',
          path: '/nothing-here/01/x',
          status: 404,
          title: 'Not Found',
          detail: "There is no resource type 'nothing-here'",
        },
        {
          name: 'malformed predicate id (upper case)',
          path: '/trade-activities/7C1E0A42',
          status: 404,
          title: 'Not Found',
          detail: "There is no trade-activities with id '7C1E0A42'",
        },
        {
          name: 'malformed template id (not hex)',
          path: '/concepts/XY-not-hex',
          status: 404,
          title: 'Not Found',
          detail: "There is no concepts with id 'XY-not-hex'",
        },
        {
          name: 'malformed hex id (odd length)',
          path: '/countries/475',
          status: 404,
          title: 'Not Found',
          detail: "There is no countries with id '475'",
        },
        {
          name: 'hex id that is not UTF-8',
          path: '/countries/ff',
          status: 404,
          title: 'Not Found',
          detail: "There is no countries with id 'ff'",
        },
        // Ids of the hex syntax that stand for no IRI (the stores would refuse the query): 404.
        ...[
          ['INJ + U+2028', '494e4ae280a8', 'it holds U+2028, which no IRI may hold'],
          ['INJ%', '494e4a25', 'it holds a % that does not start a percent-encoding'],
          ['INJ + U+0085', '494e4ac285', 'it holds U+0085, which no IRI may hold'],
          ['U+202E', 'e280ae', 'it holds U+202E'],
          ['U+FDD0', 'efb790', 'it holds U+FDD0'],
          ['[', '5b', 'it does not follow the IRI syntax'],
        ].flatMap(([what, id, why]) =>
          ['', '/links/country', '/country'].map((rest) => ({
            name: `hex id of ${what}${rest === '' ? '' : ` (as a parent, ${rest})`}`,
            // countries have no relationships; the id is refused before the relationship is looked up
            path: `/countries/${id}${rest}`,
            status: 404,
            title: 'Not Found',
            detail: `There is no countries with id '${id}': it stands for text that is not an IRI: ${why}`,
          })),
        ),
        {
          name: 'malformed id on a related URL',
          path: '/concepts/zz/broader-concepts',
          status: 404,
          title: 'Not Found',
          detail: "There is no concepts with id 'zz'",
        },
        {
          name: 'unknown relationship',
          path: '/trade-activities/{trade-activities}/nope',
          status: 404,
          title: 'Not Found',
          detail: "trade-activities has no relationship 'nope'. Relationships: ",
        },
        {
          name: 'unknown relationship on a links URL',
          path: '/concepts/{concepts}/links/nope',
          status: 404,
          title: 'Not Found',
          detail: "concepts has no relationship 'nope'",
        },
        {
          name: 'a relationship of a type that has none',
          path: '/countries/{countries}/country',
          status: 404,
          title: 'Not Found',
          detail: 'Relationships: none.',
        },
        {
          name: 'sort on a single resource',
          path: '/trade-activities/{trade-activities}',
          query: 'sort=id',
          status: 400,
          title: 'Invalid query parameter',
          detail: 'sort applies to collections; this URL answers with a single resource',
          parameter: 'sort',
        },
        {
          name: 'page on a single resource',
          path: '/concepts/{concepts}',
          query: 'page[size]=5',
          status: 400,
          title: 'Invalid query parameter',
          detail: 'page applies to collections; this URL answers with a single resource',
          parameter: 'page[size]',
        },
        {
          name: 'filter on a single resource',
          path: '/concepts/{concepts}',
          query: 'filter[notation]=0101',
          status: 400,
          title: 'Invalid query parameter',
          detail: 'filter applies to collections; this URL answers with a single resource',
          parameter: 'filter[notation]',
        },
        {
          name: 'sort on a to-one related URL',
          path: '/trade-activities/{trade-activities}/origin',
          query: 'sort=id',
          status: 400,
          title: 'Invalid query parameter',
          detail: 'sort applies to collections; this URL answers with a to-one relationship',
          parameter: 'sort',
        },
        {
          name: 'page on a to-one related URL',
          path: '/trade-activities/{trade-activities}/amount',
          query: 'page[number]=1',
          status: 400,
          title: 'Invalid query parameter',
          detail: 'page applies to collections; this URL answers with a to-one relationship',
          parameter: 'page[number]',
        },
        {
          name: 'filter on a to-one related URL',
          path: '/concepts/{concepts}/concept-scheme',
          query: 'filter[label][contains]=a',
          status: 400,
          title: 'Invalid query parameter',
          detail: 'filter applies to collections; this URL answers with a to-one relationship',
          parameter: 'filter[label][contains]',
        },
        {
          name: 'page on a to-one links URL',
          path: '/trade-activities/{trade-activities}/links/origin',
          query: 'page[after]=x',
          status: 400,
          title: 'Invalid query parameter',
          detail: 'page applies to collections; this URL answers with a to-one relationship',
          parameter: 'page[after]',
        },
        {
          name: 'filter on a to-one relationships URL',
          path: '/trade-activities/{trade-activities}/relationships/destination',
          query: 'filter=x',
          status: 400,
          title: 'Invalid query parameter',
          detail: 'filter applies to collections; this URL answers with a to-one relationship',
          parameter: 'filter',
        },
        {
          name: 'include on a to-many links URL',
          path: '/trade-activities/{trade-activities}/links/concerns',
          query: 'include=broader-concepts',
          status: 400,
          title: 'Invalid query parameter',
          detail: 'A relationship URL answers with resource identifiers only; include applies to resource documents',
          parameter: 'include',
        },
        {
          name: 'include on a to-one links URL',
          path: '/trade-activities/{trade-activities}/links/origin',
          query: 'include=country',
          status: 400,
          title: 'Invalid query parameter',
          detail: 'A relationship URL answers with resource identifiers only; include',
          parameter: 'include',
        },
        {
          name: 'an empty include on a links URL',
          path: '/trade-activities/{trade-activities}/links/concerns',
          query: 'include=',
          status: 400,
          title: 'Invalid query parameter',
          detail: 'include applies to resource documents',
          parameter: 'include',
        },
        {
          name: 'fields on a links URL',
          path: '/trade-activities/{trade-activities}/links/concerns',
          query: 'fields[concepts]=label',
          status: 400,
          title: 'Invalid query parameter',
          detail: 'A relationship URL answers with resource identifiers only; fields applies to resource documents',
          parameter: 'fields[concepts]',
        },
        {
          name: 'fields on a relationships URL',
          path: '/trade-activities/{trade-activities}/relationships/amount',
          query: 'fields[amounts]=value',
          status: 400,
          title: 'Invalid query parameter',
          detail: 'fields applies to resource documents',
          parameter: 'fields[amounts]',
        },
        {
          name: 'an unknown sort field',
          path: '/trade-activities',
          query: 'sort=nope',
          status: 400,
          title: 'Invalid query parameter',
          detail: "Cannot sort trade-activities by 'nope'",
          parameter: 'sort',
        },
        {
          name: 'a sort field of the parent on a related list',
          path: '/trade-activities/{trade-activities}/concerns',
          query: 'sort=-financial-year',
          status: 400,
          title: 'Invalid query parameter',
          detail: "Cannot sort concepts by 'financial-year'",
          parameter: 'sort',
        },
        {
          name: 'a bad sort on a to-many links URL',
          path: '/trade-activities/{trade-activities}/links/concerns',
          query: 'sort=label,',
          status: 400,
          title: 'Invalid query parameter',
          detail: 'empty field',
          parameter: 'sort',
        },
        {
          name: 'an unknown filter field',
          path: '/trade-activities',
          query: 'filter[nope]=1',
          status: 400,
          title: 'Invalid query parameter',
          detail: "Cannot filter trade-activities by 'nope'",
          parameter: 'filter[nope]',
        },
        {
          name: 'fields of an unknown type',
          path: '/trade-activities',
          query: 'fields[nope]=x',
          status: 400,
          title: 'Invalid query parameter',
          detail: "There is no resource type 'nope'",
          parameter: 'fields[nope]',
        },
      ],
      (row) => `${row.name}: ${row.path}${row.query ? `?${row.query}` : ''} → ${row.status}`,
    ),
  )('%s', (_, { path, query = '', status, title, detail, parameter }) => {
    const error = thrown(() => plan(at(path), query));
    expect(error.status).toBe(status);
    expect(error.errors).toHaveLength(1);
    const [object] = error.errors;
    expect(object!.status).toBe(String(status));
    expect(object!.title).toBe(title);
    expect(object!.detail).toContain(detail);
    if (parameter === undefined) expect(object!.source).toBeUndefined();
    else expect(object!.source).toEqual({ parameter });
  });

  it('the relationships named in an unknown-relationship 404 are those of the mapping file', () => {
    for (const type of TYPE_NAMES) {
      const names = Object.keys(RAW.types[type]!.relationships ?? {});
      const error = thrown(() => plan(`/${type}/${idOf(type)}/no-such-relationship`));
      expect(error.errors[0]!.detail, type).toContain(`Relationships: ${names.join(', ') || 'none'}.`);
    }
  });
});

describe('planRequest: request limits come from options.limits', () => {
  const limits = (overrides: Partial<PlanOptions['limits']>): PlanOptions => ({
    ...DEFAULT_DATASET_OPTIONS,
    limits: { ...DEFAULT_DATASET_OPTIONS.limits, ...overrides },
  });
  /** Sortable fields of concepts, filters on concepts and include paths from concepts, distinct. */
  const SORT = CONCEPT_SORT_FIELDS;
  const FILTERS = CONCEPT_FILTERS;
  /** Paths of up to three relationships from `type`, from the mapping file, none a prefix of another. */
  const leafPaths = (type: string, depth: number): string[] =>
    depth === 0
      ? ['']
      : Object.entries(RAW.types[type]!.relationships ?? {}).flatMap(([name, { target }]) =>
          leafPaths(target, depth - 1).map((rest) => (rest === '' ? name : `${name}.${rest}`)),
        );
  const INCLUDE = leafPaths('concepts', 3);
  const sortOf = (n: number) => `sort=${SORT.slice(0, n).join(',')}`;
  const filtersOf = (n: number) =>
    FILTERS.slice(0, n)
      .map((name) => `${name}=a`)
      .join('&');
  const includeOf = (n: number) => `include=${INCLUDE.slice(0, n).join(',')}`;
  const refused = (query: string, options: PlanOptions, path = '/concepts') => {
    const error = thrown(() => plan(path, query, options));
    expect(error.status).toBe(400);
    return error.errors[0]!;
  };

  it('the tables are long enough and distinct', () => {
    expect(DEFAULT_DATASET_OPTIONS.limits).toMatchObject({ sortFields: 10, filters: 20, includePaths: 20 });
    for (const list of [SORT, FILTERS, INCLUDE]) expect(new Set(list).size).toBe(list.length);
    expect(SORT.length).toBeGreaterThan(10);
    expect(FILTERS.length).toBeGreaterThan(20);
    expect(INCLUDE.length).toBeGreaterThan(20);
  });

  it.each([
    { what: 'sort fields', at: () => sortOf(10), over: () => sortOf(11), parameter: () => 'sort' },
    { what: 'filters', at: () => filtersOf(20), over: () => filtersOf(21), parameter: () => FILTERS[20]! },
    { what: 'include paths', at: () => includeOf(20), over: () => includeOf(21), parameter: () => 'include' },
  ])('default limits, $what: at the limit planned, one over 400', ({ at: atLimit, over, parameter }) => {
    expect(plan('/concepts', atLimit()).kind).toBe('collection');
    expect(refused(over(), DEFAULT_DATASET_OPTIONS)).toMatchObject({ source: { parameter: parameter() } });
  });

  it.each(
    titled(
      [
        {
          name: 'sortFields 2',
          options: limits({ sortFields: 2 }),
          ok: sortOf(2),
          over: sortOf(3),
          parameter: 'sort',
          detail: 'sort names 3 fields; at most 2 are allowed.',
        },
        {
          name: 'filters 1',
          options: limits({ filters: 1 }),
          ok: filtersOf(1),
          over: filtersOf(2),
          parameter: FILTERS[1]!,
          detail: `The request has 2 filter parameters; at most 1 are allowed (the first past the limit: '${FILTERS[1]}').`,
        },
        {
          name: 'includePaths 1',
          options: limits({ includePaths: 1 }),
          ok: 'include=broader-concepts,broader-concepts.concept-scheme',
          over: includeOf(2),
          parameter: 'include',
          detail: 'include names 2 paths (once shared prefixes are merged); at most 1 are allowed.',
        },
      ],
      (row) => row.name,
    ),
  )('a dataset limit of %s', (_, { options, ok, over, parameter, detail }) => {
    expect(plan('/concepts', ok, options).kind).toBe('collection');
    const error = refused(over, options);
    expect(error).toEqual({ status: '400', title: 'Invalid query parameter', detail, source: { parameter } });
  });

  it.each([
    { path: '/trade-activities/{trade-activities}/concerns', query: 'sort=label,notation,id', parameter: 'sort' },
    { path: '/trade-activities/{trade-activities}/links/concerns', query: 'sort=label,notation,id', parameter: 'sort' },
    {
      path: '/trade-activities/{trade-activities}/concerns',
      query: 'filter[label]=a&filter[notation]=b',
      parameter: 'filter[notation]',
    },
    { path: '/trade-activities/{trade-activities}', query: 'include=concerns,origin', parameter: 'include' },
    { path: '/concepts/{concepts}', query: 'include=broader-concepts,narrower-concepts', parameter: 'include' },
    {
      path: '/trade-activities/{trade-activities}/concerns',
      query: 'include=broader-concepts,concept-scheme',
      parameter: 'include',
    },
  ])('the limits hold on $path?$query', ({ path, query, parameter }) => {
    const options = limits({ sortFields: 2, filters: 1, includePaths: 1 });
    expect(refused(query, options, at(path)).source).toEqual({ parameter });
  });

  it('one include path given twice is one path', () => {
    const options = limits({ includePaths: 1 });
    expect(plan(at('/trade-activities/{trade-activities}/origin'), 'include=country,country', options).kind).toBe(
      'related-one',
    );
  });

  it.each(['sort=id,id', 'sort=label,-label', 'sort=-notation,id,notation'])('%s names a field twice: 400', (query) => {
    expect(refused(query, DEFAULT_DATASET_OPTIONS)).toMatchObject({ source: { parameter: 'sort' } });
    expect(refused(query, DEFAULT_DATASET_OPTIONS).detail).toMatch(/names the field '.+' twice/);
  });

  it('a sort of 201 repeated fields is refused for its length', () => {
    const query = `sort=${Array(201).fill('id').join(',')}`;
    expect(refused(query, DEFAULT_DATASET_OPTIONS).detail).toBe('sort names 201 fields; at most 10 are allowed.');
  });
});
