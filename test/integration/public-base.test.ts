/**
 * Absolute links (issue 38): with a public base every link of every document (resource,
 * relationship, pagination, root document, OpenAPI `servers`) starts with it; behind a trusted
 * proxy, with the base its forwarding headers give. Without either, links stay paths (the
 * document tests hold those byte for byte).
 */
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { configFromFlags } from '../../src/cli/config-flags.js';
import { openDatasets } from '../../src/cli/open-datasets.js';
import type { Dataset } from '../../src/dataset.js';
import { ApiClient } from '../support/api-client.js';
import { SAMPLE_MAPPING } from '../support/each-store.js';
import { SAMPLE_DATA } from '../support/global-setup.js';

const BASE = 'https://data.example.org/lod';
const ACCEPT = { Accept: 'application/vnd.api+json' };

/** Every link in a document: the values of each `links` object (strings, or link objects' href). */
function links(value: unknown, into: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) links(item, into);
  else if (value && typeof value === 'object')
    for (const [key, member] of Object.entries(value)) {
      if (key === 'links' && member && typeof member === 'object')
        for (const link of Object.values(member))
          if (typeof link === 'string') into.push(link);
          else if (link && typeof link === 'object' && 'href' in link) into.push(String(link.href));
          else if (link !== null) links(link, into);
      links(member, into);
    }
  return into;
}

let datasets: Dataset[];
let api: ApiClient;

beforeAll(async () => {
  const config = configFromFlags(
    { mapping: SAMPLE_MAPPING, data: [SAMPLE_DATA], 'public-base': `${BASE}/`, 'trust-proxy': true, 'cache-ttl': '60' },
    {},
  );
  datasets = await openDatasets(config, pino({ level: 'silent' }));
  api = await ApiClient.listen(createApp({ datasets }));
});
afterAll(async () => {
  await api?.close();
  await Promise.all((datasets ?? []).map((d) => d.store.close()));
});

describe('--public-base: every link absolute', () => {
  it('a collection, a resource with its relationships, an include: every link under the base, and a walk by links.next', async () => {
    let next: string | undefined = '/trade-activities?page[size]=10&include=concerns';
    let pages = 0;
    while (next) {
      const { status, body } = await api.get(next, ACCEPT);
      expect(status).toBe(200);
      const all = links(body);
      expect(all.length).toBeGreaterThan(10);
      for (const link of all) expect(link.startsWith(`${BASE}/`), link).toBe(true);
      next = body.links.next?.slice(BASE.length);
      pages++;
    }
    expect(pages).toBeGreaterThan(1);
    const single = await api.get('/concepts/0101', ACCEPT);
    expect(single.body.data.links.self).toBe(`${BASE}/concepts/0101`);
    expect(single.body.links.self).toBe(`${BASE}/concepts/0101`);
  });

  it('the root document and /openapi.json', async () => {
    const root = await api.get('/', ACCEPT);
    expect(root.body.links.self).toBe(`${BASE}/`);
    for (const link of links(root.body)) expect(link.startsWith(`${BASE}/`), link).toBe(true);
    const description = await fetch(`${api.baseUrl}/openapi.json`).then(
      (r) => r.json() as Promise<{ servers: { url: string }[] }>,
    );
    expect(description.servers.map((s: { url: string }) => s.url)).toEqual([BASE]);
  });
});

describe('--trust-proxy: the base the forwarding headers give, strictly read, cached apart', () => {
  const proxied = {
    ...ACCEPT,
    Forwarded: 'for=192.0.2.1;proto=https;host=api.example.net',
    'X-Forwarded-Prefix': '/v2',
  };

  it('well-formed headers: every link under their base, in documents, the root document and /openapi.json', async () => {
    const page = await api.get('/trade-activities?page[size]=5', proxied);
    for (const link of links(page.body)) expect(link.startsWith('https://api.example.net/v2/'), link).toBe(true);
    const root = await api.get('/', proxied);
    expect(root.body.links.self).toBe('https://api.example.net/v2/');
    for (const link of links(root.body)) expect(link.startsWith('https://api.example.net/v2/'), link).toBe(true);
    const description = await fetch(`${api.baseUrl}/openapi.json`, { headers: proxied }).then(
      (r) => r.json() as Promise<{ servers: { url: string }[] }>,
    );
    expect(description.servers.map((s: { url: string }) => s.url)).toEqual(['https://api.example.net/v2']);
  });

  it('the response cache keeps each base apart: the same URL with two bases, then none, gives three documents', async () => {
    const url = '/concepts?page[size]=3';
    const other = { ...ACCEPT, 'X-Forwarded-Proto': 'http', 'X-Forwarded-Host': 'internal.example:8080' };
    const [a, b, plain] = [await api.get(url, proxied), await api.get(url, other), await api.get(url, ACCEPT)];
    const [a2, b2] = [await api.get(url, proxied), await api.get(url, other)];
    const path = plain.body.links.self.slice(BASE.length);
    expect(path).toMatch(/^\/concepts\?page/);
    expect(a.body.links.self).toBe(`https://api.example.net/v2${path}`);
    expect(b.body.links.self).toBe(`http://internal.example:8080${path}`);
    expect(a2.headers.get('server-timing')).toContain('cache;desc=hit');
    expect([a2.body, b2.body]).toEqual([a.body, b.body]);
  });

  it('malformed headers are ignored: the configured base applies', async () => {
    const malformed: Record<string, string>[] = [
      { Forwarded: 'proto=https;host=evil.example/x' },
      { 'X-Forwarded-Host': 'evil.example', 'X-Forwarded-Prefix': '//evil' },
      { Forwarded: 'proto=javascript;host=evil.example' },
    ];
    for (const headers of malformed) {
      const { body } = await api.get('/concepts/0101', { ...ACCEPT, ...headers });
      expect(body.links.self).toBe(`${BASE}/concepts/0101`);
    }
  });
});
