// The fault self-tests (test/*.selftest.test.ts and test/selftest*.test.ts): every seeded fault of the embedded target,
// one whole target per fault, caught by the check that names its rule — conformance on the embedded, second and
// dialect worlds, load and chaos. Minutes of whole runs (about five on two cores): `npm run test:selftest`, which
// .ci/run runs as a stage of its own after `npm test`, so npm test stays the quick loop.
import { defineConfig } from 'vitest/config';
import { SELFTEST_FILES } from './vitest.config.js';

export default defineConfig({
  test: {
    include: SELFTEST_FILES,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 4,
    reporters: ['default'],
  },
});
