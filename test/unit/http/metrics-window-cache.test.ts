import { expect, it } from 'vitest';
import type { OrderedList } from '../../../src/cache/ordered-list.js';
import { WindowCache } from '../../../src/cache/window-cache.js';
import { Metrics } from '../../../src/http/metrics.js';
import { metricValue } from '../../support/metrics-text.js';

const LIST: OrderedList = {
  members: [{ iri: 'http://example.org/a', id: 'a' }],
  keys: [[]],
  places: new Map([['a', 0]]),
};

it('/metrics reports the window cache it watches: hits and misses by dataset, entries and bytes', async () => {
  const metrics = new Metrics({ datasets: ['sample', 'other'], defaultDataset: 'sample' });
  const cache = new WindowCache();
  metrics.watchWindowCache(cache);
  const read = async () => LIST;
  for (const key of ['a', 'a', 'a', 'b'])
    await cache.forDataset('sample', Number.POSITIVE_INFINITY)!.list(key, () => [], read);
  await cache.forDataset('other', 60)!.list('a', () => [], read);
  await cache.forDataset('unknown', 60)!.list('a', () => [], read);

  const text = await metrics.registry.metrics();
  expect(metricValue(text, 'window_cache_hits_total', { dataset: 'sample' })).toBe(2);
  expect(metricValue(text, 'window_cache_misses_total', { dataset: 'sample' })).toBe(2);
  expect(metricValue(text, 'window_cache_misses_total', { dataset: 'other' })).toBe(1);
  expect(metricValue(text, 'window_cache_misses_total', { dataset: '' })).toBe(1);
  expect(metricValue(text, 'window_cache_entries')).toBe(4);
  expect(metricValue(text, 'window_cache_bytes')).toBe(cache.stats().bytes);

  // Counts only grow between scrapes, as counters must.
  await cache.forDataset('sample', Number.POSITIVE_INFINITY)!.list('a', () => [], read);
  expect(metricValue(await metrics.registry.metrics(), 'window_cache_hits_total', { dataset: 'sample' })).toBe(3);
});

it('a window cache that replaces another (a --watch reload) adds to its counts and takes over the gauges', async () => {
  const metrics = new Metrics({ datasets: ['sample'], defaultDataset: 'sample' });
  const [old, next] = [new WindowCache(), new WindowCache()];
  const read = async () => LIST;
  metrics.watchWindowCache(old);
  for (const key of ['a', 'a', 'b']) await old.forDataset('sample', 60)!.list(key, () => [], read);
  metrics.watchWindowCache(next);
  for (const key of ['a', 'a']) await next.forDataset('sample', 60)!.list(key, () => [], read);

  const text = await metrics.registry.metrics();
  expect(metricValue(text, 'window_cache_hits_total', { dataset: 'sample' })).toBe(2);
  expect(metricValue(text, 'window_cache_misses_total', { dataset: 'sample' })).toBe(3);
  expect(metricValue(text, 'window_cache_entries')).toBe(1);
  expect(metricValue(text, 'window_cache_bytes')).toBe(next.stats().bytes);
});
