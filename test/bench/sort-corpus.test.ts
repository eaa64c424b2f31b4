import { describe, expect, it } from 'vitest';
import { cliffOf, sortCorpusOrders } from '../../bench/sort-corpus.js';
import { loadMapping } from '../../src/mapping/load-mapping.js';
import { resolveSortField } from '../../src/mapping/resolve-path.js';

const mapping = await loadMapping('mappings/sample.yaml');

describe('sortCorpusOrders', () => {
  const orders = sortCorpusOrders(mapping, ['trade-activities']);
  const tradeActivities = mapping.types.get('trade-activities')!;

  it('sorts by every path of up to two hops, each both ways, each a sort the server takes', () => {
    const sorts = orders.map((o) => o.sort);
    expect(new Set(sorts).size).toBe(sorts.length);
    for (const sort of sorts) {
      const key = resolveSortField(mapping, tradeActivities, sort);
      expect(typeof key, sort).not.toBe('string');
      if (typeof key !== 'string') expect(key.path.hops.length, sort).toBeLessThanOrEqual(2);
      expect(sorts, sort).toContain(sort.startsWith('-') ? sort.slice(1) : `-${sort}`);
    }
    // Every relationship's every attribute one hop on is there: the corpus follows the mapping.
    for (const [name, relationship] of tradeActivities.relationships) {
      for (const attribute of mapping.types.get(relationship.target)!.attributes.keys())
        expect(sorts).toContain(`${name}.${attribute}`);
    }
    expect(sorts).toEqual(expect.arrayContaining(['id', '-amount.value', 'origin.country.iso-code']));
  });

  it('covers every type by default, and refuses a type the mapping lacks', () => {
    expect(new Set(sortCorpusOrders(mapping).map((o) => o.type))).toEqual(new Set(mapping.types.keys()));
    expect(() => sortCorpusOrders(mapping, ['nope'])).toThrow(/no type 'nope'/);
  });
});

describe('cliffOf', () => {
  const page = (ms: number, status = 200, medianMs?: number) => ({
    page: 0,
    first: { ms, status },
    repeats: medianMs === undefined ? 0 : 3,
    ...(medianMs !== undefined && { medianMs }),
  });

  it('on Virtuoso, a page whose median is over 1 s, whatever its first read', () => {
    expect(cliffOf([page(2500, 200, 900)], 'virtuoso')).toBeUndefined();
    expect(cliffOf([page(300, 200, 1200)], 'virtuoso')).toBe('page 0: 1.2 s');
  });

  it('on the embedded store, a 504 or a first read over 5 s', () => {
    expect(cliffOf([page(4900, 200, 3)], 'embedded')).toBeUndefined();
    expect(cliffOf([page(5100, 200, 3)], 'embedded')).toBe('page 0: first read 5.1 s');
    expect(cliffOf([page(10_010, 504)], 'embedded')).toBe('page 0: 504');
  });
});
