import rdf from '@rdfjs/data-model';
import { beforeAll, describe, expect, it } from 'vitest';
import { countValue, groupValues, membersOf, readIncludeRows, relatedMembersOf } from '../../../src/execute/rows.js';
import { loadMapping } from '../../../src/mapping/load-mapping.js';
import type { Mapping } from '../../../src/mapping/model.js';
import { type Row, StoreError } from '../../../src/store/store.js';

const XSD_INTEGER = rdf.namedNode('http://www.w3.org/2001/XMLSchema#integer');
const CONCEPT = (id: string) => rdf.namedNode(`http://linkedeconomy.org/resource/concept/${id}`);
let mapping: Mapping;
beforeAll(async () => {
  mapping = await loadMapping('mappings/sample.yaml');
});
const type = (name: string) => mapping.types.get(name)!;

/** The StoreError a call throws (fails the test when it throws nothing or something else). */
function storeError(call: () => unknown): StoreError {
  try {
    call();
  } catch (error) {
    expect(error).toBeInstanceOf(StoreError);
    return error as StoreError;
  }
  throw new Error('expected a StoreError, nothing was thrown');
}

describe('membersOf, relatedMembersOf', () => {
  it('keeps the rows’ order, each member once, and skips rows without ?s (a parent that points at nothing)', () => {
    const rows: Row[] = [{ s: CONCEPT('0102') }, {}, { s: CONCEPT('0101') }, { s: CONCEPT('0102') }];
    expect(relatedMembersOf(type('concepts'), rows).map((m) => m.id)).toEqual(['0102', '0101']);
  });

  it('a row without ?s in a list that hangs off no parent is an unexpected answer', () => {
    expect(storeError(() => membersOf(type('concepts'), [{ s: CONCEPT('0101') }, {}])).kind).toBe('unexpected');
  });

  it('a literal where the list query projects a resource is an unexpected answer', () => {
    const error = storeError(() => membersOf(type('concepts'), [{ s: rdf.literal('http://x/1') }]));
    expect(error.kind).toBe('unexpected');
    expect(error.message).toContain('?s with a Literal');
  });
});

describe('groupValues', () => {
  it('groups values by subject and field, each value once', () => {
    const label = rdf.literal('label');
    const rows: Row[] = [
      { s: CONCEPT('0101'), f: label, o: rdf.literal('Live horses', 'en') },
      { s: CONCEPT('0101'), f: label, o: rdf.literal('Live horses', 'en') },
      { s: CONCEPT('0102') },
    ];
    expect(storeError(() => groupValues([...rows, { f: label, o: rdf.literal('x') }])).kind).toBe('unexpected');
    const grouped = groupValues(rows);
    expect([...grouped.keys()]).toEqual([CONCEPT('0101').value, CONCEPT('0102').value]);
    expect(grouped.get(CONCEPT('0101').value)?.get('label')).toHaveLength(1);
    expect(grouped.get(CONCEPT('0102').value)?.size).toBe(0);
  });

  it.each([
    ['a blank node as the subject', { s: rdf.blankNode('b0'), f: rdf.literal('label'), o: rdf.literal('x') }, '?s'],
    ['a resource as the field name', { s: CONCEPT('0101'), f: CONCEPT('label'), o: rdf.literal('x') }, '?f'],
  ])('%s is an unexpected answer', (_, row, variable) => {
    const error = storeError(() => groupValues([row]));
    expect(error.kind).toBe('unexpected');
    expect(error.message).toContain(variable);
  });
});

describe('readIncludeRows', () => {
  it('reads linkage and values per branch, and refuses a literal as a target', () => {
    const row = { n: rdf.literal('0', XSD_INTEGER), src: CONCEPT('01'), t: CONCEPT('0101') };
    const [branch] = readIncludeRows([row], [type('concepts')]);
    expect([...(branch?.targets.get(CONCEPT('01').value)?.keys() ?? [])]).toEqual([CONCEPT('0101').value]);
    const error = storeError(() => readIncludeRows([{ ...row, t: rdf.literal('0101') }], [type('concepts')]));
    expect(error.kind).toBe('unexpected');
  });
});

describe('countValue', () => {
  it.each([
    [{ count: rdf.literal('42', XSD_INTEGER) }, 42],
    [{ count: rdf.literal('0', XSD_INTEGER) }, 0],
    // Oxigraph answers a count over a pattern that cannot match with no row at all.
    [undefined, 0],
  ])('%j → %i', (row, expected) => {
    expect(countValue(row, 'count')).toBe(expected);
  });

  it('a count query answered without its count is an unexpected answer', () => {
    expect(storeError(() => countValue({}, 'count')).kind).toBe('unexpected');
  });

  it.each([rdf.literal('many'), rdf.literal('-1', XSD_INTEGER), rdf.literal('1.5'), CONCEPT('42')])(
    'a count of %j is an unexpected answer',
    (term) => {
      expect(storeError(() => countValue({ count: term }, 'count')).kind).toBe('unexpected');
    },
  );
});
