/**
 * The window cache's patch query: the list's own whole-list query, kept to the changed members by
 * a VALUES block in front of its pattern, and otherwise the same text (membership, filters, keys,
 * order), so that each member gives the row the whole list gives it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadMapping } from '../../../src/mapping/load-mapping.js';
import type { Mapping } from '../../../src/mapping/model.js';
import { buildListQuery, restrictedToMembers } from '../../../src/sparql/list-query.js';
import { toText } from '../../../src/sparql/to-text.js';

let mapping: Mapping;
beforeAll(async () => {
  mapping = await loadMapping('mappings/sample.yaml');
});

describe('restrictedToMembers', () => {
  it('adds VALUES ?s in front and leaves the rest of the query as it was', () => {
    const type = mapping.types.get('trade-activities')!;
    const query = buildListQuery(mapping, { type, sort: type.defaultSort, filters: [] }, undefined, { fromEnd: false });
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
