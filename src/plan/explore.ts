// The plan of `rampart explore`: its request budget (by default what fits the explore partner's keys' hour
// windows, at most 400), how it spreads over the Gate keys and the route groups (the calibrated mix of its
// operations), and the time that forces: the Gate windows for the Gate share, and a round trip for every request,
// since each step waits for the target's answer before the next.
import { GATE_RATE_WINDOWS, type RouteGroup } from '../model/limits.js';
import type { Profile } from '../profile/schema.js';
import { SEARCH_SHARE } from '../explore/real.js';
import { explorePartners } from '../explore/sides.js';
import { readCalibration } from '../runner/calibration.js';
import { viewFor } from '../runner/partition.js';
import { spreadLowerBoundMs } from './lowerBound.js';

export interface ExplorePlan {
  budget: number;
  /** What an exploration surely sends: the search's share (the rest only shrinks a divergence). */
  searched: number;
  /** The Gate partner's keys the Gate share is spread over (each its own rate-limit client). */
  keys: number;
  gateRequests: number;
  poolsRequests: number;
  byGroup: Partial<Record<RouteGroup, number>>;
  ms: number;
  /** The busiest key's share of its 300-per-hour window. */
  perKey: number;
}

/** The most requests an exploration sends by default. */
export const EXPLORE_MAX_BUDGET = 400;
/** Of each key's hour window, what a default exploration may take (room for the run's other kinds). */
const HOUR_SHARE = 0.9;

/** The mix of an exploration's target requests, measured against the embedded target (scripts/calibrate-plan.ts). */
function mixOf(): { gateShare: number; groups: Partial<Record<RouteGroup, number>> } {
  const m = readCalibration().explore;
  return m ?? { gateShare: 0.7, groups: { write10: 0.12, write30: 0.3, read60: 0.58 } };
}

/** The Gate keys exploration acts with: its partner's secret key and extraSecretKeys. */
export function exploreKeys(profile: Profile): number {
  const p = explorePartners(viewFor(profile, 'explore')).gate;
  return p ? 1 + (p.extraSecretKeys?.length ?? 0) : 0;
}

/** The default budget: what fits the keys' hour windows (the Gate share of it), never more than 400. */
export function defaultExploreBudget(profile: Profile): number {
  const keys = exploreKeys(profile);
  const mix = mixOf();
  if (!keys) return EXPLORE_MAX_BUDGET;
  return Math.min(EXPLORE_MAX_BUDGET, Math.floor((keys * GATE_RATE_WINDOWS.hour.limit * HOUR_SHARE) / Math.max(0.05, mix.gateShare)));
}

export function planExplore(profile: Profile, opts: { budget?: number; rttMs: number }): ExplorePlan {
  const budget = opts.budget ?? defaultExploreBudget(profile);
  const searched = Math.floor(budget * SEARCH_SHARE);
  const keys = Math.max(1, exploreKeys(profile));
  const mix = mixOf();
  // The bound counts what is sure to be sent: the search; shrinking a divergence spends up to the rest.
  const gateRequests = Math.round(searched * mix.gateShare);
  const byGroup = Object.fromEntries(Object.entries(mix.groups).map(([g, f]) => [g, Math.round(gateRequests * (f ?? 0))])) as Partial<
    Record<RouteGroup, number>
  >;
  const rateMs = spreadLowerBoundMs({ groups: byGroup }, keys, profile.timing.rateWindowScale, { waitHour: true });
  return {
    budget,
    searched,
    keys,
    gateRequests,
    poolsRequests: searched - gateRequests,
    byGroup,
    // Steps go one after another: every target request costs its round trip.
    ms: Math.max(rateMs, searched * opts.rttMs),
    perKey: Math.ceil(gateRequests / keys),
  };
}
