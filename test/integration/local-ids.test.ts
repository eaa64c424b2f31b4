import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { compileMapping } from '../../src/mapping/load-mapping.js';
import type { Store } from '../../src/store/store.js';
import { ApiClient, CURSOR_PAGE } from '../support/api-client.js';
import { describeStores, openStoreWith } from '../support/each-store.js';
import { codePointCompare, Oracle } from '../support/oracle.js';
import { noteQueries } from '../support/query-log.js';

/**
 * The `local` id strategy over real HTTP, on every store: ids are the IRIs' local names,
 * percent-encoded to one path segment. Local names with every awkward character an IRI may hold
 * (`é`, `%`, `/`, `(`, `:`, `~`, `+`, `,`, `'`, `?`, `#`), fetched by id, linked, included, sorted,
 * paged by cursor, filtered; ids that no IRI has are 404s that send no query. The expectations
 * come from the oracle (`test/support/oracle.ts`), which reads the Turtle written here.
 */
const THINGS = 'http://example.org/things/';
const GROUPS = 'http://example.org/groups/';
const EX = 'http://example.org/schema/';

/** Local names of things, as the IRIs write them (an IRI holds `%` only to start `%XX`). */
const LOCAL_NAMES = [
  'M',
  'KiloGM-PER-M3',
  'été',
  '100%25',
  'm/s',
  'm0',
  'f(x)',
  'a(1)',
  'a:b',
  'x~y',
  'a+b',
  'a,b',
  "it's",
  '?q=1',
  'sec#part',
];
const GROUP_NAMES = ['A/B', 'ü', 'g1'];

function turtle(): string {
  const lines = [`@prefix ex: <${EX}> .`];
  LOCAL_NAMES.forEach((name, i) => {
    const group = GROUP_NAMES[i % GROUP_NAMES.length]!;
    const related = [LOCAL_NAMES[(i + 1) % LOCAL_NAMES.length], LOCAL_NAMES[(i + 4) % LOCAL_NAMES.length]];
    lines.push(
      `<${THINGS}${name}> a ex:Thing ; ex:label ${JSON.stringify(`thing ${name}`)} ; ex:group <${GROUPS}${group}> ;`,
      `  ex:related ${related.map((r) => `<${THINGS}${r}>`).join(', ')} .`,
    );
  });
  for (const name of GROUP_NAMES) lines.push(`<${GROUPS}${name}> a ex:Group ; ex:label "group ${name}" .`);
  // Not members: the base itself (no local name), dot segments (no id can stand for them), another
  // namespace, a blank node.
  lines.push(`<${THINGS}> a ex:Thing ; ex:label "the base" .`);
  lines.push(`<${THINGS}.> a ex:Thing ; ex:label "dot" .`, `<${THINGS}..> a ex:Thing ; ex:label "dot dot" .`);
  lines.push(`<http://example.org/elsewhere/M> a ex:Thing ; ex:label "elsewhere" .`);
  lines.push(`[] a ex:Thing ; ex:label "blank" .`);
  return `${lines.join('\n')}\n`;
}

const mapping = compileMapping(
  {
    prefixes: { ex: EX },
    id: { local: { base: THINGS } },
    types: {
      things: {
        class: 'ex:Thing',
        attributes: { label: 'ex:label' },
        relationships: {
          group: { predicate: 'ex:group', target: 'groups', cardinality: 'one' },
          related: { predicate: 'ex:related', target: 'things', cardinality: 'many' },
        },
      },
      groups: {
        class: 'ex:Group',
        id: { local: { base: GROUPS } },
        attributes: { label: 'ex:label' },
        relationships: { members: { predicate: 'ex:group', target: 'things', cardinality: 'many', inverse: true } },
      },
    },
  },
  'local-ids.test.ts',
);

const scratch = mkdtempSync(join(tmpdir(), 'local-ids-'));
const FIXTURE = join(scratch, 'local-ids.ttl');
writeFileSync(FIXTURE, turtle());
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const oracle = Oracle.fromFile(FIXTURE, mapping);

const path = (type: string, id: string) => `/${type}/${encodeURIComponent(id)}`;
const query = (params: Record<string, string>) => new URLSearchParams(params).toString();
const ids = (body: { data: { id: string }[] }) => body.data.map((r) => r.id);

describe('local ids: the fixture', () => {
  it('has every thing but the five non-members, and sorting by IRI differs from sorting by id text', () => {
    const things = oracle.members('things');
    expect(things.map((t) => t.iri).sort()).toEqual(LOCAL_NAMES.map((n) => THINGS + n).sort());
    const byText = things.map((t) => t.id).sort(codePointCompare);
    expect(things.map((t) => t.id)).not.toEqual(byText); // so the sort tests below tell the two apart
    expect(things.find((t) => t.iri === `${THINGS}m/s`)!.id).toBe('m%2Fs');
  });
});

const _endpoint = inject('endpoint');

