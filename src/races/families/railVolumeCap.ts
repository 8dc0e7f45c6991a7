// Rails: the per-user cumulative volume cap approached by two pay-outs at once (two signed quotes of one session,
// one user), each within the cap alone, both together past it (the partner declares its cap: railVolumeCap). In a
// serial order the second pushes the user past the cap and says so (account_blocked: true) — or, where the first
// already did, is refused 403. A rail that reads the user's total and writes it with its own amount a round trip
// later loses one of the two: neither says the user was pushed past the cap.
import { defineFamily, familyFile, type BurstRequest, type RaceObjects, type RoundContext } from '../family.js';
import { railSetup, ruleOf } from './railRedemptions.js';

/** Six tenths of the cap, to the cent: one rail within it, two past it. */
export function sixTenths(cap: string): string {
  const [i = '0', f = ''] = cap.split('.');
  const cents = BigInt(i + f.padEnd(2, '0').slice(0, 2));
  const part = (cents * 6n) / 10n;
  return `${part / 100n}.${String(part % 100n).padStart(2, '0')}`;
}

type Objects = RaceObjects & { session: string; quotes: string[]; bodies: Record<string, unknown>[] };

const RULE = ruleOf('pay_out', 'GATE-QUOTE-CONSUMED-409');

const burstOf = (o: Objects, round: RoundContext): BurstRequest[] =>
  o.bodies.map((body, i) => ({
    service: 'gate' as const,
    label: `POST /rails/pay_outs (quote ${i + 1}, key ${i + 1})`,
    request: { method: 'POST' as const, path: '/rails/pay_outs', body, idempotencyKey: round.keys[i]! },
  }));

export default defineFamily<Objects>({
  id: 'rail-volume-cap',
  file: familyFile(import.meta.url),
  name: "races, rails: two pay-outs at once that together pass a user's volume cap — one of them says the user was pushed past it",
  service: 'gate',
  requirements: ['GATE-RAIL-ACCOUNT-BLOCKED'],
  partner: { gate: 'gateRailVolumeCap' },
  needs: ['gateSignedQuote'],
  cost: { write10: 1, write30: 4 },
  async setup(side, round) {
    // The partner's declared cap is in the currency of the sessions rampart creates.
    const cap = side.gatePartner().railVolumeCap;
    if (!cap) throw new Error(`the ${side.name}'s partner declares no railVolumeCap`);
    return railSetup(side, round, 'pay_out', 2, { amount: sixTenths(cap) });
  },
  burst: burstOf,
  rule: () => RULE,
  after: async () => [],
});
