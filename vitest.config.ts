import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The field world's whole runs (tens of minutes): `npm run test:field`, which .ci/run runs beside npm test.
    exclude: ['test/field/**', 'node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most tests wait on sockets and timers, not the CPU: three at once on two cores.
    maxWorkers: 3,
    reporters: ['default'],
  },
});
