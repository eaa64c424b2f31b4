import rdf from '@rdfjs/data-model';
import { expect, it } from 'vitest';
import { encodeCursor } from '../../src/request/cursor.js';
import { parseSort } from '../../src/request/parse-sort.js';
import { type ApiResponse, queryCount } from '../support/api-client.js';
import { describeEachStore } from '../support/each-store.js';
import { CONCEPT_FILTERS, CONCEPT_SORT_FIELDS } from '../support/limit-cases.js';

/** No query reached the store: Server-Timing counts none (or is absent). */
function expectNoQuery(response: ApiResponse) {
  expect(queryCount(response), `no query may be sent (Server-Timing: ${response.headers.get('server-timing')})`).toBe(
    0,
  );
}

/** A 4xx must say what went wrong, in a JSON:API error document, and nothing about internals. */
function expectError(body: any, status: number, parameter?: string) {
  expect(body.errors).toHaveLength(1);
  const [error] = body.errors;
  expect(error.status).toBe(String(status));
  expect(error.title).toEqual(expect.any(String));
  expect(error.detail).toEqual(expect.any(String));
  expect(JSON.stringify(body)).not.toMatch(/\n\s+at |node_modules|\.ts:\d+/);
  if (parameter !== undefined) expect(error.source).toEqual({ parameter });
  expect(body.data).toBeUndefined();
}

