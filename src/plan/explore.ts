// The plan of `rampart explore`: its lanes (one per partner the explore role allows, all at once: src/explore/budget.ts,
// which explore reads too), each lane's budget and how it spreads over the lane's keys and route groups (the
// calibrated mix of Gate operations), and the time that forces: a Gate lane's share of its keys' windows, and a round
// trip for every request of a lane, since each step waits for the target's answer before the next. The lanes go at
// once: the exploration takes as long as its slowest lane.
import type { RouteGroup } from '../model/limits.js';
import type { Profile } from '../profile/schema.js';
import { SEARCH_SHARE } from '../explore/real.js';
import { defaultBudgetOf, lanesOf, splitBudget } from '../explore/budget.js';
import { readCalibration } from '../runner/calibration.js';
import { viewFor } from '../runner/partition.js';
import { spreadLowerBoundMs } from './lowerBound.js';

export interface ExploreLanePlan {
  name: string;
  service: 'gate' | 'pools';
  keys: number;
  budget: number;
  /** What the lane surely sends: the search's share (the rest only shrinks a divergence). */
  searched: number;
  /** A Gate lane's busiest key's share of its 300-per-hour window. */
  perKey: number;
  byGroup: Partial<Record<RouteGroup, number>>;
  ms: number;
}

export interface ExplorePlan {
  budget: number;
  /** What an exploration surely sends: the search's share (the rest only shrinks a divergence). */
  searched: number;
  /** The Gate keys of all its lanes (each its own rate-limit client). */
  keys: number;
  gateRequests: number;
  poolsRequests: number;
  byGroup: Partial<Record<RouteGroup, number>>;
  ms: number;
  /** The busiest Gate key's share of its 300-per-hour window. */
  perKey: number;
  lanes: ExploreLanePlan[];
}

/** The Gate operations' mix by route group, measured against the embedded target (scripts/calibrate-plan.ts). */
function groupsOf(): Partial<Record<RouteGroup, number>> {
  return readCalibration().explore?.groups ?? { write10: 0.12, write30: 0.3, read60: 0.58 };
}

/** The default budget of an exploration of the profile: every lane's (src/explore/budget.ts). */
export const defaultExploreBudget = (profile: Profile, service?: 'gate' | 'pools'): number => defaultBudgetOf(lanesOf(viewFor(profile, 'explore'), service));

/** The Gate keys exploration acts with: every Gate lane's. */
export const exploreKeys = (profile: Profile): number => lanesOf(viewFor(profile, 'explore'), 'gate').reduce((a, l) => a + l.keys, 0);

export function planExplore(profile: Profile, opts: { budget?: number; rttMs: number }): ExplorePlan {
  const plans = lanesOf(viewFor(profile, 'explore'));
  const budgets = splitBudget(plans, opts.budget ?? defaultBudgetOf(plans));
  const groups = groupsOf();
  const lanes = plans.map((l, i): ExploreLanePlan => {
    const budget = budgets[i]!;
    const searched = Math.floor(budget * SEARCH_SHARE);
    const byGroup =
      l.service === 'gate'
        ? (Object.fromEntries(Object.entries(groups).map(([g, f]) => [g, Math.round(searched * (f ?? 0))])) as Partial<Record<RouteGroup, number>>)
        : {};
    const rateMs = l.service === 'gate' ? spreadLowerBoundMs({ groups: byGroup }, l.keys, profile.timing.rateWindowScale, { waitHour: true }) : 0;
    return {
      name: l.name,
      service: l.service,
      keys: l.keys,
      budget,
      searched,
      perKey: l.service === 'gate' ? Math.ceil(searched / l.keys) : 0,
      byGroup,
      // Steps go one after another: every target request of the lane costs its round trip.
      ms: Math.max(rateMs, searched * opts.rttMs),
    };
  });
  const gate = lanes.filter((l) => l.service === 'gate');
  const byGroup: Partial<Record<RouteGroup, number>> = {};
  for (const l of gate) for (const [g, n] of Object.entries(l.byGroup)) byGroup[g as RouteGroup] = (byGroup[g as RouteGroup] ?? 0) + (n ?? 0);
  return {
    budget: budgets.reduce((a, b) => a + b, 0),
    searched: lanes.reduce((a, l) => a + l.searched, 0),
    keys: gate.reduce((a, l) => a + l.keys, 0),
    gateRequests: gate.reduce((a, l) => a + l.searched, 0),
    poolsRequests: lanes.filter((l) => l.service === 'pools').reduce((a, l) => a + l.searched, 0),
    byGroup,
    // The lanes go at once.
    ms: Math.max(0, ...lanes.map((l) => l.ms)),
    perKey: Math.max(0, ...gate.map((l) => l.perKey)),
    lanes,
  };
}