describeStores(`local ids`, (storeName) => {
  let store: Store;
  let api: ApiClient;
  const sent: string[] = [];
  beforeAll(async () => {
    store = await openStoreWith(storeName, [FIXTURE]);
    const dataset = { name: 'local', mapping, store: noteQueries(store, sent), linkBase: '' };
    api = await ApiClient.listen(createApp({ datasets: [dataset] }));
  });
  afterAll(async () => {
    await api?.close();
    await store?.close();
  });

  it('lists the members with their local ids, in IRI order, and nothing else', async () => {
    for (const type of ['things', 'groups']) {
      const response = await api.get(`/${type}?page[size]=100`);
      expect(response.status).toBe(200);
      const expected = oracle.members(type);
      expect(ids(response.body)).toEqual(expected.map((m) => m.id));
      expect(response.body.meta.count).toBe(expected.length);
      expect(response.body.data).toEqual(expected.map((m) => oracle.resourceObject(type, m)));
    }
  });

  it('fetches every member by its id and by its self link', async () => {
    for (const member of oracle.members('things')) {
      const response = await api.get(path('things', member.id));
      expect(response.status, member.id).toBe(200);
      expect(response.body.data).toEqual(oracle.resourceObject('things', member));
      expect((await api.get(response.body.data.links.self)).body.data.id).toBe(member.id);
    }
  });

  it('links and includes by local id', async () => {
    for (const member of oracle.members('things')) {
      const related = await api.get(`${path('things', member.id)}/relationships/related`);
      expect(ids(related.body)).toEqual(oracle.related('things', member.iri, 'related').map((m) => m.id));
      const group = await api.get(`${path('things', member.id)}/group`);
      expect(group.body.data.id).toBe(oracle.related('things', member.iri, 'group')[0]!.id);
    }
    const compound = await api.get('/things?include=group,related&page[size]=100');
    const expected = oracle.compound('things', oracle.members('things'), 'group,related');
    expect(compound.body.data).toEqual(expected.data);
    const sortedIncluded = [...compound.body.included].sort(
      (a, b) => codePointCompare(a.type, b.type) || codePointCompare(a.id, b.id),
    );
    expect(sortedIncluded).toEqual(expected.included);
    for (const group of oracle.members('groups')) {
      const members = await api.get(`${path('groups', group.id)}/members?page[size]=100`);
      expect(ids(members.body)).toEqual(oracle.related('groups', group.iri, 'members').map((m) => m.id));
    }
  });

  it('sorts by id as the IRIs sort, by offset and by cursor alike', async () => {
    const all = oracle.members('things');
    for (const sort of ['id', '-id', 'label', '-label']) {
      const expected = oracle.order('things', all, sort);
      const page = await api.get(`/things?${query({ sort, 'page[size]': '100' })}`);
      expect(ids(page.body), sort).toEqual(expected);
      // Cursor walk, three at a time: each cursor carries a local id (and the IRI it sorts by).
      const walked: string[] = [];
      let next: string | null = `/things?${query({ sort, 'page[size]': '3' })}`;
      while (next) {
        const step = await api.get(next, { Accept: CURSOR_PAGE });
        expect(step.status, next).toBe(200);
        walked.push(...ids(step.body));
        next = step.body.links.next;
      }
      expect(walked, `cursor walk, sort=${sort}`).toEqual(expected);
    }
  });

  it('filters by local ids, to one or several, exactly', async () => {
    const [first, , third] = oracle.members('things');
    const two = await api.get(`/things?${query({ 'filter[id]': `${first!.id},${third!.id}` })}`);
    expect(ids(two.body)).toEqual([first!.id, third!.id]);
    const slash = await api.get(`/things?${query({ 'filter[id]': 'm%2Fs' })}`);
    expect(ids(slash.body)).toEqual(['m%2Fs']);
    const group = oracle.members('groups').find((g) => g.iri === `${GROUPS}A/B`)!;
    expect(group.id).toBe('A%2FB');
    const inGroup = await api.get(`/things?${query({ 'filter[group]': group.id, 'page[size]': '100' })}`);
    expect(ids(inGroup.body)).toEqual(oracle.related('groups', group.iri, 'members').map((m) => m.id));
    // Not of the id syntax (lowercase hex, an encoded letter): matches nothing, as any opaque id.
    for (const id of ['m%2fs', '%4D', 'm/s'])
      expect(ids((await api.get(`/things?${query({ 'filter[id]': id })}`)).body), id).toEqual([]);
    // Of the syntax, but no IRI: a 400 naming the parameter.
    for (const id of ['%FF', 'a%20b', '%25']) {
      const refused = await api.get(`/things?${query({ 'filter[id]': id })}`);
      expect(refused.status, id).toBe(400);
      expect(refused.body.errors[0].source).toEqual({ parameter: 'filter[id]' });
    }
  });

  it('answers 404 for ids no IRI has, without asking the store', async () => {
    const refused = [
      'm%2fs', // lowercase hex
      '%4D', // M, encoded
      '%C3%A9t%C3%A9', // été, encoded
      'm/s', // a / as it is (reaches the server as %2F)
      'a%20b', // a space
      '%FF', // no UTF-8
      '%25', // a lone %
      'A'.repeat(4097),
    ];
    for (const id of refused) {
      for (const suffix of ['', '/group', '/relationships/related']) {
        const before = sent.length;
        const response = await api.get(path('things', id) + suffix);
        expect(response.status, id + suffix).toBe(404);
        expect(sent.length, `queries sent for ${id}${suffix}`).toBe(before);
      }
    }
    // A well-formed id of no member is a 404 too, found by asking.
    const before = sent.length;
    expect((await api.get(path('things', 'Nope'))).status).toBe(404);
    expect(sent.length).toBeGreaterThan(before);
  });
});