describeEachStore('bad input (issue table: 400, 404, 405, 406, 415)', (h) => {
  it.each([
    ['unknown dataset', '/api/nope/concepts'],
    ['unknown type', '/nope'],
    ['unknown type under a dataset', '/api/sample/nope/0101'],
    ['unknown relationship (related)', '/concepts/0101/nope'],
    ['unknown relationship (linkage)', '/concepts/0101/links/nope'],
    ['an extra segment', '/concepts/0101/links/broader-concepts/x'],
    ['a wrong linkage word', '/concepts/0101/link/broader-concepts'],
  ])('404 for %s', async (_, path) => {
    const response = await h().api.get(path);
    expect(response.status).toBe(404);
    expectError(response.body, 404);
  });

  it.each([
    ['uppercase', '/concepts/0A01'],
    ['non-hex', '/concepts/01g1'],
    ['too long', `/concepts/${'0'.repeat(257)}`],
    ['too long (predicate id)', `/trade-activities/${'a'.repeat(129)}`],
    ['a quote', `/trade-activities/${encodeURIComponent("7c1e0a42'")}`],
    ['a double quote', `/trade-activities/${encodeURIComponent('7c1e0a42"')}`],
    ['a >', `/concepts/${encodeURIComponent('01>')}`],
    ['a }', `/trade-activities/${encodeURIComponent('7c1e0a42}')}`],
    ['a newline', `/trade-activities/${encodeURIComponent('7c1e0a42\n')}`],
    ['a hex id that is not UTF-8', '/countries/ff'],
    ['a hex id that decodes to a space', '/countries/4720'],
    ['a hex id that decodes to >', '/countries/3e'],
    ['malformed, on a related URL', '/trade-activities/XYZ/concerns'],
    ['malformed, on a relationship URL', `/trade-activities/${encodeURIComponent('a"}')}/links/concerns`],
  ])('404 and no SPARQL for an id with %s', async (_, path) => {
    const response = await h().api.get(path);
    expect(response.status).toBe(404);
    expectError(response.body, 404);
    expect(response.headers.get('server-timing'), 'no query may be sent').toBeNull();
  });

  // Ids of the right syntax whose IRI no store takes (the hex of "INJ" + U+2028, "INJ%",
  // "INJ" + U+0085 made a store refuse the query: a 502). The server's one IRI rule refuses them
  // first, so they are 404s, and not one query goes out.
  it.each([
    ['INJ + U+2028', '494e4ae280a8'],
    ['INJ%', '494e4a25'],
    ['INJ + U+0085 (C1)', '494e4ac285'],
    ['INJ + U+2029', '494e4ae280a9'],
    ['INJ%4', '494e4a2534'],
    ['DEL', '494e4a7f'],
    ['U+202E (bidi override)', '494e4ae280ae'],
    ['U+FFFE (noncharacter)', '494e4aefbfbe'],
    ['U+FFFD (outside ucschar)', '494e4aefbfbd'],
    ['U+E000 (private use in the path)', '494e4aee8080'],
    ['U+E000 (private use in the query, which Jena refuses)', '494e4a3fee8080'],
    ['[', '494e4a5b'],
    ['a second #', '494e4a2361236223'],
  ])('404 and no SPARQL for a hex id of %s', async (_, id) => {
    for (const path of [`/countries/${id}`, `/api/mirror/countries/${id}`]) {
      const response = await h().api.get(path);
      expect(response.status, path).toBe(404);
      expectError(response.body, 404);
      expect(response.body.errors[0].detail).toContain('it stands for text that is not an IRI');
      expectNoQuery(response);
    }
  });

  it('a hex id of an IRI both stores take is looked up (the rule is not too strict)', async () => {
    // "GR" answers; "INJ%41" and "INJ\uFEFF" name nothing.
    expect((await h().api.get('/countries/4752')).status).toBe(200);
    for (const id of ['494e4a253431', '494e4aefbbbf']) {
      const response = await h().api.get(`/countries/${id}`);
      expect(response.status, id).toBe(404);
      expect(queryCount(response), id).toBe(1);
    }
  });

  it.each([
    ['/countries?filter[id]=494e4ae280a8', 'filter[id]', 'U+2028'],
    ['/countries?filter[id][ne]=4752,494e4a25', 'filter[id][ne]', 'percent-encoding'],
    ['/countries?filter[id]=494e4ac285', 'filter[id]', 'U+0085'],
    ['/group-national-agents?filter[country]=494e4ae280a8', 'filter[country]', 'U+2028'],
    ['/trade-activities?filter[origin.country]=494e4a25', 'filter[origin.country]', 'percent-encoding'],
  ])('400 and no SPARQL for an id filter value that stands for no IRI: %s', async (path, parameter, mentions) => {
    const response = await h().api.get(path);
    expect(response.status).toBe(400);
    expectError(response.body, 400, parameter);
    expect(response.body.errors[0].detail).toContain(mentions);
    expect(response.body.errors[0].detail).toMatch(/; expected the lowercase hex of the UTF-8 of/);
    expectNoQuery(response);
  });

  it('a filter value that is not of the id syntax matches nothing (ids are opaque)', async () => {
    const response = await h().api.get('/countries?filter[id]=XYZ');
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([]);
  });

  it.each([
    ['an IRI value with U+2028', { values: [rdf.namedNode('http://x/INJ\u2028')], id: '4752' }],
    ['an IRI value with a lone %', { values: [rdf.namedNode('http://x/INJ%')], id: '4752' }],
    ['a datatype with U+0085', { values: [rdf.literal('x', rdf.namedNode('http://x/dt\u0085'))], id: '4752' }],
    ['the id of INJ + U+2028', { values: [rdf.literal('x')], id: '494e4ae280a8' }],
    ['the id of INJ%', { values: [rdf.literal('x')], id: '494e4a25' }],
  ])('400 and no SPARQL for a cursor holding %s', async (_, cursor) => {
    // A forged cursor (the digest is no secret): keys of `sort=iso-code` on countries.
    const type = h().mapping.types.get('countries')!;
    const sort = parseSort('iso-code', h().mapping, type);
    const text = encodeCursor({ type, sort }, { ...cursor, inclusive: false });
    for (const parameter of ['page[after]', 'page[before]']) {
      const response = await h().api.get(`/countries?sort=iso-code&${parameter}=${text}`);
      expect(response.status).toBe(400);
      expectError(response.body, 400, parameter);
      expectNoQuery(response);
    }
  });

  it.each([
    ['/concepts?sort=', 'empty'],
    ['/concepts?sort=label,,notation', 'empty'],
    ['/concepts?sort=-', 'empty'],
    ['/concepts?sort=nope', "'nope'"],
    ['/concepts?sort=broader-concepts', "'broader-concepts'"],
    ['/concepts?sort=broader-concepts.nope', "'broader-concepts.nope'"],
    ['/concepts?sort=nope.label', "'nope.label'"],
    ['/concepts?sort=broader-concepts.broader-concepts.broader-concepts.broader-concepts.label', 'more than 3'],
    ['/trade-activities/7c1e0a42/concerns?sort=financial-year', "'financial-year'"],
    ['/concepts/0101?sort=label', 'collections'],
    ['/trade-activities/7c1e0a42/origin?sort=id', 'collections'],
  ])('400 for an unsupported sort: %s', async (path, mentions) => {
    const response = await h().api.get(path);
    expect(response.status).toBe(400);
    expectError(response.body, 400, 'sort');
    expect(response.body.errors[0].detail).toContain(mentions.replace(/^'|'$/g, ''));
  });

  // Request limits (RequestLimits: 10 sort fields, 20 filters, 20 include paths by default).
  const SORT_FIELDS = CONCEPT_SORT_FIELDS;
  const FILTERS = CONCEPT_FILTERS;
  it.each([
    ['10 sort fields', `sort=${SORT_FIELDS.slice(0, 10).join(',')}`],
    [
      '20 filters',
      FILTERS.slice(0, 20)
        .map((name) => `${name}=0`)
        .join('&'),
    ],
  ])('at the limit: %s is served', async (_, query) => {
    const response = await h().api.get(`/concepts?${query}`);
    expect(response.status).toBe(200);
    expect(queryCount(response)).toBeGreaterThan(0);
  });

  it.each([
    ['sort names 11 fields', `sort=${SORT_FIELDS.join(',')}`, 'sort', 'sort names 11 fields; at most 10 are allowed.'],
    [
      'sort names 201 fields',
      `sort=${Array(201).fill('id').join(',')}`,
      'sort',
      'sort names 201 fields; at most 10 are allowed.',
    ],
    ['sort=id,id', 'sort=id,id', 'sort', "sort names the field 'id' twice"],
    ['sort=label,-label', 'sort=label,-label', 'sort', "sort names the field 'label' twice"],
    [
      '21 filters',
      FILTERS.slice(0, 21)
        .map((name) => `${name}=0`)
        .join('&'),
      FILTERS[20]!,
      'The request has 21 filter parameters; at most 20 are allowed',
    ],
  ])('400 and no SPARQL past a limit: %s', async (_, query, parameter, detail) => {
    const response = await h().api.get(`/concepts?${query}`);
    expect(response.status).toBe(400);
    expectError(response.body, 400, parameter);
    expect(response.body.errors[0].detail).toContain(detail);
    expectNoQuery(response);
  });

  it('include: 20 paths are served, 21 are a 400 with no SPARQL', async () => {
    const paths = includePaths();
    expect(paths.length).toBeGreaterThan(20);
    const at = await h().api.get(`/concepts/01?include=${paths.slice(0, 20).join(',')}`);
    expect(at.status).toBe(200);
    expect(at.body.included).toEqual(expect.any(Array));
    const over = await h().api.get(`/concepts/01?include=${paths.slice(0, 21).join(',')}`);
    expect(over.status).toBe(400);
    expectError(over.body, 400, 'include');
    expect(over.body.errors[0].detail).toBe(
      'include names 21 paths (once shared prefixes are merged); at most 20 are allowed.',
    );
    expectNoQuery(over);
    // The same paths again, and their prefixes, add none.
    const merged = await h().api.get(
      `/concepts/01?include=${[...paths.slice(0, 20), ...paths.slice(0, 20), 'broader-concepts'].join(',')}`,
    );
    expect(merged.status).toBe(200);
  });

  /** Paths of three relationships from concepts, from the served mapping; none is a prefix of another. */
  function includePaths(): string[] {
    const walk = (type: string, depth: number): string[] =>
      depth === 0
        ? ['']
        : [...h().mapping.types.get(type)!.relationships.values()].flatMap((relationship) =>
            walk(relationship.target, depth - 1).map((rest) =>
              rest ? `${relationship.name}.${rest}` : relationship.name,
            ),
          );
    return walk('concepts', 3);
  }

  it('the sort error lists what is sortable', async () => {
    const response = await h().api.get('/concepts?sort=nope');
    expect(response.body.errors[0].detail).toMatch(/Sortable: id, notation, label, broader-concepts\.<attribute>/);
  });

  it.each([
    ['include=nope', 'include'],
    ['include=broader-concepts.', 'include'],
    ['fields[nope]=label', 'fields[nope]'],
    ['fields[concepts]=nope', 'fields[concepts]'],
    ['page[number]=-1', 'page[number]'],
    ['page[number]=x', 'page[number]'],
    ['page[size]=0', 'page[size]'],
    ['page[size]=101', 'page[size]'],
    ['page[size]=1.5', 'page[size]'],
    ['page[number]=1&page[after]=x', 'page[number]'],
    ['filter[nope]=x', 'filter[nope]'],
    ['filter[label][foo]=x', 'filter[label][foo]'],
    ['filter[]=x', 'filter[]'],
    ['filter=', 'filter'],
    ['foo=1', 'foo'],
    ['myParam=1', 'myParam'],
    ['_=1700000000', '_'],
    ['a%20b=1', 'a b'],
    ['sort=id&sort=label', 'sort'],
  ])('400 naming the parameter for %s', async (query, parameter) => {
    const response = await h().api.get(`/concepts?${query}`);
    expect(response.status).toBe(400);
    expectError(response.body, 400, parameter);
  });

  it.each([
    ['application/vnd.api+json; charset=utf-8', 406],
    ['application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"', 406],
    ['text/html', 406],
  ])('Accept: %s → %i', async (accept, status) => {
    const response = await h().api.get('/concepts/0101', { Accept: accept });
    expect(response.status).toBe(status);
    expectError(response.body, status);
  });

  it.each([
    ['application/vnd.api+json', 200],
    ['application/vnd.api+json; profile="https://example.org/p"', 200],
    ['*/*', 200],
    ['application/json', 200],
  ])('Accept: %s → %i', async (accept, status) => {
    expect((await h().api.get('/concepts/0101', { Accept: accept })).status).toBe(status);
  });

  it.each([
    ['application/vnd.api+json; charset=utf-8', 415],
    ['application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"', 415],
    ['application/vnd.api+json', 200],
  ])('Content-Type: %s → %i', async (contentType, status) => {
    const response = await h().api.get('/concepts/0101', {
      Accept: 'application/vnd.api+json',
      'Content-Type': contentType,
    });
    expect(response.status).toBe(status);
  });

  // OPTIONS is answered (204, see cors.test.ts), so Allow names it too.
  it.each(['POST', 'PUT', 'PATCH', 'DELETE'])('%s → 405 with Allow', async (method) => {
    const response = await h().api.request(method, '/concepts/0101', { Accept: 'application/vnd.api+json' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expectError(response.body, 405);
  });

  it('a malformed percent-encoding in the path is a 404, not a 500', async () => {
    const response = await h().api.get('/concepts/%E0%A4%A');
    expect(response.status).toBe(404);
  });
});
