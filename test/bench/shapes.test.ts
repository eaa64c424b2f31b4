import { expect, it } from 'vitest';
import { deepPage } from '../../bench/shapes.js';

it('deepPage is page 500 (offset 10,000) at 1M, and 10 pages before the end of smaller datasets', () => {
  expect(deepPage(70_000)).toBe(500);
  expect(deepPage(7_000)).toBe(340);
  expect(deepPage(700)).toBe(25);
  expect(deepPage(100)).toBe(0);
});
