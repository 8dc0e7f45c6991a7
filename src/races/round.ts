// One round of a race family on the target: its setup (the objects the burst acts on), the burst fired at once in
// a shuffled order of sending (fire.ts), the reads after it — then the whole judged against fresh oracle worlds
// (judgeRound.ts). The round's target steps are kept for the finding.
import { randomUUID } from 'node:crypto';
import type { ApiClient } from '../client/types.js';
import type { AfterRead, RaceFamily, RaceObjects, RoundContext } from './family.js';
import { fireBurst, type FiredRequest } from './fire.js';
import { judgeRound, type RoundJudgement } from './judgeRound.js';
import { raceSide, type RacePartners, type Service, type SideStep } from './side.js';
import type { Profile } from '../profile/schema.js';
import type { RaceWorlds } from './worlds.js';

export interface RoundOutcome {
  round: RoundContext;
  objects: RaceObjects;
  /** The target's steps before the burst. */
  steps: SideStep[];
  fired: FiredRequest[];
  after: AfterRead[];
  judgement: RoundJudgement;
  /** Requests the round sent the target. */
  requests: number;
}

export interface RoundInput {
  family: RaceFamily;
  profile: Profile;
  /** The target's clients of the family's partners (the check's: paced, recorded). */
  clients: Partial<Record<Service, ApiClient>>;
  partners: RacePartners;
  worlds: RaceWorlds;
  /** The run's tag and the round's number: every email and reference of the round carries both. */
  tag: string;
  /** The round's seeded generator (the order of sending). */
  rnd: () => number;
  signal?: AbortSignal;
}

/** Idempotency-Keys a burst may use: as many as its longest family needs. */
const KEYS = 6;

export async function runRound(input: RoundInput): Promise<RoundOutcome> {
  const { family } = input;
  const round: RoundContext = { tag: input.tag, keys: Array.from({ length: KEYS }, () => randomUUID()) };
  const target = raceSide('target', input.profile, input.clients, input.partners);
  const objects = await family.setup(target, round);
  const steps = [...target.steps];
  const fired = await fireBurst(target, family.burst(objects, round), { rnd: input.rnd, ...(input.signal ? { signal: input.signal } : {}) });
  const after = await family.after(target, objects, round);
  const judgement = await judgeRound({
    family,
    round,
    partners: input.partners,
    worlds: input.worlds,
    target: { objects, fired, after },
    ...(input.signal ? { signal: input.signal } : {}),
  });
  await family.cleanup?.(target, objects, round);
  return { round, objects, steps, fired, after, judgement, requests: target.steps.length + fired.length };
}
