/**
 * Query text as the stores read it: a string with U+2028 or U+2029 (line ends to JavaScript, but
 * ordinary characters in RDF) reaches both stores as the same string.
 */
import rdf from '@rdfjs/data-model';
import type { SelectQuery } from 'sparqljs';
import { expect, it } from 'vitest';
import { toText } from '../../src/sparql/to-text.js';
import { describeEachStore } from '../support/each-store.js';

describeEachStore('query text', (h) => {
  it.each(['Live\u2028animals', 'a\u2029b', '\u2028', 'plain'])('the literal %j comes back unchanged', async (text) => {
    const query: SelectQuery = {
      type: 'query',
      queryType: 'SELECT',
      prefixes: {},
      variables: [rdf.variable('x')],
      // A group of two patterns: the generator writes it on several lines, which is where it indents.
      where: [
        {
          type: 'group',
          patterns: [
            { type: 'values', values: [{ '?y': rdf.literal('1') }] },
            { type: 'bind', variable: rdf.variable('x'), expression: rdf.literal(text) },
          ],
        },
      ],
    };
    const rows = await h().store.select(toText(query));
    expect(rows.map((row) => row.x?.value)).toEqual([text]);
  });
});
