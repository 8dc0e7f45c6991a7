// A profile as a partner really holds it: one Gate partner and one funded
// pools partner, cut from a richer profile (the embedded target's own). The
// embedded target builds its world from the same cut, so it is a real
// one-tenant world, not a view of a bigger one.
import type { Profile } from '../profile/schema.js';

export function oneKeyProfile(base: Profile, opts: { rateWindowScale?: number; gatePartner?: string; poolsPartner?: string } = {}): Profile {
  const gate = base.gate.partners.find((p) => (opts.gatePartner ? p.name === opts.gatePartner : !p.reservedFor));
  if (!gate) throw new Error('the profile has no gate partner to keep');
  const pools = base.pools?.partners.find((p) => (opts.poolsPartner ? p.name === opts.poolsPartner : p.state === 'funded' && p.balanceGate && !p.velocityCap));
  return {
    ...base,
    name: `${base.name}-one-key`,
    gate: { ...base.gate, partners: [gate] },
    ...(base.pools ? { pools: { ...base.pools, partners: pools ? [pools] : [] } } : {}),
    timing: { ...base.timing, rateWindowScale: opts.rateWindowScale ?? base.timing.rateWindowScale },
    ...(base.reference ? { reference: { ...base.reference, liveKeysFor: base.reference.liveKeysFor.filter((n) => n === gate.name) } } : {}),
  };
}
