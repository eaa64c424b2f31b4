import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // One Virtuoso for the whole run, with the sample loaded (see the file).
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Suites start stores (Oxigraph worker pools, Virtuoso processes): one file at a time keeps
    // them from fighting over the 2 cores of the CI machine.
    fileParallelism: false,
  },
});
