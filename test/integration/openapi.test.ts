import { readdirSync } from 'node:fs';
import { compileErrors, validate } from '@readme/openapi-parser';
import express from 'express';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../src/app.js';
import { main } from '../../src/cli/main.js';
import { DEFAULT_DATASET_OPTIONS } from '../../src/dataset.js';
import { loadMapping, MappingError } from '../../src/mapping/load-mapping.js';
import type { Mapping } from '../../src/mapping/model.js';
import { createOxigraphStore } from '../../src/store/oxigraph-store.js';
import type { Store } from '../../src/store/store.js';
import { ApiClient, appDescriptions, OpenApiCheck } from '../support/api-client.js';
import { captureIo } from '../support/cli-io.js';
import { SAMPLE_DATA } from '../support/global-setup.js';

/** Every mapping the project ships or tests with; the fixtures that are invalid on purpose are named. */
const INVALID_ON_PURPOSE = new Set(['test/fixtures/mappings/two-faults.yaml']);
const MAPPINGS = [
  ...readdirSync('mappings').map((f) => `mappings/${f}`),
  'test/fixtures/real-shapes.yaml',
  ...readdirSync('test/fixtures/mappings').map((f) => `test/fixtures/mappings/${f}`),
].filter((f) => /\.(ya?ml|json)$/.test(f));

let store: Store;
beforeAll(async () => {
  store = await createOxigraphStore({ files: [SAMPLE_DATA] });
});
afterAll(() => store.close());

/** An app serving `mapping` as the default dataset `main`, and again as `/api/other` with its own limits. */
async function serve(mapping: Mapping): Promise<ApiClient> {
  return ApiClient.listen(
    createApp({
      datasets: [
        { name: 'main', mapping, store, linkBase: '' },
        {
          name: 'other',
          mapping,
          store,
          linkBase: '/api/other',
          options: { page: { defaultSize: 5, maxSize: 7 }, includeDepth: 1 },
        },
      ],
    }),
  );
}

async function description(api: ApiClient, prefix = ''): Promise<{ response: Response; document: any }> {
  const response = await fetch(`${api.baseUrl}${prefix}/openapi.json`);
  return { response, document: await response.json() };
}

test('every fixture invalid on purpose is one of the mappings checked', () => {
  expect(MAPPINGS).toEqual(expect.arrayContaining([...INVALID_ON_PURPOSE]));
});

test.each([...INVALID_ON_PURPOSE])('%s fails to load, as it is meant to', async (file) => {
  await expect(loadMapping(file)).rejects.toBeInstanceOf(MappingError);
});

