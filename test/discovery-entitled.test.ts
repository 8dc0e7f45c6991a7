// POOLS-DISC-ENTITLED is never judged on an empty set: with a profile that
// declares no allowedPools and a target whose balance names none, the pool
// whose balance answered (an entitled route) must still be discovered. The
// fault pools-entitled-set-lost hides every entitled pool: caught even so.
import { describe, expect, it } from 'vitest';
import { createProgress } from '../src/runner/progress.js';
import { runChecks } from '../src/runner/run.js';
import { loadConformanceSuites, onlyChecksFor, startEmbedded } from './support/embedded.js';

async function run(faults: string[]) {
  const ref = await startEmbedded({ faults });
  try {
    const profile = structuredClone(ref.profile);
    for (const p of profile.pools!.partners) delete p.allowedPools;
    const suites = onlyChecksFor(await loadConformanceSuites(), ['POOLS-DISC-ENTITLED']);
    return (await runChecks({ profile, suites, depth: 'quick', progress: createProgress({ live: false, quiet: true }) })).checks;
  } finally {
    await ref.close();
  }
}

describe('entitled pools without a declared set', () => {
  it('a clean target passes; one that lost the entitled set fails naming POOLS-DISC-ENTITLED', async () => {
    expect((await run([])).map((c) => c.status)).toEqual(['passed']);
    const faulty = await run(['pools-entitled-set-lost']);
    expect(faulty.map((c) => [c.status, c.failure?.requirement])).toEqual([['failed', 'POOLS-DISC-ENTITLED']]);
  }, 60_000);
});
