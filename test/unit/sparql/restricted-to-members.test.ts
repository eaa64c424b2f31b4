/**
 * The window cache's patch query: the list's own whole-list query, kept to the changed members by
 * a VALUES block in front of its pattern, and otherwise the same text (membership, filters, keys,
 * order), so that each member gives the row the whole list gives it.
 */
import type { SelectQuery } from 'sparqljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { listQuery } from '../../../src/execute/paths/list-shape.js';
import { loadMapping } from '../../../src/mapping/load-mapping.js';
import type { Mapping } from '../../../src/mapping/model.js';
import { parseFilter } from '../../../src/request/parse-filter.js';
import { parseQuery } from '../../../src/request/parse-query.js';
import { parseSort } from '../../../src/request/parse-sort.js';
import { variable } from '../../../src/sparql/ast.js';
import { restrictedToMembers } from '../../../src/sparql/member-queries.js';
import { toText } from '../../../src/sparql/to-text.js';

let mapping: Mapping;
beforeAll(async () => {
  mapping = await loadMapping('mappings/sample.yaml');
});

describe('restrictedToMembers', () => {
  it('adds VALUES ?s in front and leaves the rest of the query as it was', () => {
    const type = mapping.types.get('trade-activities')!;
    const query = listQuery(mapping, { type, sort: type.defaultSort, filters: [] }, { keyset: { fromEnd: false } });
    const whole = toText(query);
    const members = ['http://linkedeconomy.org/resource/TradeActivity/001', 'http://example.org/a'];
    const text = toText(restrictedToMembers(query, members));
    expect(text).toMatch(
      /VALUES \?s \{\s*<http:\/\/linkedeconomy\.org\/resource\/TradeActivity\/001>\s*<http:\/\/example\.org\/a>\s*\}/,
    );
    // Take the VALUES block out again: the whole list's query, word for word.
    expect(text.replace(/\s*VALUES \?s \{[^}]*\}/, '').replace(/\s+/g, ' ')).toBe(whole.replace(/\s+/g, ' '));
    expect(toText(query)).toBe(whole); // the list's own query is not changed
  });
});

describe('restrictedToMembers: sub-selects of the members', () => {
  const members = ['http://linkedeconomy.org/resource/TradeActivity/001'];
  const valuesBlock = /\s*VALUES \?s \{[^}]*\}/g;

  it("keeps a filter's sub-select to the members too, and is otherwise the whole list's query", () => {
    const type = mapping.types.get('trade-activities')!;
    const request = { type, sort: type.defaultSort };
    const filtered = listQuery(
      mapping,
      { ...request, filters: parseFilter(parseQuery('filter[origin.country.iso-code][eq]=GR').filter, mapping, type) },
      { keyset: { fromEnd: false } },
    );
    const whole = toText(filtered);
    expect(whole).toMatch(/SELECT DISTINCT \?s WHERE/); // the filter is a sub-select of the members
    const text = toText(restrictedToMembers(filtered, members));
    expect(text.match(valuesBlock)).toHaveLength(2);
    expect(text.replace(valuesBlock, '').replace(/\s+/g, ' ')).toBe(whole.replace(/\s+/g, ' '));
  });

  it('leaves a sub-select alone when keeping it to the members could change its rows (a LIMIT, another grouping)', () => {
    const inner = (extra: object): SelectQuery =>
      ({
        type: 'query',
        queryType: 'SELECT',
        prefixes: {},
        variables: [variable('s')],
        where: [{ type: 'bgp', triples: [] }],
        ...extra,
      }) as unknown as SelectQuery;
    const outer = (sub: SelectQuery): SelectQuery =>
      ({ ...inner({}), where: [{ type: 'group', patterns: [sub] }] }) as unknown as SelectQuery;
    const cases: [object, number][] = [
      [{}, 2],
      [{ limit: 5 }, 1],
      [{ offset: 5 }, 1],
      [{ group: [{ expression: variable('k') }] }, 1],
      [{ group: [{ expression: variable('s') }] }, 2],
    ];
    for (const [extra, blocks] of cases)
      expect(
        toText(restrictedToMembers(outer(inner(extra)), members)).match(valuesBlock),
        JSON.stringify(extra),
      ).toHaveLength(blocks);
  });
});

describe('restrictedToMembers: a key computed per member', () => {
  it('keeps each union branch and the inner key, never a sub-select that holds another kept one (Virtuoso fails on that)', () => {
    const type = mapping.types.get('concepts')!;
    const query = listQuery(
      mapping,
      { type, sort: parseSort('label', mapping, type), filters: [] },
      {
        keyset: { fromEnd: false },
      },
    );
    const whole = toText(query);
    const kept = restrictedToMembers(query, ['http://linkedeconomy.org/resource/concept/0101']);
    const text = toText(kept);
    // In front, in both branches of the grouped members' union, and in the inner per-member key.
    expect(text.match(/VALUES \?s \{[^}]*\}/g)).toHaveLength(4);
    expect(text.replace(/\s*VALUES \?s \{[^}]*\}/g, '').replace(/\s+/g, ' ')).toBe(whole.replace(/\s+/g, ' '));
    const grouped = (kept.where![1] as { patterns: SelectQuery[] }).patterns[0]!;
    expect(grouped.type).toBe('query');
    expect(grouped.where![0]!.type).not.toBe('values');
  });
});
