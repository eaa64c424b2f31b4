import sparqljs from 'sparqljs';
import { describe, expect, it } from 'vitest';
import { loadMapping } from '../../../src/mapping/load-mapping.js';
import { toText } from '../../../src/sparql/to-text.js';
import { emptyTypesQuery } from '../../../src/store/probes/empty-types.js';

const mapping = await loadMapping('test/fixtures/graphs/mapping.yaml');
const type = (name: string) => mapping.types.get(name)!;

describe('emptyTypesQuery', () => {
  it('one sub-select with LIMIT 1 per type, in a union: the store stops at the first member of each', () => {
    expect(toText(emptyTypesQuery([type('places'), type('notes')]))).toBe(
      [
        'SELECT ?m0 ?m1 WHERE {',
        '  {',
        '    SELECT ?m0 WHERE {',
        '      ?m0 <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://example.org/graphs/Place>.',
        '      FILTER(REGEX(STR(?m0), "^http://example\\\\.org/graphs/place/[0-9a-f]+$"))',
        '    }',
        '    LIMIT 1',
        '  }',
        '  UNION',
        '  {',
        '    SELECT ?m1 WHERE {',
        '      ?m1 <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://example.org/graphs/Note>;',
        '        <http://example.org/graphs/code> ?m1_id.',
        '    }',
        '    LIMIT 1',
        '  }',
        '}',
      ].join('\n'),
    );
  });

  it.each([1, 2, 4])('%i types: SPARQL that parses, projecting one variable per type', (count) => {
    const types = [...mapping.types.values()].slice(0, count);
    const parsed = new sparqljs.Parser().parse(toText(emptyTypesQuery(types))) as sparqljs.SelectQuery;
    expect(parsed.variables.map((v) => ('value' in v ? v.value : ''))).toEqual(types.map((_, n) => `m${n}`));
  });
});
