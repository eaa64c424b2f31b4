import { expect, it } from 'vitest';
import type { OrderedList } from '../../../src/execute/ordered-list.js';
import { WindowCache } from '../../../src/execute/window-cache.js';
import { Metrics } from '../../../src/http/metrics.js';
import { metricValue } from '../../support/metrics-text.js';

const LIST: OrderedList = {
  members: [{ iri: 'http://example.org/a', id: 'a' }],
  keys: [[]],
  places: new Map([['a', 0]]),
};

it('/metrics reports the window caches it watches: hits and misses by dataset, entries and bytes', async () => {
  const metrics = new Metrics({ datasets: ['sample', 'other'], defaultDataset: 'sample' });
  const [one, two] = [new WindowCache(), new WindowCache()];
  metrics.watchWindowCache(one);
  metrics.watchWindowCache(two);
  const read = async () => LIST;
  for (const key of ['a', 'a', 'a', 'b'])
    await one.forDataset('sample', Number.POSITIVE_INFINITY)!.list(key, () => [], read);
  await two.forDataset('other', 60)!.list('a', () => [], read);
  await two.forDataset('unknown', 60)!.list('a', () => [], read);

  const text = await metrics.registry.metrics();
  expect(metricValue(text, 'window_cache_hits_total', { dataset: 'sample' })).toBe(2);
  expect(metricValue(text, 'window_cache_misses_total', { dataset: 'sample' })).toBe(2);
  expect(metricValue(text, 'window_cache_misses_total', { dataset: 'other' })).toBe(1);
  expect(metricValue(text, 'window_cache_misses_total', { dataset: '' })).toBe(1);
  expect(metricValue(text, 'window_cache_entries')).toBe(4);
  const bytes = one.stats().bytes + two.stats().bytes;
  expect(metricValue(text, 'window_cache_bytes')).toBe(bytes);

  // Counts only grow between scrapes, as counters must.
  await one.forDataset('sample', Number.POSITIVE_INFINITY)!.list('a', () => [], read);
  expect(metricValue(await metrics.registry.metrics(), 'window_cache_hits_total', { dataset: 'sample' })).toBe(3);
});
