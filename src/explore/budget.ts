// How much an exploration may send by default, and over which lanes: the rule `rampart explore` and `rampart plan
// --for explore` both read (the plan reads the kinds, never back). A lane is one partner the explore role allows,
// acting with all its keys (each its own rate-limit client): every Gate partner explore may act as (never one kept
// unbranded for the checks that read the default branding), every funded pools partner without a velocity cap. The
// lanes run at once, each on its own partner, so no lane's objects are in another's lists, balance or deliveries.
// A Gate lane takes what its keys' hour windows hold at explore's share, at most GATE_LANE_MAX; a pools lane (its
// request-rate limits are not shown) POOLS_LANE_MAX.
import { GATE_RATE_WINDOWS } from '../model/limits.js';
import type { GatePartner, PoolsPartner, Profile } from '../profile/schema.js';

/** Of each key's hour window, what a default exploration may take (room for the run's other kinds). */
export const HOUR_SHARE = 0.9;
/** Most requests one Gate lane sends by default: its small interactions and a random search as long again. */
export const GATE_LANE_MAX = 1000;
/** Most requests one pools lane sends by default. */
export const POOLS_LANE_MAX = 800;

export interface LanePlan {
  /** The partner's name (the lane's, in the log and the report). */
  name: string;
  service: 'gate' | 'pools';
  gate?: GatePartner;
  pools?: PoolsPartner;
  /** Its keys (each its own rate-limit client). */
  keys: number;
  /** Its default budget. */
  budget: number;
}

/** The Gate partners explore may act as: never one kept unbranded (its check reads the default branding; explore PATCHes branding). */
export const exploreGatePartners = (view: Profile): GatePartner[] => view.gate.partners.filter((p) => !p.brandingUnset);

/** The pools partners explore may act as: funded, without a velocity cap (a trade could be refused for traffic it cannot see). */
export function explorePoolsPartners(view: Profile): PoolsPartner[] {
  if (!view.pools?.quote) return [];
  const ok = view.pools.partners.filter((p) => p.state === 'funded' && !p.velocityCap);
  // Those whose balance is read first (the balance family compares it).
  return [...ok.filter((p) => p.balanceGate), ...ok.filter((p) => !p.balanceGate)];
}

/** The lanes of an exploration in the explore kind's view of the profile, each with its default budget. */
export function lanesOf(view: Profile, service?: 'gate' | 'pools'): LanePlan[] {
  const gate =
    service === 'pools'
      ? []
      : exploreGatePartners(view).map((p) => {
          const keys = 1 + (p.extraSecretKeys?.length ?? 0);
          return {
            name: p.name,
            service: 'gate' as const,
            gate: p,
            keys,
            budget: Math.min(GATE_LANE_MAX, Math.floor(keys * GATE_RATE_WINDOWS.hour.limit * HOUR_SHARE)),
          };
        });
  const pools =
    service === 'gate' ? [] : explorePoolsPartners(view).map((p) => ({ name: p.name, service: 'pools' as const, pools: p, keys: 1, budget: POOLS_LANE_MAX }));
  return [...gate, ...pools];
}

/** Most requests a default exploration sends over all its lanes (a profile of many partners spreads this over them). */
export const EXPLORE_MAX_BUDGET = 4000;

/** The default budget: every lane's, added up, at most EXPLORE_MAX_BUDGET. */
export const defaultBudgetOf = (lanes: readonly LanePlan[]): number =>
  Math.min(
    EXPLORE_MAX_BUDGET,
    lanes.reduce((a, l) => a + l.budget, 0),
  );

/** A budget given whole (--budget N) spread over the lanes as their default budgets are (each at least one request). */
export function splitBudget(lanes: readonly LanePlan[], total: number): number[] {
  const all = defaultBudgetOf(lanes) || 1;
  const shares = lanes.map((l) => Math.max(1, Math.floor((total * l.budget) / all)));
  // What rounding left goes to the first lanes.
  let left = total - shares.reduce((a, b) => a + b, 0);
  for (let i = 0; left > 0 && shares.length; i = (i + 1) % shares.length, left--) shares[i]!++;
  return shares;
}
