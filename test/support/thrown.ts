import { expect } from 'vitest';

/** Runs `fn`, asserts it throws an instance of `type`, and returns that error for further checks. */
export function thrown<E extends Error>(type: new (...args: any[]) => E, fn: () => unknown): E {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(type);
    return error as E;
  }
  throw new Error(`expected a ${type.name}, nothing was thrown`);
}
