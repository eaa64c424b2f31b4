import { describe, expect, it } from 'vitest';
import { inferMapping } from '../../../src/scaffold/infer-mapping.js';
import type { Introspection } from '../../../src/scaffold/model.js';
import { sourceDescription } from '../../../src/scaffold/source-description.js';
import { writeMapping } from '../../../src/scaffold/write-mapping.js';

const facts: Introspection = {
  classes: [
    {
      iri: 'http://example.org/ns#Book',
      members: 2,
      sampled: 2,
      id: { kind: 'template', prefix: 'http://example.org/book/', why: 'hex' },
      predicates: [],
      incoming: [],
    },
  ],
  shapes: [],
  notes: [],
};

describe('sourceDescription', () => {
  it('names the data files', () => {
    expect(sourceDescription({ data: ['a.ttl', 'dir/b.nt'] })).toBe('a.ttl, dir/b.nt');
  });

  it('names an endpoint as given when it holds no credentials, with its graph', () => {
    expect(sourceDescription({ endpoint: 'http://localhost:8890/sparql' })).toBe('http://localhost:8890/sparql');
    expect(sourceDescription({ endpoint: 'https://h.example/q?x=1', graph: 'http://g.example/g' })).toBe(
      'https://h.example/q?x=1 <http://g.example/g>',
    );
  });

  it.each([
    ['user and password', 'http://alice:s3cret@localhost:8890/sparql', 'http://localhost:8890/sparql'],
    ['percent-encoded password', 'https://alice:s3cr%40et@h.example/sparql', 'https://h.example/sparql'],
    ['an @ in the password', 'http://alice:s3c@ret@h.example/sparql', 'http://h.example/sparql'],
    ['user only', 'http://alice@h.example/sparql', 'http://h.example/sparql'],
    ['a URL that does not parse', 'http://alice:s3cret@[bad/sparql', '[bad/sparql'],
  ])('an endpoint with %s: the scaffold written to disk never holds them', (_, endpoint, shown) => {
    const description = sourceDescription({ endpoint, graph: 'http://g.example/g' });
    expect(description).toBe(`${shown} <http://g.example/g>`);
    const { yaml } = writeMapping(inferMapping(facts), { description });
    expect(yaml).toContain(`from ${description}:`);
    for (const secret of ['alice', 's3c', 'ret@']) expect(yaml).not.toContain(secret);
  });
});
