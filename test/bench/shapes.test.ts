import { expect, it } from 'vitest';
import { deepPage, neverSeenPages, SHAPES, sequence, spread } from '../../bench/shapes.js';

it('deepPage is page 500 (offset 10,000) at 1M, and 10 pages before the end of smaller datasets', () => {
  expect(deepPage(70_000)).toBe(500);
  expect(deepPage(7_000)).toBe(340);
  expect(deepPage(700)).toBe(25);
  expect(deepPage(100)).toBe(0);
});

it("neverSeenPages: every page once, from page 1000 up, wrapping round within the dataset's pages", () => {
  const at1m = neverSeenPages(70_000);
  expect(at1m).toHaveLength(3500);
  expect(at1m.slice(0, 2)).toEqual([1000, 1001]);
  expect(at1m.slice(2499, 2502)).toEqual([3499, 0, 1]);
  expect(new Set(at1m).size).toBe(3500);
  // 700 activities: 35 pages; 1000 wraps to page 20.
  expect(neverSeenPages(700).slice(0, 16)).toEqual([20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 0]);
  expect(Math.max(...neverSeenPages(7_000))).toBe(349);
});

it('the never-seen shape asks for each of those pages once, in order', async () => {
  const shape = SHAPES.find((s) => s.key === 'never-seen')!;
  expect(shape.fresh).toBe(true);
  const urls = await shape.urls({
    dataset: { activities: 7_000 } as never,
    get: async () => ({ status: 200, body: {} }),
  });
  expect(urls[0]).toBe('/trade-activities?page%5Bnumber%5D=300'); // 1000 wrapped into 350 pages
  expect(new Set(urls).size).toBe(350);
});

it('sequence gives each item in turn and starts over; spread samples evenly', () => {
  const next = sequence(['a', 'b', 'c']);
  expect([next(), next(), next(), next()]).toEqual(['a', 'b', 'c', 'a']);
  expect(spread([0, 1, 2, 3, 4, 5], 3)).toEqual([0, 2, 4]);
  expect(spread([0, 1], 5)).toEqual([0, 1]);
});
