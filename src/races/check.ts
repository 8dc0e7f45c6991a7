// A race family as a check of the runner: its requirements and needs declared (a profile without them skips it with
// the reason), its body the family's rounds — each a burst fired at the target and judged against fresh oracle
// worlds. A burst no serial order explains fails the rule its parting step breaks; a search past its bound leaves
// the check unverified with the reason, never passed. With --times N (the replay script) the family is N checks of
// one burst each, run at once on the partners they lease (src/suites/races.ts counts how often the finding showed).
import type { ApiClient } from '../client/types.js';
import { mulberry32 } from '../explore/schedule.js';
import type { GateActor, PoolsActor } from '../needs/define.js';
import type { RaceFamilyRecord, RacesRecord } from '../report/results.js';
import type { CheckDef, CheckTools } from '../runner/check.js';
import { CheckFailed } from '../runner/expect.js';
import type { RaceFamily } from './family.js';
import { isWindow, type AnyRaceFamily } from './families/index.js';
import { windowRounds } from './windowCheck.js';
import type { Pacer } from '../client/pacer.js';
import { findingOf } from './finding.js';
import { runRound, type RoundOutcome } from './round.js';
import type { RacePartners, Service } from './side.js';
import type { RaceWorlds } from './worlds.js';

/** What every family's check of one run shares. */
export interface RacesRun {
  worlds: RaceWorlds;
  /** The run's Gate pacer (a window family holds its key and stamps its burst in it). */
  pacer: Pacer;
  seed: number;
  rounds: number;
  /** The run's tag (every email and reference carries it). */
  tag: string;
  /** How the run named its target, for the replay script. */
  profileFile?: string;
  faults?: readonly string[];
  record: RacesRecord;
}

/** A family's own generator for a round: the run's seed, the family and the round (so --seed replays each burst's order). */
function roundRandom(seed: number, family: string, round: number): () => number {
  let h = seed | 0;
  for (const c of `${family}#${round}`) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193);
  return mulberry32(h);
}

function familyRecord(run: RacesRun, family: AnyRaceFamily): RaceFamilyRecord {
  return (run.record.families[family.id] ??= {
    service: family.service,
    requirements: [...family.requirements],
    status: 'not_run',
    rounds: 0,
    explained: 0,
    requests: 0,
  });
}

/** The finding of an unexplained round, recorded, as the check's failure. */
function failOn(run: RacesRun, family: RaceFamily, out: RoundOutcome, roundNo: number, shown?: string): never {
  if (out.judgement.verdict !== 'unexplained') throw new Error('failOn: the round was explained');
  const f = findingOf(family, family.name, out, out.judgement, {
    seed: run.seed,
    roundNo,
    ...(run.profileFile ? { profile: run.profileFile } : {}),
    ...(run.faults ? { faults: run.faults } : {}),
  });
  run.record.findings.push(f);
  const p = out.judgement.parting;
  const exchange = p.request !== undefined ? out.fired[p.request]?.exchange : out.after.at(-1)?.exchange;
  throw new CheckFailed(`${shown ? `${shown}: ` : ''}${f.what}`, {
    ...(f.requirement ? { requirement: f.requirement as CheckFailed['details']['requirement'] } : {}),
    expected: `as the closest serial order on the oracle: ${JSON.stringify(p.oracle)}`,
    actual: JSON.stringify(p.target),
    ...(exchange ? { exchange } : {}),
  });
}

interface FamilyRun {
  clients: Partial<Record<Service, ApiClient>>;
  partners: RacePartners;
}

async function oneRound(run: RacesRun, family: RaceFamily, fr: FamilyRun, t: CheckTools, roundNo: number): Promise<RoundOutcome> {
  const out = await runRound({
    family,
    profile: t.profile,
    clients: fr.clients,
    partners: fr.partners,
    worlds: run.worlds,
    tag: `${run.tag}-${family.id}-${roundNo}`,
    rnd: roundRandom(run.seed, family.id, roundNo),
    signal: t.signal,
  });
  const rec = familyRecord(run, family);
  rec.rounds++;
  rec.requests += out.requests;
  run.record.bursts++;
  run.record.ordersTried += out.judgement.tried;
  if (out.judgement.verdict === 'explained') rec.explained++;
  return out;
}

async function rounds(run: RacesRun, family: RaceFamily, fr: FamilyRun, t: CheckTools, only?: number): Promise<void> {
  if (only !== undefined) {
    const out = await oneRound(run, family, fr, t, only);
    if (out.judgement.verdict === 'unexplained') failOn(run, family, out, only);
    if (out.judgement.verdict === 'unverified') t.unverified(out.judgement.why);
    return;
  }
  let unverified: string | undefined;
  const bursts = run.rounds * (family.repeat ?? 1);
  for (let r = 1; r <= bursts; r++) {
    const out = await oneRound(run, family, fr, t, r);
    if (out.judgement.verdict === 'unexplained') failOn(run, family, out, r);
    if (out.judgement.verdict === 'unverified') unverified ??= `burst ${r} of ${bursts}: ${out.judgement.why}`;
  }
  if (unverified) t.unverified(unverified);
}

/** A window family's check body: its burst on the key of the partner it holds, counted in the run's record. */
async function windowBody(run: RacesRun, family: Extract<AnyRaceFamily, { judge: 'window' }>, actor: GateActor, t: CheckTools): Promise<void> {
  const rec = familyRecord(run, family);
  await windowRounds(family, actor, t, {
    pacer: run.pacer,
    seed: run.seed,
    rnd: roundRandom(run.seed, family.id, 1),
    ...(run.profileFile ? { profileFile: run.profileFile } : {}),
    ...(run.faults ? { faults: run.faults } : {}),
    findings: run.record.findings,
    counted: (requests, explained) => {
      rec.rounds++;
      rec.requests += requests;
      run.record.bursts++;
      if (explained) rec.explained++;
    },
  });
}

/** A family's check: its rounds, or (the replay's --times) only burst `only`, named apart. */
export function familyCheck(family: AnyRaceFamily, run: RacesRun, only?: { burst: number; of: number }): CheckDef {
  const partnerNeeds = [family.partner.gate, family.partner.pools].filter((n): n is NonNullable<typeof n> => !!n);
  return {
    name: only ? `${family.name} — burst ${only.burst} of ${only.of}` : family.name,
    requirements: family.requirements,
    needs: [...new Set([...partnerNeeds, ...(family.needs ?? [])])],
    async run(needs, t) {
      const provided = needs as Record<string, unknown>;
      if (isWindow(family)) return windowBody(run, family, provided[family.partner.gate] as GateActor, t);
      const gate = family.partner.gate ? (provided[family.partner.gate] as GateActor) : undefined;
      const pools = family.partner.pools ? (provided[family.partner.pools] as PoolsActor) : undefined;
      const fr: FamilyRun = {
        clients: { ...(gate ? { gate: gate.client } : {}), ...(pools ? { pools: pools.client } : {}) },
        partners: { ...(gate ? { gate: gate.partner.name } : {}), ...(pools ? { pools: pools.partner.name } : {}) },
      };
      familyRecord(run, family);
      await rounds(run, family, fr, t, only?.burst);
    },
  };
}
