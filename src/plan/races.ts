// The plan of `rampart races`: which families the profile lets it act on (and why not the others), the bursts each
// fires, the requests they send the target (Gate ones spread over the races partners' keys, by route group) and the
// time that forces — the Gate windows for those requests, and for each burst the round trips of its steps, which go
// one after another (the oracle on loopback beside them costs nothing of the target's).
import { GATE_RATE_WINDOWS, type RouteGroup } from '../model/limits.js';
import { firstMissing, needDef } from '../needs/registry.js';
import type { Profile } from '../profile/schema.js';
import { costOf } from '../races/family.js';
import type { AnyRaceFamily } from '../races/families/index.js';
import { RACE_FAMILIES } from '../races/families/index.js';
import { viewFor } from '../runner/partition.js';
import { needsOfCheck } from '../runner/suites.js';
import { roundsOf } from '../races/rounds.js';
import { spreadLowerBoundMs } from './lowerBound.js';

export interface RacesPlan {
  families: number;
  skipped: { family: string; need: string; reason: string }[];
  rounds: number;
  bursts: number;
  gateRequests: number;
  poolsRequests: number;
  byGroup: Partial<Record<RouteGroup, number>>;
  /** The races partners' Gate keys the requests are spread over (each its own rate-limit client). */
  keys: number;
  /** The busiest key's share of its 300-per-hour window. */
  perKey: number;
  /** No partner is reserved for races: it shares the conformance partners' keys (and their hour windows), after them. */
  sharesKeys: boolean;
  ms: number;
}

/** The needs of a family's check: its partners', its own, its requirements'. */
function needsOf(f: AnyRaceFamily): string[] {
  const own = [f.partner.gate, f.partner.pools, ...(f.needs ?? [])].filter((n): n is NonNullable<typeof n> => !!n);
  return needsOfCheck({ name: f.name, requirements: f.requirements, needs: own, run: async () => undefined });
}

export function planRaces(
  profile: Profile,
  opts: { depth: 'quick' | 'full'; service?: 'gate' | 'pools'; budget?: number; rttMs: number; certify?: boolean },
): RacesPlan {
  const view = viewFor(profile, 'races');
  const skipped: RacesPlan['skipped'] = [];
  const runs: AnyRaceFamily[] = [];
  for (const f of RACE_FAMILIES) {
    if (opts.service && f.service !== opts.service) continue;
    const missing = firstMissing(view, needsOf(f) as Parameters<typeof firstMissing>[1], opts.depth);
    if (missing) skipped.push({ family: f.id, need: missing.need, reason: missing.reason });
    else runs.push(f);
  }
  const rounds = roundsOf(opts.budget, runs, opts.depth, opts.certify);
  const byGroup: Partial<Record<RouteGroup, number>> = {};
  let pools = 0;
  let chain = 0;
  let bursts = 0;
  for (const f of runs) {
    // A window family fires one burst a run; the others their rounds, times what they repeat.
    const own = 'judge' in f ? 1 : rounds * (f.repeat ?? 1);
    bursts += own;
    for (const [g, n] of Object.entries(f.cost) as [RouteGroup | 'pools', number][])
      if (g === 'pools') pools += n * own;
      else byGroup[g] = (byGroup[g] ?? 0) + n * own;
    // A family's rounds go one after another: each request of a round after the one before (the burst counts once).
    const held = needsOf(f).some((n) => needDef(n as never)?.exclusive);
    chain = Math.max(chain, (held ? runs.length : 1) * own * costOf(f.cost) * opts.rttMs);
  }
  const gateRequests = Object.values(byGroup).reduce((a, b) => a + (b ?? 0), 0);
  const keys = view.gate.partners.reduce((n, p) => n + 1 + (p.extraSecretKeys?.length ?? 0), 0);
  const rateMs = gateRequests
    ? spreadLowerBoundMs({ groups: byGroup }, Math.max(1, keys), profile.timing.rateWindowScale, { waitHour: opts.depth === 'full' })
    : 0;
  return {
    families: runs.length,
    skipped,
    rounds,
    bursts,
    gateRequests,
    poolsRequests: pools,
    byGroup,
    keys,
    perKey: Math.ceil(gateRequests / Math.max(1, keys)),
    sharesKeys: !profile.gate.partners.some((p) => p.reservedFor === 'races'),
    ms: Math.max(rateMs, chain),
  };
}

/** The plan's line for races. */
export function racesPlanLine(p: RacesPlan, format: (ms: number) => string): string {
  return `  races: ${p.families} families × ${p.rounds} bursts, ~${p.gateRequests} Gate requests over ${p.keys} key${p.keys === 1 ? '' : 's'} (~${p.perKey} each of its ${GATE_RATE_WINDOWS.hour.limit} per hour) and ~${p.poolsRequests} pools requests; each candidate serial order replayed on a fresh oracle world on loopback: ≥ ${format(p.ms)}${p.skipped.length ? `; ${p.skipped.length} famil${p.skipped.length === 1 ? 'y' : 'ies'} skipped (${p.skipped.map((s) => `${s.family}: ${s.reason}`).join('; ')})` : ''}`;
}
