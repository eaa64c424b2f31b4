import { describe, expect, it } from 'vitest';
import { keptPerOwner } from '../../../src/cache/kept-per-owner.js';

describe('keptPerOwner', () => {
  it('makes each shape of each owner once, and gives it back after', () => {
    const kept = keptPerOwner<object, { n: number }>(8);
    const [a, b] = [{}, {}];
    let made = 0;
    const make = () => ({ n: ++made });
    const first = kept(a, 'x', make);
    expect(kept(a, 'x', make)).toBe(first);
    expect(kept(b, 'x', make)).not.toBe(first); // another owner's shape of the same key
    expect(kept(a, 'y', make).n).toBe(3);
    expect(made).toBe(3);
  });

  it('keeps the most recently used shapes of an owner, up to its bound', () => {
    const kept = keptPerOwner<object, { key: string }>(2);
    const owner = {};
    const made: string[] = [];
    const get = (key: string) =>
      kept(owner, key, () => {
        made.push(key);
        return { key };
      });
    get('a');
    get('b');
    get('a'); // a is now the more recent
    get('c'); // b goes
    get('a');
    get('b');
    expect(made).toEqual(['a', 'b', 'c', 'b']);
  });
});
