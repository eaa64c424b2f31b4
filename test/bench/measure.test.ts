import { describe, expect, it } from 'vitest';
import { concurrencyFits, concurrentFloor, waitIdle } from '../../bench/measure.js';

describe('concurrent runs of slow shapes', () => {
  it.each([
    { p50: 120, connections: 50, seconds: 10, fits: true },
    { p50: 800, connections: 50, seconds: 10, fits: true }, // 40 s of work: four runs' worth
    { p50: 801, connections: 50, seconds: 10, fits: false },
    { p50: 4300, connections: 10, seconds: 10, fits: false },
    { p50: 4300, connections: 10, seconds: 5, fits: false },
    { p50: 3, connections: 10, seconds: 0.3, fits: true },
  ])('p50 $p50 ms × $connections connections in $seconds s → $fits', ({ p50, connections, seconds, fits }) => {
    expect(concurrencyFits(p50, connections, seconds)).toBe(fits);
  });

  it('waitIdle probes until a request answers in about its idle time', async () => {
    const answers = [400, 90, 31, 29, 500];
    let probes = 0;
    await waitIdle(async () => answers[probes++]!, 10);
    expect(probes).toBe(4); // 31 ms > max(3 × 10, 10 + 20) = 30; 29 ms is idle enough
  });
});

describe('concurrentFloor', () => {
  it('counts the replays that failed apart from the completed ones, by what failed', async () => {
    let calls = 0;
    const replay = async () => {
      calls++;
      await new Promise((resolve) => setTimeout(resolve, 1));
      if (calls % 3 === 0) throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNRESET' } });
      if (calls % 3 === 1 && calls % 2 === 0) throw new Error('HTTP 502');
    };
    const result = await concurrentFloor(replay, 5, 2, 0.2);
    expect(result.failed).toBeGreaterThan(0);
    expect(result.completed).toBeGreaterThan(0);
    expect(Object.keys(result.failures ?? {}).sort()).toEqual(['ECONNRESET', 'Error: HTTP 502']);
    expect(Object.values(result.failures ?? {}).reduce((a, b) => a + b, 0)).toBe(result.failed);
  });
});
