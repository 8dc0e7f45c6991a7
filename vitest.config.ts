import { defineConfig } from 'vitest/config';

/** The fault self-tests: `npm run test:selftest` (vitest.selftest.config.ts), a stage of .ci/run of its own. */
export const SELFTEST_FILES = ['test/*.selftest.test.ts', 'test/selftest*.test.ts'];

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The field world's whole runs (tens of minutes): `npm run test:field`, which .ci/run runs beside npm test;
    // the run store's whole runs (minutes): `npm run test:nights`, likewise; the fault self-tests: `npm run test:selftest`.
    exclude: ['test/field/**', 'test/nights/**', ...SELFTEST_FILES, 'node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most tests wait on sockets and timers, not the CPU (a whole npm test keeps two cores about a quarter busy): four at once.
    maxWorkers: 4,
    reporters: ['default'],
  },
});
