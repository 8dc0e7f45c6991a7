// A verdict the target cannot steer through a lifetime: a profile declaring a signed-quote lifetime shorter than the
// chain that redeems it turned a wrong 409 into "cannot judge". Now the refused quote is inspected: one that reads
// neither consumed nor expired was refused wrongly, and the pay-out rule fails by an assertion naming it; a correct
// target under the same short declaration still passes or, where the quote really expired, ends unverified.
import { describe, expect, it } from 'vitest';
import type { Profile } from '../src/profile/schema.js';
import { loadConformanceSuites, runAgainst, startEmbedded } from './support/embedded.js';

const PAYOUT_CHECK = "pay-out: 201 rail_pay_out with the quote's amount, 128-char reference, replay, read, then the consumed quote gives 409";
/** Signed quotes declared to live 1 ms: every chain redeems past the declared lifetime. */
const shortLife = (p: Profile): Profile => ({ ...p, timing: { ...p.timing, signedQuoteLifetimeSeconds: 0.001 } });

async function payOutCheck(faults: string[]) {
  const ref = await startEmbedded({ faults, tweak: shortLife });
  try {
    const suites = (await loadConformanceSuites())
      .map((s) => ({ ...s, checks: s.checks.filter((c) => c.name === PAYOUT_CHECK) }))
      .filter((s) => s.checks.length);
    const out = await runAgainst(ref, suites);
    expect(out.checks).toHaveLength(1);
    return out.checks[0]!;
  } finally {
    await ref.close();
  }
}

describe('a declared signed-quote lifetime shorter than the chain', () => {
  it('a wrong 409 on an active quote fails GATE-RAIL-PAYOUT-201 by an assertion, not unverified', async () => {
    const c = await payOutCheck(['rail-payout-409-active-quote']);
    expect([c.status, c.failure?.kind, c.failure?.requirement]).toEqual(['failed', 'assertion', 'GATE-RAIL-PAYOUT-201']);
    expect(c.failure?.message).toMatch(/neither consumed nor expired/);
  }, 60_000);

  it('a correct target under the same declaration: the pay-out check passes', async () => {
    const c = await payOutCheck([]);
    expect([c.status, c.reason ?? c.failure?.message]).toEqual(['passed', undefined]);
  }, 60_000);
});
