// Faults of a sandbox seen night after night, to prove the run store (rampart history): one that breaks its rule on
// some runs only — a share of the target's starts, each start's draw decided by a seed — and ones that slow a route
// group by some milliseconds, which breaks no rule (the specs fix no latency) and only a baseline can see.
//
// Their parameters come from the environment of the process that starts the target:
//   RAMPART_FAULT_SHARE  0–1, the share of starts that break the rule (default 1: every start, as the self-test needs)
//   RAMPART_FAULT_SEED   the draw's seed, any text (default: a fresh one each start; the start logs the seed it drew)
//   RAMPART_FAULT_SLOW_MS the delay of a slowed route group, ms (default 250)
import { createHash, randomBytes } from 'node:crypto';
import { gateRouteGroup } from '../model/limits.js';
import type { ActiveFaults, FaultDef } from './kit/faults.js';

/** The fault some starts carry, and the fault it is on those starts (one rule, one check). */
export const SOME_RUNS = { name: 'pools-default-network-ethereum-some-runs', wraps: 'pools-default-network-ethereum' } as const;

const SLOWED = ['write10', 'write30', 'read60', 'default', 'pools'] as const;
export type SlowedGroup = (typeof SLOWED)[number];
export const slowFaultName = (group: SlowedGroup) => `slow-route-group-${group}`;

export const NIGHT_FAULTS: FaultDef[] = [
  {
    name: SOME_RUNS.name,
    service: 'pools',
    requirements: ['POOLS-QUOTE-NETWORK-DEFAULT-TRON'],
    description: `On a share of the target's starts (RAMPART_FAULT_SHARE, 0–1, default 1), drawn from RAMPART_FAULT_SEED (default: a fresh seed each start), a quote without cryptoNetwork is on ethereum instead of tron (${SOME_RUNS.wraps}); on the other starts the target is clean.`,
  },
  ...SLOWED.map((group): FaultDef => ({
    name: slowFaultName(group),
    service: group === 'pools' ? 'pools' : 'gate',
    requirements: [],
    description: `Every answer of the ${group === 'pools' ? 'pools API' : `Gate ${group} route group`} comes RAMPART_FAULT_SLOW_MS (default 250) ms late: no rule broken (the specs fix no latency), a regression only load --baseline sees.`,
    suite: 'load',
  })),
];

/** Whether the start seeded `seed` breaks the rule, for a share of all seeds: a hash of the seed against the share. */
export function startBreaks(seed: string, share: number): boolean {
  if (share >= 1) return true;
  if (share <= 0) return false;
  const draw = createHash('sha256').update(`rampart-some-runs:${seed}`).digest().readUInt32BE(0) / 0x1_0000_0000;
  return draw < share;
}

function shareOf(env: NodeJS.ProcessEnv): number {
  const raw = env.RAMPART_FAULT_SHARE;
  if (raw === undefined || raw === '') return 1;
  const share = Number(raw);
  if (!Number.isFinite(share) || share < 0 || share > 1) throw new Error(`RAMPART_FAULT_SHARE=${raw}: give a share from 0 to 1`);
  return share;
}

/** The faults a start carries: the some-runs fault becomes the fault it wraps on the starts its draw breaks. */
export function nightFaultsOn(names: readonly string[], log: (l: string) => void, env: NodeJS.ProcessEnv = process.env): string[] {
  if (!names.includes(SOME_RUNS.name)) return [...names];
  const share = shareOf(env);
  const seed = env.RAMPART_FAULT_SEED || randomBytes(6).toString('hex');
  const on = startBreaks(seed, share);
  log(`rampart reference: ${SOME_RUNS.name}: seed ${seed}, share ${share}: ${on ? `this start breaks the rule (${SOME_RUNS.wraps})` : 'this start is clean'}`);
  return [...names.filter((n) => n !== SOME_RUNS.name), ...(on ? [SOME_RUNS.wraps] : [])];
}

/** How late an answer comes under the slow faults: the delay when its route group is slowed, else 0. */
export function slowDelayMs(faults: ActiveFaults, service: 'gate' | 'pools', method: string, path: string, env: NodeJS.ProcessEnv = process.env): number {
  const group: SlowedGroup = service === 'pools' ? 'pools' : gateRouteGroup(method, path);
  if (!faults.has(slowFaultName(group))) return 0;
  const ms = Number(env.RAMPART_FAULT_SLOW_MS ?? 250);
  return Number.isFinite(ms) && ms > 0 ? Math.min(ms, 60_000) : 0;
}
