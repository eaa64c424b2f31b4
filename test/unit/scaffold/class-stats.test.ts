import { DataFactory } from 'n3';
import { describe, expect, it } from 'vitest';
import { XSD } from '../../../src/rdf/vocabulary.js';
import { predicateStats } from '../../../src/scaffold/class-stats.js';

const { literal, namedNode } = DataFactory;
const P = 'http://x.org/p';
const n = (value: number) => literal(String(value), namedNode(`${XSD}integer`));
const row = (bindings: Record<string, ReturnType<typeof literal> | ReturnType<typeof namedNode>>) => bindings;

describe('predicateStats', () => {
  const predicateRows = [
    row({ p: namedNode(P), members: n(12), max: n(1), literals: n(12), iris: n(5), blanks: n(0) }),
  ];

  it('counts integers among decimals as decimals, and keeps integers alone as they are', () => {
    const literalRows = [
      row({ p: namedNode(P), datatype: namedNode(`${XSD}decimal`), members: n(11), max: n(1) }),
      row({ p: namedNode(P), datatype: namedNode(`${XSD}integer`), members: n(1), max: n(1) }),
    ];
    const [mixed] = predicateStats({ predicateRows, literalRows, objectRows: [], untypedRows: [] });
    expect(mixed!.datatypes).toEqual({ [`${XSD}decimal`]: { members: 12, max: 1 } });
    const [whole] = predicateStats({
      predicateRows,
      literalRows: literalRows.slice(1),
      objectRows: [],
      untypedRows: [],
    });
    expect(whole!.datatypes).toEqual({ [`${XSD}integer`]: { members: 1, max: 1 } });
  });

  it('values of no class first, under the empty key, then each class', () => {
    const objectRows = [row({ p: namedNode(P), class: namedNode('http://x.org/C'), values: n(4) })];
    const untypedRows = [row({ p: namedNode(P), values: n(1) })];
    const [stats] = predicateStats({ predicateRows, literalRows: [], objectRows, untypedRows });
    expect(Object.entries(stats!.objectClasses)).toEqual([
      ['', 1],
      ['http://x.org/C', 4],
    ]);
  });
});
