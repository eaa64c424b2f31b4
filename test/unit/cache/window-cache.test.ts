import { describe, expect, it } from 'vitest';
import { MAX_PATCHED_MEMBERS } from '../../../src/cache/changed-members.js';
import { CHURN_BACKOFF_MS } from '../../../src/cache/churning.js';
import { Freshness } from '../../../src/cache/freshness.js';
import type { ListPatcher } from '../../../src/cache/list-windows.js';
import type { OrderedList } from '../../../src/cache/ordered-list.js';
import { orderedListBytes } from '../../../src/cache/ordered-list.js';
import { WindowCache } from '../../../src/cache/window-cache.js';
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

  it('listNow never waits on a whole reading: it starts one, answers none until it is kept, then the list', async () => {
    const windows = new WindowCache().forDataset('sample', FOREVER)!;
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const { calls, compute } = reader(list(2), gate);
    // Neither waits on the gate: each answers before the reading may end.
    expect(await windows.listNow('q', () => [], compute)).toBeUndefined();
    expect(await windows.listNow('q', () => [], compute)).toBeUndefined();
    expect(calls.n).toBe(1);
    open();
    await gate;
    await new Promise((resolve) => setImmediate(resolve));
    expect((await windows.listNow('q', () => [], compute))?.members).toHaveLength(2);
    expect(calls.n).toBe(1);
  });

  it('listNow after a failed reading: the failure reaches no page, and the next reading waits a pause', async () => {
    let now = 0;
    const windows = new WindowCache({ clock: { now: () => now } }).forDataset('sample', FOREVER)!;
    let calls = 0;
    const failing = async () => {
      calls++;
      throw new StoreError('timeout', 'no answer');
    };
    expect(await windows.listNow('q', () => [], failing)).toBeUndefined();
    await new Promise((resolve) => setImmediate(resolve));
    expect(await windows.listNow('q', () => [], failing)).toBeUndefined();
    expect(calls).toBe(1);
    now += CHURN_BACKOFF_MS.max + 1;
    expect(await windows.listNow('q', () => [], failing)).toBeUndefined();
    expect(calls).toBe(2);
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

  describe('a list that changes faster than it is read', () => {
    const YEAR = 'http://example.org/year';
    /** A cache on a clock the test moves, whose lists read YEAR, and a reading the test releases. */
    function churningCache() {
      const freshness = new Freshness();
      const clock = { at: 1_000, now: () => clock.at };
      const windows = new WindowCache({ clock, freshness }).forDataset('live', FOREVER)!;
      let release: () => void = () => {};
      const { calls, compute } = reader(
        list(3),
        new Promise<void>((r) => {
          release = r;
        }),
      );
      const ask = (computeWith = compute) => windows.list('q', () => [YEAR], computeWith);
      return { freshness, clock, ask, calls, release: () => release() };
    }

    it('is not read whole again while its stale reading runs: later requests read their page', async () => {
      const { freshness, clock, ask, calls, release } = churningCache();
      const first = ask();
      clock.at += 400;
      freshness.changed('live', [YEAR]);
      expect(await ask()).toBeUndefined(); // the caller reads its page from the store
      expect(calls.n).toBe(1);
      release();
      expect(await first).toEqual(list(3)); // the stale reading still answers its own request
    });

    it('pauses whole readings twice as long as the stale one had run (at least the minimum), then reads again and keeps it', async () => {
      const { freshness, clock, ask, calls, release } = churningCache();
      const first = ask();
      clock.at += 2_000;
      freshness.changed('live', [YEAR]);
      release();
      await first;
      const fresh = reader(list(2));
      clock.at += 2 * 2_000 - 1;
      expect(await ask(fresh.compute)).toBeUndefined();
      expect(fresh.calls.n).toBe(0);
      clock.at += 1;
      expect(await ask(fresh.compute)).toEqual(list(2));
      expect(await ask(fresh.compute)).toEqual(list(2)); // kept: a hit
      expect([calls.n, fresh.calls.n]).toEqual([1, 1]);
      // A kept list ends the churn: after the next change it is read whole at once.
      freshness.changed('live', [YEAR]);
      expect(await ask(fresh.compute)).toEqual(list(2));
      expect(fresh.calls.n).toBe(2);
    });

    it('doubles the pause each time the list churns again, up to the maximum', async () => {
      const { freshness, clock, ask } = churningCache();
      /** A reading of the list that a change makes stale before it ends: true when it was started. */
      const staleReading = async () => {
        let release: () => void = () => {};
        const gated = reader(
          list(1),
          new Promise<void>((r) => {
            release = r;
          }),
        );
        const reading = ask(gated.compute);
        if (gated.calls.n === 0) return false;
        freshness.changed('live', [YEAR]);
        release();
        await reading;
        return true;
      };
      expect(await staleReading()).toBe(true);
      const pauses: number[] = [];
      for (let from = clock.at; pauses.length < 8; ) {
        clock.at += 250;
        if (!(await staleReading())) continue;
        pauses.push(clock.at - from);
        from = clock.at;
      }
      expect(pauses[0]).toBe(CHURN_BACKOFF_MS.min);
      for (let i = 1; i < pauses.length; i++)
        expect(pauses[i]).toBe(Math.min(CHURN_BACKOFF_MS.max, 2 * pauses[i - 1]!));
      expect(pauses.at(-1)).toBe(CHURN_BACKOFF_MS.max);
    });

    it('a change to what the list does not read leaves it alone', async () => {
      const { freshness, clock, ask, calls, release } = churningCache();
      const first = ask();
      clock.at += 400;
      freshness.changed('live', ['http://example.org/other']);
      release();
      await first;
      expect(await ask()).toEqual(list(3));
      expect(calls.n).toBe(1);
    });
  });

  describe('a kept list whose changes are confined to known members is patched, not read whole', () => {
    const YEAR = 'http://example.org/year';
    const OTHER = 'http://example.org/other';
    const DATASET = 'live';
    /** A cache on a ledger the test feeds, whose lists read YEAR and OTHER, and a patcher that records its calls. */
    function patchingCache(patched: (list: OrderedList, changed: ReadonlySet<string>) => OrderedList | undefined) {
      const freshness = new Freshness();
      const cache = new WindowCache({ freshness });
      const windows = cache.forDataset(DATASET, FOREVER)!;
      const patches: string[][] = [];
      let gate: Promise<unknown> | undefined;
      const patcher: ListPatcher = {
        confined: (stale) => stale.every((iri) => iri === YEAR),
        patch: async (list, changed) => {
          patches.push([...changed].sort());
          await gate;
          return patched(list, changed);
        },
      };
      const { calls, compute } = reader(list(3));
      const ask = Object.assign(() => windows.list('q', () => [YEAR, OTHER], compute, patcher), {
        /** Asks with another `compute` (a reading the test holds). */
        with: (other: typeof compute) => windows.list('q', () => [YEAR, OTHER], other, patcher),
      });
      const change = (iri: string, ...subjects: (string | null)[]) =>
        freshness.changed(
          DATASET,
          [iri],
          new Map([[iri, subjects.includes(null) ? null : new Set(subjects as string[])]]),
        );
      const hold = () => {
        let open!: () => void;
        gate = new Promise<void>((resolve) => (open = resolve));
        return () => {
          gate = undefined;
          open();
        };
      };
      return { cache, freshness, ask, calls, patches, change, hold };
    }
    const renamed = (list: OrderedList): OrderedList => ({ ...list, members: list.members.map((m) => ({ ...m })) });

    it('patches once per stale lookup with the changed subjects; the delta keeps it; counted', async () => {
      const { cache, ask, calls, patches, change } = patchingCache(renamed);
      const first = await ask();
      change(YEAR, 'http://example.org/a', 'http://example.org/b');
      change(YEAR, 'http://example.org/a');
      expect(cache.dropStale(DATASET)).toBe(0);
      const patched = await ask();
      expect(patched).not.toBe(first);
      expect(patched).toEqual(first);
      expect(await ask()).toBe(patched); // kept, fresh: a hit
      expect(calls.n).toBe(1);
      expect(patches).toEqual([['http://example.org/a', 'http://example.org/b']]);
      expect(cache.stats().patched.get(DATASET)).toBe(1);
      expect(cache.stats().hits.get(DATASET)).toBe(2);
      // The next patch reads only what changed since the last one.
      change(YEAR, 'http://example.org/c');
      await ask();
      expect(patches.at(-1)).toEqual(['http://example.org/c']);
    });

    it('tells the patch whose changes are members’ (and which of those may join or leave) and whose are the hop’s targets', async () => {
      const LABEL = 'http://example.org/label';
      const freshness = new Freshness();
      const windows = new WindowCache({ freshness }).forDataset(DATASET, FOREVER)!;
      const seen: { changed: string[]; joinable: string[]; targets: string[] }[] = [];
      const patcher: ListPatcher = {
        confined: (stale) => stale.every((iri) => iri === YEAR || iri === OTHER || iri === LABEL),
        roleOf: (iri) => ({ member: iri !== LABEL, target: iri === LABEL, keyOnly: iri === YEAR }),
        patch: async (list, changed, joinable, targets) => {
          const sorted = (set: ReadonlySet<string> | undefined) => [...(set ?? [])].sort();
          seen.push({ changed: sorted(changed), joinable: sorted(joinable ?? changed), targets: sorted(targets) });
          return renamed(list);
        },
      };
      const { compute } = reader(list(3));
      const ask = () => windows.list('q', () => [YEAR, OTHER, LABEL], compute, patcher);
      const change = (iri: string, subject: string) =>
        freshness.changed(DATASET, [iri], new Map([[iri, new Set([subject])]]));
      await ask();
      change(YEAR, 'http://example.org/a');
      change(OTHER, 'http://example.org/b');
      change(LABEL, 'http://example.org/c');
      await ask();
      expect(seen).toEqual([
        {
          changed: ['http://example.org/a', 'http://example.org/b'],
          joinable: ['http://example.org/b'],
          targets: ['http://example.org/c'],
        },
      ]);
    });

    it('a change not confined to the members (not the rule’s), or of subjects not known, drops it: read whole', async () => {
      for (const changeIt of [
        (c: ReturnType<typeof patchingCache>) => c.change(OTHER, 'http://example.org/a'),
        (c: ReturnType<typeof patchingCache>) => c.change(YEAR, null),
        (c: ReturnType<typeof patchingCache>) => c.freshness.changed(DATASET, [YEAR]),
        (c: ReturnType<typeof patchingCache>) =>
          c.change(YEAR, ...Array.from({ length: MAX_PATCHED_MEMBERS + 1 }, (_, i) => `http://example.org/${i}`)),
        (c: ReturnType<typeof patchingCache>) => c.freshness.changedWhole(DATASET),
      ]) {
        const cache = patchingCache(renamed);
        await cache.ask();
        changeIt(cache);
        expect(cache.cache.dropStale(DATASET)).toBe(1);
        await cache.ask();
        expect([cache.calls.n, cache.patches.length]).toEqual([2, 0]);
      }
    });

    it('requests that find it stale meanwhile share one patch', async () => {
      const { ask, calls, patches, change, hold } = patchingCache(renamed);
      await ask();
      change(YEAR, 'http://example.org/a');
      const open = hold();
      const pending = [ask(), ask(), ask()];
      open();
      const lists = await Promise.all(pending);
      expect(new Set(lists).size).toBe(1);
      expect([calls.n, patches.length]).toEqual([1, 1]);
    });

    it('a patch that cannot place its members drops the list: it is read whole', async () => {
      const { cache, ask, calls, patches, change } = patchingCache(() => undefined);
      await ask();
      change(YEAR, 'http://example.org/a');
      expect(await ask()).toEqual(list(3));
      expect([calls.n, patches.length]).toEqual([2, 1]);
      expect(cache.stats().patched.get(DATASET)).toBeUndefined();
    });

    it('a patch that goes stale while it runs answers and is kept; a request meanwhile waits for it and patches again, however often in a row', async () => {
      const { cache, ask, calls, patches, change, hold } = patchingCache(renamed);
      await ask();
      change(YEAR, 'http://example.org/a');
      const ROUNDS = 5;
      for (let i = 1; i <= ROUNDS; i++) {
        const open = hold();
        const patching = ask();
        await Promise.resolve();
        change(YEAR, `http://example.org/during-${i}`);
        // Not a page from the store (undefined): it waits for the patch, then patches during-i.
        const later = ask();
        open();
        expect(await patching).toEqual(list(3));
        expect(await later).toEqual(list(3));
      }
      expect(patches).toEqual([
        ['http://example.org/a'],
        ...Array.from({ length: ROUNDS }, (_, i) => [`http://example.org/during-${i + 1}`]),
      ]);
      // Never dropped nor read whole again, and the last patch was fresh: a hit.
      const last = await ask();
      expect(await ask()).toBe(last);
      expect([calls.n, patches.length, cache.stats().patched.get(DATASET)]).toEqual([1, ROUNDS + 1, ROUNDS + 1]);
    });

    it('a whole reading that went stale by such changes is kept, and the next request patches it', async () => {
      const { ask, calls, patches, change } = patchingCache(renamed);
      let open!: () => void;
      const gated = reader(list(3), new Promise<void>((resolve) => (open = resolve)));
      const reading = ask.with(gated.compute);
      change(YEAR, 'http://example.org/during');
      open();
      expect(await reading).toEqual(list(3));
      expect(await ask()).toEqual(list(3));
      expect([gated.calls.n, calls.n, patches]).toEqual([1, 0, [['http://example.org/during']]]);
    });

    it('one that went stale by other changes is not kept, and pauses whole readings', async () => {
      const { ask, patches, change } = patchingCache(renamed);
      let open!: () => void;
      const gated = reader(list(3), new Promise<void>((resolve) => (open = resolve)));
      const reading = ask.with(gated.compute);
      change(OTHER, 'http://example.org/during');
      open();
      expect(await reading).toEqual(list(3));
      expect(await ask()).toBeUndefined(); // paused: the page comes from the store
      expect([gated.calls.n, patches.length]).toEqual([1, 0]);
    });
  });
});
