import fc from 'fast-check';
import { Parser } from 'sparqljs';
import { describe, expect, it } from 'vitest';
import { loadMapping } from '../../../src/mapping/load-mapping.js';
import type { TextOrder } from '../../../src/rdf/text-order.js';
import { buildFetchQuery, fetchQuery } from '../../../src/sparql/fetch-query.js';
import { QueryTemplate } from '../../../src/sparql/query-template.js';
import { toText } from '../../../src/sparql/to-text.js';

const mapping = await loadMapping('mappings/sample.yaml');
const activities = mapping.types.get('trade-activities')!;
const concepts = mapping.types.get('concepts')!;
const ORDERS: readonly TextOrder[] = ['code point', 'UTF-16 code units'];
// Text that escaping must keep inside its literal: quotes, backslashes, line ends, U+2028, past U+FFFF.
const tricky = fc.string({
  unit: fc.constantFrom('a', '7', '"', "'", '\\', '\n', '\r', '\t', '\u2028', '\u2029', 'é', '😀', '>', '}', ' '),
  maxLength: 12,
});
const iriText = fc.stringMatching(/^[0-9a-f]{1,8}$/).map((id) => `http://linkedeconomy.org/resource/concept/${id}`);

describe('fetchQuery (a template per shape, the values slotted in)', () => {
  it('writes what the whole query writes, for any id literal, in either text order', () => {
    fc.assert(
      fc.property(tricky, fc.constantFrom(...ORDERS), (value, order) => {
        const lookup = { kind: 'literal', value } as const;
        expect(toText(fetchQuery(activities, { lookup }), order)).toBe(
          toText(buildFetchQuery(activities, { lookup }), order),
        );
      }),
    );
  });

  it('writes what the whole query writes for the IRIs of a page and for a lookup by IRI', () => {
    fc.assert(
      fc.property(fc.array(iriText, { minLength: 1, maxLength: 25 }), (iris) => {
        const attributes = [concepts.attributes.get('label')!];
        expect(toText(fetchQuery(concepts, { iris }, attributes))).toBe(
          toText(buildFetchQuery(concepts, { iris }, attributes)),
        );
        const lookup = { kind: 'iri', iri: iris[0]! } as const;
        expect(toText(fetchQuery(concepts, { lookup }))).toBe(toText(buildFetchQuery(concepts, { lookup })));
      }),
    );
  });

  it('a value is data, never syntax: the text parses to the same query with the value in its literal', () => {
    const value = '" } ; DROP ALL ; SELECT * { "';
    const text = toText(fetchQuery(activities, { lookup: { kind: 'literal', value } }));
    const parsed = new Parser().parse(text) as {
      where: { type: string; values?: Record<string, { value: string }>[] }[];
    };
    const rows = parsed.where.find((p) => p.type === 'values')?.values ?? [];
    expect(rows.map((row) => row['?s_id']?.value)).toEqual([value, value]);
  });
});

describe('QueryTemplate', () => {
  it('writes the whole query each time when a value is not a whole IRI or literal text', () => {
    let built = 0;
    const template = new QueryTemplate(([value]) => {
      built++;
      return new Parser().parse(`SELECT * WHERE { ?s ?p "${value}x" }`) as never;
    });
    expect(toText(template.fill(['a']))).toContain('"ax"');
    expect(toText(template.fill(['b']))).toContain('"bx"');
    expect(built).toBe(3); // once to find the slots, then once per fill
  });
});
