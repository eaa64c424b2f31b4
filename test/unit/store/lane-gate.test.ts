import { describe, expect, it } from 'vitest';
import { LaneGate, laneLimits } from '../../../src/store/lane-gate.js';
import { EMBEDDED_QUERIES } from '../../../src/store/oxigraph-store.js';
import type { Lane } from '../../../src/store/store.js';
import { StoreError } from '../../../src/store/store.js';

/** A task the test finishes by hand; `started` says whether the gate has called it. */
function manualTask(name: string, log: string[]) {
  let finish!: (value: string) => void;
  let fail!: (error: Error) => void;
  let started = false;
  const task = () => {
    started = true;
    log.push(`start ${name}`);
    return new Promise<string>((resolve, reject) => {
      finish = resolve;
      fail = reject;
    });
  };
  return {
    task,
    get started() {
      return started;
    },
    finish: () => finish(name),
    fail: (error: Error) => fail(error),
  };
}

/** Lets the gate's `finally` handlers run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable('expected a rejection'),
    (error: unknown) => error,
  );
}

describe('LaneGate', () => {
  it('runs up to the lane’s limit at once and starts the others in order of arrival as slots free', async () => {
    const log: string[] = [];
    const gate = new LaneGate({ light: 1, heavy: 2, queue: 10 });
    const tasks = ['a', 'b', 'c', 'd'].map((name) => manualTask(name, log));
    const results = tasks.map((t) => gate.run('heavy', undefined, t.task));
    expect(log).toEqual(['start a', 'start b']);
    expect(gate.load().heavy).toEqual({ running: 2, waiting: 2 });
    tasks[1]!.finish();
    expect(await results[1]).toBe('b');
    await settle();
    expect(log).toEqual(['start a', 'start b', 'start c']);
    tasks[0]!.finish();
    await settle();
    expect(log).toEqual(['start a', 'start b', 'start c', 'start d']);
    tasks[2]!.finish();
    tasks[3]!.finish();
    expect(await Promise.all(results)).toEqual(['a', 'b', 'c', 'd']);
    expect(gate.load()).toEqual({ light: { running: 0, waiting: 0 }, heavy: { running: 0, waiting: 0 } });
  });

  it('starts a light task while the heavy lane is full and its queue too', async () => {
    const log: string[] = [];
    const gate = new LaneGate({ light: 1, heavy: 1, queue: 1 });
    const heavy = [manualTask('h1', log), manualTask('h2', log)];
    for (const t of heavy) void gate.run('heavy', undefined, t.task);
    const light = manualTask('l1', log);
    const result = gate.run('light', undefined, light.task);
    expect(log).toEqual(['start h1', 'start l1']);
    light.finish();
    expect(await result).toBe('l1');
  });

  it.each([0, 2])(
    "rejects with 'overloaded' at once, never calling the task, when the lane's queue of %i is full",
    async (queue) => {
      const log: string[] = [];
      const gate = new LaneGate({ light: 1, heavy: 1, queue });
      void gate.run('heavy', undefined, manualTask('running', log).task);
      for (let i = 0; i < queue; i++) void gate.run('heavy', undefined, manualTask(`waiting${i}`, log).task);
      const refused = manualTask('refused', log);
      const error = await rejection(gate.run('heavy', undefined, refused.task));
      expect(error).toBeInstanceOf(StoreError);
      expect((error as StoreError).kind).toBe('overloaded');
      expect((error as StoreError).message).toBe(`the heavy lane is full: 1 queries running and ${queue} waiting`);
      expect(refused.started).toBe(false);
    },
  );

  it('keeps a queue of its own length per lane when the queue is given per lane', async () => {
    const log: string[] = [];
    const gate = new LaneGate({ light: 1, heavy: 1, queue: { light: 3, heavy: 1 } });
    const started: ReturnType<typeof manualTask>[] = [];
    const tasks = (lane: 'light' | 'heavy', n: number) =>
      Array.from({ length: n }, (_, i) => {
        const task = manualTask(`${lane}${i}`, log);
        started.push(task);
        return gate.run(lane, undefined, task.task);
      });
    const light = tasks('light', 4); // one running, three waiting
    const heavy = tasks('heavy', 2); // one running, one waiting
    expect(gate.load()).toEqual({ light: { running: 1, waiting: 3 }, heavy: { running: 1, waiting: 1 } });
    for (const [lane, waiting] of [
      ['light', 3],
      ['heavy', 1],
    ] as const) {
      const error = await rejection(gate.run(lane, undefined, manualTask('refused', log).task));
      expect((error as StoreError).message).toBe(`the ${lane} lane is full: 1 queries running and ${waiting} waiting`);
    }
    gate.close(new Error('closed'));
    for (const task of started) if (task.started) task.finish();
    await Promise.allSettled([...light, ...heavy]);
  });

  it("takes a waiting task out of the queue when its signal aborts, with the signal's reason", async () => {
    const log: string[] = [];
    const gate = new LaneGate({ light: 1, heavy: 1, queue: 1 });
    const running = manualTask('running', log);
    void gate.run('heavy', undefined, running.task);
    const controller = new AbortController();
    const waiting = manualTask('waiting', log);
    const result = gate.run('heavy', controller.signal, waiting.task);
    const reason = new Error('client went away');
    controller.abort(reason);
    expect(await rejection(result)).toBe(reason);
    expect(gate.load().heavy).toEqual({ running: 1, waiting: 0 });
    // Its place is free: another task may wait, and starts when the running one ends.
    const next = manualTask('next', log);
    const nextResult = gate.run('heavy', undefined, next.task);
    running.finish();
    await settle();
    expect(log).toEqual(['start running', 'start next']);
    expect(waiting.started).toBe(false);
    next.finish();
    expect(await nextResult).toBe('next');
  });

  it('never starts a task whose signal has already aborted', async () => {
    const log: string[] = [];
    const task = manualTask('late', log);
    const reason = new Error('too late');
    expect(
      await rejection(
        new LaneGate({ light: 1, heavy: 1, queue: 1 }).run('light', AbortSignal.abort(reason), task.task),
      ),
    ).toBe(reason);
    expect(task.started).toBe(false);
  });

  it('frees the slot of a task that fails, or throws before returning a promise', async () => {
    const log: string[] = [];
    const gate = new LaneGate({ light: 1, heavy: 1, queue: 5 });
    const failing = manualTask('failing', log);
    const failed = gate.run('heavy', undefined, failing.task);
    const throwing = gate.run('heavy', undefined, () => {
      throw new Error('sync');
    });
    const last = manualTask('last', log);
    const lastResult = gate.run('heavy', undefined, last.task);
    failing.fail(new Error('async'));
    expect(await rejection(failed)).toEqual(new Error('async'));
    expect(await rejection(throwing)).toEqual(new Error('sync'));
    await settle();
    expect(last.started).toBe(true);
    last.finish();
    expect(await lastResult).toBe('last');
  });

  it('waits for the shared resource, and gives it first to the lane using the smaller share of its limit', async () => {
    const log: string[] = [];
    let free = 0;
    const gate = new LaneGate({ light: 2, heavy: 4, queue: 10 }, () => free > 0);
    const run = (lane: Lane, name: string) => {
      const t = manualTask(name, log);
      void gate.run(lane, undefined, () => {
        free -= 1;
        return t.task();
      });
      return t;
    };
    run('heavy', 'h1');
    run('heavy', 'h2');
    run('light', 'l1');
    expect(log).toEqual([]);
    free = 1;
    gate.wake(); // both lanes idle: light first on a tie
    expect(log).toEqual(['start l1']);
    free = 2;
    gate.wake(); // light uses 1/2, heavy 0/4: heavy, then heavy again (1/4 < 1/2)
    expect(log).toEqual(['start l1', 'start h1', 'start h2']);
  });

  it('rejects waiting and later tasks once closed, and lets running ones finish', async () => {
    const log: string[] = [];
    const gate = new LaneGate({ light: 1, heavy: 1, queue: 1 });
    const running = manualTask('running', log);
    const runningResult = gate.run('heavy', undefined, running.task);
    const waiting = gate.run('heavy', undefined, manualTask('waiting', log).task);
    const closed = new StoreError('unavailable', 'closed');
    gate.close(closed);
    expect(await rejection(waiting)).toBe(closed);
    expect(await rejection(gate.run('light', undefined, manualTask('after', log).task))).toBe(closed);
    running.finish();
    expect(await runningResult).toBe('running');
    expect(log).toEqual(['start running']);
  });

  it.each([
    [{ light: 0, heavy: 1, queue: 1 }, 'queries.light must be a positive integer, got 0'],
    [{ light: 1, heavy: 1.5, queue: 1 }, 'queries.heavy must be a positive integer, got 1.5'],
    [{ light: 1, heavy: 1, queue: -1 }, 'queries.queue must be a non-negative integer, got -1'],
    [
      { light: 1, heavy: 1, queue: { light: 2, heavy: 0.5 } },
      'queries.queue.heavy must be a non-negative integer, got 0.5',
    ],
  ])('refuses limits %o', (limits, message) => {
    expect(() => new LaneGate(limits)).toThrow(message);
  });
});

describe('laneLimits', () => {
  it('takes each limit given, and the default for each one left out or undefined', () => {
    const defaults = { light: 8, heavy: 4, queue: 64 };
    expect(laneLimits(defaults)).toEqual(defaults);
    expect(laneLimits(defaults, { heavy: 2, light: undefined })).toEqual({ light: 8, heavy: 2, queue: 64 });
    expect(laneLimits(defaults, { light: 1, heavy: 1, queue: 0 })).toEqual({ light: 1, heavy: 1, queue: 0 });
  });

  it('fills a per-lane queue from the defaults, one length or one per lane', () => {
    expect(laneLimits({ light: 8, heavy: 4, queue: 64 }, { queue: { heavy: 2 } })).toEqual({
      light: 8,
      heavy: 4,
      queue: { light: 64, heavy: 2 },
    });
    expect(laneLimits(EMBEDDED_QUERIES, { queue: { light: 5 } }).queue).toEqual({ light: 5, heavy: 16 });
    expect(laneLimits(EMBEDDED_QUERIES, { queue: 3 }).queue).toBe(3);
  });
});
