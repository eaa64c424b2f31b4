import { describe, expect, test } from 'vitest';
import { Batch } from '../../../src/load/batch.js';
import { graphUrl, guessGraphStoreUrl, insertData } from '../../../src/load/protocol.js';

describe('insertData', () => {
  test('INSERT DATA per graph; INSERT … WHERE {} when the batch has blank nodes', () => {
    const batch = new Batch();
    batch.add('http://g/1', '<s> <p> <o> .\n');
    batch.add('', '<s> <p> <o2> .\n');
    expect(insertData(batch)).toBe('INSERT DATA {\nGRAPH <http://g/1> {\n<s> <p> <o> .\n}\n<s> <p> <o2> .\n}');
    batch.hasBlankNodes = true;
    expect(insertData(batch)).toMatch(/^INSERT \{\n[\s\S]*\} WHERE \{\}$/);
  });
});

describe('guessGraphStoreUrl, graphUrl', () => {
  test('Graph Store URLs: guessed for Virtuoso and Fuseki only; ?graph= and ?default', () => {
    expect(guessGraphStoreUrl('http://h:8890/sparql')).toBe('http://h:8890/sparql-graph-crud');
    expect(guessGraphStoreUrl('http://h:8890/sparql-auth/')).toBe('http://h:8890/sparql-graph-crud-auth');
    expect(guessGraphStoreUrl('http://h:3030/ds/query')).toBe('http://h:3030/ds/data');
    expect(guessGraphStoreUrl('http://h:7200/repositories/r')).toBeUndefined();
    expect(graphUrl('http://h/crud', 'http://g/1?a')).toBe('http://h/crud?graph=http%3A%2F%2Fg%2F1%3Fa');
    expect(graphUrl('http://h/crud', '')).toBe('http://h/crud?default');
  });
});
