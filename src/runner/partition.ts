// Which partners each suite kind may use. Conformance takes the partners no
// kind reserves; chaos and load take the ones reserved for them (reservedFor),
// so certify can run the three at once without one kind's requests filling
// another's rate windows or moving another's balance. A profile that reserves
// nothing still works: the kinds then share its partners and run one after
// another, and the run says why.
import type { Profile } from '../profile/schema.js';

export type KindName = 'conformance' | 'chaos' | 'load' | 'explore' | 'races';

/** How many reserved keys the rate-limit cases need (one per case, windows empty). */
export const RATE_LIMIT_KEYS = 8;

/**
 * The keys a load run uses, by role. The rate-limit cases take the partners reserved for load;
 * mixed traffic (smoke, soak) takes the reserved ones beyond the first eight when there are any —
 * so load can run beside the other kinds on partners of its own — and otherwise the unreserved
 * partners (load then runs after the other kinds). The route probes of the rate-limit scenario take the
 * load partners' extra secret keys, when they have any. Pools scenarios take the pools partners
 * reserved for load, else the unreserved funded ones.
 */
export function loadKeys(profile: Profile) {
  const reserved = profile.gate.partners.filter((p) => p.reservedFor === 'load');
  const beyond = reserved.slice(RATE_LIMIT_KEYS);
  const traffic = beyond.length ? beyond : profile.gate.partners.filter((p) => !p.reservedFor);
  const fundedOf = (ps: NonNullable<Profile['pools']>['partners']) => ps.filter((x) => x.state === 'funded' && x.balanceGate && !x.velocityCap);
  const pools = profile.pools?.partners ?? [];
  const reservedPools = fundedOf(pools.filter((x) => x.reservedFor === 'load'));
  const funded = reservedPools.length ? reservedPools : fundedOf(pools.filter((x) => !x.reservedFor));
  // The route probes' keys of their own: the load partners' extra secret keys (each its own rate-limit client; the
  // cases and the traffic take only their partners' first keys), whatever order the profile lists them in.
  const routeKeys = reserved.flatMap((p) => p.extraSecretKeys ?? []);
  return { reserved, traffic, funded, routeKeys };
}

/** The profile as one kind sees it: only the partners it may use. */
export function viewFor(profile: Profile, kind: KindName): Profile {
  const reserved = (p: { reservedFor?: string }) => p.reservedFor;
  const has = (k: string) => profile.gate.partners.some((p) => reserved(p) === k) || !!profile.pools?.partners.some((p) => reserved(p) === k);
  // A kind with reserved partners uses them; without, it shares the unreserved ones.
  const pick = <P extends { reservedFor?: string }>(all: P[], k: KindName): P[] => {
    if (k === 'conformance' || !has(k)) return all.filter((p) => !reserved(p));
    return all.filter((p) => reserved(p) === k);
  };
  const view: Profile = { ...profile, gate: { ...profile.gate, partners: pick(profile.gate.partners, kind) } };
  if (profile.pools) view.pools = { ...profile.pools, partners: pick(profile.pools.partners, kind) };
  return view;
}

export interface Schedule {
  /** Groups of kinds run at once; groups run one after another. */
  groups: KindName[][];
  /** Why kinds that could overlap run one after another (a thin profile). */
  why?: string;
}

/** Kinds that hold disjoint partners run at once; kinds sharing partners run in turn. */
export function scheduleKinds(profile: Profile, kinds: KindName[]): Schedule {
  const keysOf = (k: KindName) => {
    if (k === 'load') {
      const l = loadKeys(profile);
      return new Set([...l.reserved, ...l.traffic, ...l.funded].map((p) => p.secretKey));
    }
    const v = viewFor(profile, k);
    return new Set([...v.gate.partners.map((p) => p.secretKey), ...(v.pools?.partners ?? []).map((p) => p.secretKey)]);
  };
  const groups: KindName[][] = [];
  const shared: string[] = [];
  for (const k of kinds) {
    const mine = keysOf(k);
    const group = groups.find((g) => g.every((o) => ![...keysOf(o)].some((key) => mine.has(key))));
    if (group) group.push(k);
    else {
      if (groups.length) shared.push(k);
      groups.push([k]);
    }
  }
  return {
    groups,
    ...(shared.length
      ? {
          why: `${shared.join(' and ')} share${shared.length === 1 ? 's' : ''} partners with an earlier kind (reserve partners with reservedFor: "chaos" / "load" to run them at once), so the kinds run one after another`,
        }
      : {}),
  };
}
