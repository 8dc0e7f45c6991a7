import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most tests wait on sockets and timers, not the CPU: three at once on two cores.
    maxWorkers: 3,
    reporters: ['default'],
  },
});
