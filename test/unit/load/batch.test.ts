import { describe, expect, test } from 'vitest';
import { packBlankTriples } from '../../../src/load/batch.js';

describe('packBlankTriples: blank nodes across batches', () => {
  const t = (line: string, ...labels: string[]) => ({ graph: 'g', line, labels });

  test('a group connected through blank nodes is never split; groups are packed up to the batch size', () => {
    const batches = packBlankTriples(
      [t('a1', 'a'), t('b1', 'b'), t('a2', 'a', 'c'), t('c1', 'c'), t('d1', 'd'), t('b2', 'b')],
      3,
    );
    const contents = batches.map((b) => [...b.graphs.values()].flat().sort());
    expect(contents).toEqual([
      ['a1', 'a2', 'c1'],
      ['b1', 'b2', 'd1'],
    ]);
    expect(batches.every((b) => b.hasBlankNodes)).toBe(true);
  });

  test('a group larger than the batch size goes alone', () => {
    const chain = Array.from({ length: 5 }, (_, i) => t(`l${i}`, `n${i}`, `n${i + 1}`));
    expect(packBlankTriples([t('x', 'x'), ...chain], 2).map((b) => b.size)).toEqual([1, 5]);
  });
});
