import { describe, expect, it } from 'vitest';
import type { OrderedList } from '../../../src/execute/ordered-list.js';
import { orderedListBytes } from '../../../src/execute/ordered-list.js';
import { WindowCache } from '../../../src/execute/window-cache.js';
import { StoreError } from '../../../src/store/store.js';

/** A list of `n` members with ids of `width` characters. */
function list(n: number, width = 8): OrderedList {
  const ids = Array.from({ length: n }, (_, i) => String(i).padStart(width, '0'));
  return {
    members: ids.map((id) => ({ iri: `http://example.org/${id}`, id })),
    keys: ids.map(() => []),
    places: new Map(ids.map((id, i) => [id, i])),
  };
}

/** A `compute` that counts its calls and resolves `value` (after `gate`, when given). */
function reader(value: OrderedList | undefined, gate?: Promise<unknown>) {
  const calls = { n: 0 };
  const compute = async () => {
    calls.n++;
    await gate;
    return value;
  };
  return { calls, compute };
}

const FOREVER = Number.POSITIVE_INFINITY;

describe('WindowCache', () => {
  it('reads a list once and answers from memory after; hits and misses counted by dataset', async () => {
    const cache = new WindowCache();
    const windows = cache.forDataset('sample', FOREVER)!;
    const { calls, compute } = reader(list(3));
    const first = await windows.list('q', () => [], compute);
    expect(await windows.list('q', () => [], compute)).toBe(first);
    expect(calls.n).toBe(1);
    const stats = cache.stats();
    expect([stats.entries, stats.hits.get('sample'), stats.misses.get('sample')]).toEqual([1, 1, 1]);
    expect(stats.bytes).toBeGreaterThan(orderedListBytes(first!));
  });

  it('a TTL of 0 turns it off for that dataset; datasets never share a list', async () => {
    const cache = new WindowCache();
    expect(cache.forDataset('off', 0)).toBeUndefined();
    const { calls, compute } = reader(list(1));
    await cache.forDataset('a', FOREVER)!.list('q', () => [], compute);
    await cache.forDataset('b', FOREVER)!.list('q', () => [], compute);
    expect(calls.n).toBe(2);
  });

  it('requests that ask while a list is read share that one reading', async () => {
    const windows = new WindowCache().forDataset('sample', FOREVER)!;
    let open!: () => void;
    const { calls, compute } = reader(list(2), new Promise<void>((resolve) => (open = resolve)));
    const pending = [1, 2, 3].map(() => windows.list('q', () => [], compute));
    open();
    const lists = await Promise.all(pending);
    expect(calls.n).toBe(1);
    expect(new Set(lists).size).toBe(1);
  });

  it('a store error reaches every request that waited for it, and is not kept', async () => {
    const windows = new WindowCache().forDataset('sample', FOREVER)!;
    const failure = new StoreError('timeout', 'no answer');
    let calls = 0;
    const failing = async () => {
      calls++;
      await Promise.resolve();
      throw failure;
    };
    const results = await Promise.allSettled([
      windows.list('q', () => [], failing),
      windows.list('q', () => [], failing),
    ]);
    expect(results.map((r) => r.status === 'rejected' && r.reason)).toEqual([failure, failure]);
    expect(calls).toBe(1);
    expect(await windows.list('q', () => [], reader(list(1)).compute)).toBeDefined();
  });

  it('when the request that reads a list goes away, a request waiting for it reads it itself', async () => {
    const windows = new WindowCache().forDataset('sample', FOREVER)!;
    const gone = new Error('the client closed the connection');
    const started = windows.list(
      'q',
      () => [],
      async () => {
        await Promise.resolve();
        throw gone;
      },
    );
    const { calls, compute } = reader(list(4));
    const waiting = windows.list('q', () => [], compute);
    await expect(started).rejects.toBe(gone);
    expect((await waiting)?.members).toHaveLength(4);
    expect(calls.n).toBe(1);
  });

  it('a list bigger than the bound answers the request that read it, is not kept, and is not read again', async () => {
    const big = list(100);
    const cache = new WindowCache({ maxBytes: orderedListBytes(big) - 1 });
    const windows = cache.forDataset('sample', FOREVER)!;
    const { calls, compute } = reader(big);
    expect(await windows.list('q', () => [], compute)).toBe(big);
    expect(await windows.list('q', () => [], compute)).toBeUndefined();
    expect(calls.n).toBe(1);
    expect(cache.stats().hits.get('sample')).toBeUndefined();
  });

  it('a list the store cuts short (compute gives undefined): undefined, and not read again', async () => {
    const windows = new WindowCache().forDataset('sample', FOREVER)!;
    const { calls, compute } = reader(undefined);
    expect(await windows.list('q', () => [], compute)).toBeUndefined();
    expect(await windows.list('q', () => [], compute)).toBeUndefined();
    expect(calls.n).toBe(1);
  });

  it('bounded by memory: the least recently used lists go first', async () => {
    const size = orderedListBytes(list(50)) + 100;
    const cache = new WindowCache({ maxBytes: 2.5 * size });
    const windows = cache.forDataset('sample', FOREVER)!;
    const { calls, compute } = reader(list(50));
    for (const key of ['a', 'b', 'a', 'c']) await windows.list(key, () => [], compute); // b is the least recent when c comes
    expect(cache.stats().entries).toBe(2);
    expect(cache.stats().bytes).toBeLessThanOrEqual(2.5 * size);
    await windows.list('a', () => [], compute);
    expect(calls.n).toBe(3);
    await windows.list('b', () => [], compute);
    expect(calls.n).toBe(4);
  });

  it('a TTL in seconds expires a list; no expiry keeps it', async () => {
    let now = 1_000; // lru-cache takes a start time of 0 for "no TTL"
    const cache = new WindowCache({ clock: { now: () => now } });
    const timed = cache.forDataset('remote', 60)!;
    const kept = cache.forDataset('embedded', FOREVER)!;
    const { calls, compute } = reader(list(1));
    await timed.list('q', () => [], compute);
    await kept.list('q', () => [], compute);
    now = 60_000;
    await timed.list('q', () => [], compute);
    expect(calls.n).toBe(2);
    now = 61_001;
    await timed.list('q', () => [], compute);
    expect(calls.n).toBe(3);
    now = 1e12;
    await kept.list('q', () => [], compute);
    expect(calls.n).toBe(3);
  });
});
