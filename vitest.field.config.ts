// rampart's own runs in the field world (test/field): the embedded target presented as a remote sandbox —
// latency and jitter each way, its own clock, webhooks only through a public URL, one key at real time,
// short lifetimes, a lived-in history. Whole certify runs and fault self-tests: too long for npm test,
// so .ci/run runs them after it (`npm run test:field`).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/field/**/*.test.ts'],
    testTimeout: 1_800_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // The files' runs mostly wait (latency, windows, retry schedules) and time themselves on their own clocks, with
    // tolerances widened by the round trips they measure: every file at once, each in a process of its own.
    maxWorkers: 5,
    reporters: ['default'],
  },
});
