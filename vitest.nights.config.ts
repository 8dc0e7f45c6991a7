// The run store end to end (test/nights): real rampart runs into one store — five pools conformance runs, clean and
// with a fault in turn, on the SQLite file and on PostgreSQL; a seeded intermittent fault over five runs; load smoke
// against a baseline, the target slowed and clean; every kind recording its run. Minutes of whole runs: too long for
// npm test, so .ci/run runs them as a stage of their own (`npm run test:nights`). One file at a time, so the load
// runs' latencies are measured on a quiet machine.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/nights/**/*.test.ts'],
    testTimeout: 900_000,
    hookTimeout: 900_000,
    pool: 'forks',
    fileParallelism: false,
    reporters: ['default'],
  },
});
