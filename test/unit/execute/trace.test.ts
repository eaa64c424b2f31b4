import { describe, expect, it } from 'vitest';
import { Trace } from '../../../src/execute/trace.js';

describe('Trace: the steps a request took, as Server-Timing names them', () => {
  it.each([
    [[], 'none'],
    [[['resource', false]], 'resource'],
    [
      [
        ['histogram', false],
        ['fetch', false],
        ['include-1', false],
      ],
      'histogram+fetch+include-1',
    ],
    [
      [
        ['window-cache', false],
        ['histogram', true],
        ['list-query', true],
        ['fetch', false],
      ],
      'window-cache>histogram>list-query+fetch',
    ],
  ] as const)('%j → %s', (steps, name) => {
    const trace = new Trace();
    for (const [path, fallback] of steps) trace.step(path, `why ${path}`, { fallback });
    expect(trace.name()).toBe(name);
    expect(trace.steps.map((step) => step.why)).toEqual(steps.map(([path]) => `why ${path}`));
    expect(trace.steps.filter((step) => step.fallback).length).toBe(steps.filter(([, fallback]) => fallback).length);
  });
});
