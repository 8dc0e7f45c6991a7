import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The field world's whole runs (tens of minutes): `npm run test:field`, which .ci/run runs beside npm test;
    // the run store's whole runs (minutes): `npm run test:nights`, likewise.
    exclude: ['test/field/**', 'test/nights/**', 'node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most tests wait on sockets and timers, not the CPU (a whole npm test keeps two cores about a quarter busy): four at once.
    maxWorkers: 4,
    reporters: ['default'],
  },
});
