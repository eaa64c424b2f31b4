import { describe, expect, it } from 'vitest';
import { idToLookup, iriToId } from '../../../src/mapping/ids.js';
import type { IdStrategy } from '../../../src/mapping/model.js';
import { commonBase, type IdProposal, proposeId } from '../../../src/scaffold/id-strategy.js';
import { titled } from '../../support/titled.js';

describe('commonBase', () => {
  it.each(
    titled(
      [
        { iris: ['http://x/c/01', 'http://x/c/0a'], expected: 'http://x/c/' },
        { iris: ['http://x/c/01'], expected: 'http://x/c/' },
        { iris: ['http://x/ns#A', 'http://x/ns#B'], expected: 'http://x/ns#' },
        { iris: ['http://x/c/0101', 'http://x/c/0102'], expected: 'http://x/c/' },
        { iris: ['urn:isbn:123', 'urn:isbn:456'], expected: 'urn:isbn:' },
        { iris: ['http://a.org/x', 'http://b.org/y'], expected: '' },
        { iris: ['http://pub.example.org/p/a', 'http://press.example.net/b'], expected: '' },
        { iris: ['http://x.org/a', 'http://x.org/b'], expected: 'http://x.org/' },
        { iris: [], expected: '' },
      ],
      (row) => row.iris.join(' '),
    ),
  )('%s', (_, { iris, expected }) => {
    expect(commonBase(iris)).toBe(expected);
  });
});

/** The strategy a proposal writes, as the mapping loader compiles it. */
function strategy(p: IdProposal): IdStrategy {
  switch (p.kind) {
    case 'predicate':
      return { kind: 'predicate', predicate: p.predicate };
    case 'template':
      return { kind: 'template', prefix: p.prefix, suffix: '' };
    case 'local':
      return { kind: 'local', base: p.base };
    case 'hex':
      return { kind: 'hex', base: p.base };
  }
}

describe('proposeId', () => {
  it.each(
    titled(
      [
        { name: 'lowercase hex local names → template', iris: ['http://x/c/01', 'http://x/c/0a02'], kind: 'template' },
        { name: 'digits only are hex too → template', iris: ['http://x/t/001', 'http://x/t/012'], kind: 'template' },
        {
          name: 'readable local names → local',
          iris: [
            'http://qudt.org/vocab/unit/M-PER-SEC',
            'http://qudt.org/vocab/unit/KiloGM',
            'http://qudt.org/vocab/unit/DEG_C',
          ],
          kind: 'local',
        },
        { name: 'uppercase hex is not a template id → local', iris: ['http://x/c/0A', 'http://x/c/0B'], kind: 'local' },
        { name: 'one non-hex member → local', iris: ['http://x/c/01', 'http://x/c/XY-not-hex'], kind: 'local' },
        { name: 'local names with slashes → hex', iris: ['http://x/c/a/b', 'http://x/c/d/e'], kind: 'hex' },
        {
          name: 'one irregular local name among readable ones → local (it gets an encoded id)',
          iris: ['http://x/c/a.b', 'http://x/c/c-d', 'http://x/c/e/f', 'http://x/c/g'],
          kind: 'local',
        },
        {
          name: 'half irregular → hex',
          iris: ['http://x/c/a%20b', 'http://x/c/c-d', 'http://x/c/e/f', 'http://x/c/g'],
          kind: 'hex',
        },
        { name: 'local names with spaces encoded → hex', iris: ['http://x/c/a%20b', 'http://x/c/d'], kind: 'hex' },
        { name: 'no shared namespace → hex of the whole IRI', iris: ['http://a.org/x', 'http://b.org/y'], kind: 'hex' },
      ],
      (row) => row.name,
    ),
  )('%s', (_, { iris, kind }) => {
    const proposal = proposeId(iris);
    expect(proposal.kind).toBe(kind);
    expect(proposal.why).not.toBe('');
    // Whatever it proposes (never `predicate` from IRIs alone), each member's id leads back to the member.
    for (const iri of iris) {
      const s = strategy(proposal);
      expect(idToLookup(s, iriToId(s as Exclude<IdStrategy, { kind: 'predicate' }>, iri))).toEqual({
        kind: 'iri',
        iri,
      });
    }
  });

  it('local ids with a few irregular members: the reason names them and their encoded ids, readable ids stay readable', () => {
    const readable = Array.from({ length: 8 }, (_, i) => `http://x/c/item-${i}.v2`);
    const proposal = proposeId([...readable, 'http://x/c/a/b', 'http://x/c/x y']);
    expect(proposal).toMatchObject({ kind: 'local', base: 'http://x/c/' });
    expect(proposal.why).toContain('2 of the 10 sampled');
    expect(proposal.why).toContain("'a/b' → a%2Fb");
    expect(proposal.why).toContain("'x y' → x%20y");
    const s = strategy(proposal) as Exclude<IdStrategy, { kind: 'predicate' }>;
    expect(iriToId(s, 'http://x/c/item-0.v2')).toBe('item-0.v2');
  });

  it('a mu:uuid-like literal wins when every sampled value is a usable id', () => {
    const uuid = { predicate: 'http://mu.semte.ch/vocabularies/core/uuid', values: ['7c1e0a42', '5a3f-9b'] };
    expect(proposeId(['http://x/t/001'], uuid)).toMatchObject({ kind: 'predicate', predicate: uuid.predicate });
  });

  it('a uuid literal that is no usable id (uppercase) leaves the choice to the IRIs', () => {
    const uuid = { predicate: 'http://mu.semte.ch/vocabularies/core/uuid', values: ['7C1E0A42'] };
    expect(proposeId(['http://x/t/001'], uuid).kind).toBe('template');
  });
});