describe.each(MAPPINGS.filter((file) => !INVALID_ON_PURPOSE.has(file)))('OpenAPI description of %s', (file) => {
  let mapping: Mapping;
  let api: ApiClient;
  beforeAll(async () => {
    mapping = await loadMapping(file);
    api = await serve(mapping);
  });
  afterAll(() => api?.close());

  test('is a valid OpenAPI 3.1 document, served once per dataset', async () => {
    const { response, document } = await description(api);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(document.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(document));
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
    expect(result.warnings).toEqual([]);
    // The default dataset's, under its prefix too; the other dataset's, with its own server and limits.
    expect((await description(api, '/api/main')).document).toEqual(document);
    expect(document.servers).toBeUndefined(); // the root: OpenAPI's default server
    const other = (await description(api, '/api/other')).document;
    expect(other.servers[0].url).toBe('/api/other');
    expect(other.components.parameters['page.size'].schema).toMatchObject({ default: 5, maximum: 7 });
    expect((await validate(structuredClone(other))).valid).toBe(true);
  });

  test('describes every type, relationship and field of the mapping', async () => {
    const { document } = await description(api);
    for (const type of mapping.types.values()) {
      expect(document.paths[`/${type.name}`]?.get.operationId).toBe(`${type.name}.list`);
      expect(document.paths[`/${type.name}/{id}`]?.get.operationId).toBe(`${type.name}.get`);
      for (const name of type.relationships.keys()) {
        for (const path of [`/${name}`, `/links/${name}`, `/relationships/${name}`])
          expect(document.paths[`/${type.name}/{id}${path}`], path).toBeDefined();
      }
      const resource = document.components.schemas[type.name];
      expect(resource.properties.type).toEqual({ type: 'string', const: type.name });
      expect(Object.keys(resource.properties.attributes.properties)).toEqual([...type.attributes.keys()]);
      expect(Object.keys(resource.properties.relationships.properties)).toEqual([...type.relationships.keys()]);
      const sort = document.components.parameters[`${type.name}.sort`].schema.items;
      // A structured attribute has no order (docs/mapping.md): sort names the others.
      const fields = [...type.attributes.values()].filter((a) => !a.fields).map((a) => a.name);
      const structured = [...type.attributes.values()].filter((a) => a.fields).map((a) => a.name);
      if (sort.enum) {
        expect(sort.enum).toEqual(expect.arrayContaining(['id', '-id', ...fields, ...fields.map((f) => `-${f}`)]));
        for (const name of structured) expect(sort.enum).not.toContain(name);
      } else expect(sort.pattern).toMatch(/^\^/);
      const include = document.components.parameters[`${type.name}.include`].schema;
      if (type.relationships.size > 0 && include.items.enum)
        expect(include.items.enum).toEqual(expect.arrayContaining([...type.relationships.keys()]));
      const sparse = document.components.parameters.fields;
      expect(sparse).toMatchObject({ name: 'fields', style: 'deepObject', explode: true });
      const pattern = new RegExp(sparse.schema.properties[type.name].pattern);
      expect(pattern.test([...type.attributes.keys(), ...type.relationships.keys()].join(','))).toBe(true);
      expect(pattern.test('id')).toBe(false);
    }
  });

  test('answers 304 to its ETag, and HEAD with the headers of GET', async () => {
    const { response } = await description(api);
    const etag = response.headers.get('etag')!;
    expect(etag).toMatch(/^"/);
    expect((await fetch(`${api.baseUrl}/openapi.json`, { headers: { 'If-None-Match': etag } })).status).toBe(304);
    const head = await fetch(`${api.baseUrl}/openapi.json`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(response.headers.get('content-length'));
    expect(await head.text()).toBe('');
  });
});

describe('/openapi.json beside the JSON:API', () => {
  let api: ApiClient;
  let mapping: Mapping;
  beforeAll(async () => {
    mapping = await loadMapping('mappings/sample.yaml');
    api = await serve(mapping);
  });
  afterAll(() => api.close());

  test('an unknown dataset, and any other method, still get the JSON:API errors', async () => {
    expect((await api.get('/api/nope/openapi.json')).status).toBe(404);
    const post = await api.request('POST', '/openapi.json');
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });

  test('the client’s check holds a response to its operation’s schema, and fails one that breaks it', async () => {
    const check = new OpenApiCheck(api.baseUrl, appDescriptions(express(), api.baseUrl)); // fetched over HTTP
    const good = await api.get('/countries');
    const json = 'application/vnd.api+json';
    await check.check('GET', '/countries', 200, json, good.body, '');
    const wrongType = structuredClone(good.body);
    wrongType.data[0].type = 'concepts';
    await expect(check.check('GET', '/countries', 200, json, wrongType, '')).rejects.toThrow(/countries\.collection/);
    const unknownAttribute = structuredClone(good.body);
    unknownAttribute.data[0].attributes.population = 10;
    await expect(check.check('GET', '/api/other/countries', 200, json, unknownAttribute, '')).rejects.toThrow(
      /OpenAPI schema/,
    );
    await expect(check.check('GET', '/countries', 200, 'text/html', good.body, '')).rejects.toThrow(/Content-Type/);
    await expect(check.check('GET', '/nope/1/2/3/4', 200, json, good.body, '')).rejects.toThrow(/no operation/);
    await expect(check.check('GET', '/countries', 418, json, good.body, '')).rejects.toThrow(/OpenAPI schema/);
  });

  test('the CLI prints the document the app serves for the same mapping and options', async () => {
    const io = captureIo();
    expect(await main(['openapi', '--mapping', 'mappings/sample.yaml', '--dataset', 'main'], io)).toBe(0);
    const printed = JSON.parse(io.out.join('\n'));
    const app = ApiClient.listen(createApp({ datasets: [{ name: 'main', mapping, store, linkBase: '' }] }));
    const served = (await description(await app)).document;
    await (await app).close();
    expect(printed).toEqual(served);
    const linked = captureIo();
    expect(
      await main(['openapi', '--mapping', 'mappings/sample.yaml', '--link-base', 'https://x.example/api'], linked),
    ).toBe(0);
    expect(JSON.parse(linked.out.join('\n')).servers[0].url).toBe('https://x.example/api');
    expect(JSON.parse(linked.out.join('\n')).components.parameters['page.size'].schema.maximum).toBe(
      DEFAULT_DATASET_OPTIONS.page.maxSize,
    );
  });

  test('the CLI refuses a missing --mapping and reports an invalid one', async () => {
    const io = captureIo();
    expect(await main(['openapi'], io)).toBe(2);
    expect(io.err.join('\n')).toMatch(/--mapping is required/);
    const bad = captureIo();
    expect(await main(['openapi', '--mapping', 'test/fixtures/mappings/two-faults.yaml'], bad)).toBe(2);
    expect(bad.err.join('\n')).toMatch(/nope/);
  });
});

describe('/docs', () => {
  let api: ApiClient;
  let withDocsType: ApiClient;
  const browser = { Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
  beforeAll(async () => {
    const mapping = await loadMapping('mappings/sample.yaml');
    api = await serve(mapping);
    // The same mapping with one more type, named docs: its collection lives where the page does.
    const types = new Map(mapping.types);
    const concepts = mapping.types.get('concepts')!;
    types.set('docs', { ...concepts, name: 'docs', relationships: new Map() });
    withDocsType = await ApiClient.listen(
      createApp({ datasets: [{ name: 'main', mapping: { ...mapping, types }, store, linkBase: '' }] }),
    );
  });
  afterAll(async () => {
    await api.close();
    await withDocsType.close();
  });

  test.each(['/docs', '/api/main/docs', '/api/other/docs'])(
    '%s is an HTML page that loads Scalar from this server, with its own CSP',
    async (path) => {
      const response = await fetch(api.baseUrl + path, { headers: browser });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const csp = response.headers.get('content-security-policy')!;
      expect(csp).toMatch(/default-src 'none'/);
      expect(csp).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/=]+'(;|$)/);
      expect(csp).toMatch(/connect-src 'self'(;|$)/);
      const html = await response.text();
      expect(html).toContain('<script src="scalar.js"></script>');
      expect(html).toContain('"url":"openapi.json"');
      expect(html).not.toMatch(/https?:\/\//); // nothing from a CDN
      const script = await fetch(new URL('scalar.js', api.baseUrl + path), { headers: { 'Accept-Encoding': 'gzip' } });
      expect(script.status).toBe(200);
      expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect((await script.text()).length).toBeGreaterThan(1_000_000);
    },
  );

  test('a JSON:API request for /docs is the JSON:API’s: a 404 without a type named docs', async () => {
    const response = await api.get('/docs');
    expect(response.status).toBe(404);
    expect(response.body.errors[0].detail).toMatch(/docs/);
    // curl's */* takes HTML: without a docs type, the page.
    const any = await fetch(`${api.baseUrl}/docs`, { headers: { Accept: '*/*' } });
    expect(any.headers.get('content-type')).toBe('text/html; charset=utf-8');
  });

  test('with a type named docs, its collection wins for every request but a browser’s', async () => {
    const collection = await withDocsType.get('/docs');
    expect(collection.status).toBe(200);
    expect(collection.body.data.length).toBeGreaterThan(0);
    expect(collection.body.data[0].type).toBe('docs');
    const any = await fetch(`${withDocsType.baseUrl}/docs`, { headers: { Accept: '*/*' } });
    expect(any.headers.get('content-type')).toBe('application/vnd.api+json');
    const page = await fetch(`${withDocsType.baseUrl}/docs`, { headers: browser });
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
  });
});
