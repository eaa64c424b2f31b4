import { defineConfig } from 'vitest/config';

// Where a test lives (one rule):
//   test/unit/<path>.test.ts        unit tables of src/<path>.ts (and of scripts/<path>.ts, under
//                                   test/unit/scripts/); no store, no network, files in parallel
//   test/bench/<name>.test.ts       the benchmark's pure parts (bench/<name>.ts), apart from the product
//   test/integration/*.test.ts      everything that needs a store, a server or a process: one file at a time
// `vitest run` (npm test) runs the three projects; `--project unit` is the quick loop.
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Coverage of the pure core by the unit tables: `npm run test:coverage` (`--project unit --coverage`).
    // The thresholds are what the unit project reaches, rounded down: a change that drops below fails.
    coverage: {
      provider: 'v8',
      include: ['src/request/**', 'src/plan/**', 'src/sparql/**'],
      reporter: ['text-summary', 'text'],
      // Measured with the unit tables alone: request/ ~100%, plan/ ~100%, sparql/ ~20% (its query
      // builders are exercised by the integration suites only, against real stores).
      thresholds: { lines: 69, functions: 59, branches: 69, statements: 69 },
    },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          // Pure tables: every core at once (the default leaves one free, which on 2 cores is one worker).
          maxWorkers: 2,
          // Pure tables share no state worth isolating: modules are imported once per worker, not per file.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'bench',
          include: ['test/bench/**/*.test.ts'],
          maxWorkers: 2,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
          exclude: ['test/unit/**', 'test/bench/**'],
          // One Virtuoso for the whole run, with the sample loaded (see the file).
          globalSetup: ['test/support/global-setup.ts'],
          // Suites start stores (Oxigraph worker pools, Virtuoso processes): one file at a time keeps
          // them from fighting over the 2 cores of the CI machine.
          fileParallelism: false,
          // One process for the files, one after another: the modules (the server, n3, Oxigraph's
          // wasm) are imported once, not again for each file (a quarter of the integration run's
          // time). Each file still starts, and stops, the stores and servers it uses.
          isolate: false,
          // After the unit and bench projects, so that no unit file runs beside a store.
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
