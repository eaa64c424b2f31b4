import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Integration suites start stores (an Oxigraph worker pool, a Virtuoso process):
    // run files one at a time so two Virtuoso starts never race for the 2 cores.
    fileParallelism: false,
  },
});
