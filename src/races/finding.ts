// A round no serial order explains, as the finding a developer acts on: the steps before the burst, the burst with
// each request's send and answer times and answer, the reads after it, the closest order the oracle tried and where
// it parts, the rule broken, and a replay script (src/report/racesReplay.ts).
import type { Exchange } from '../client/types.js';
import { requirement as requirementOf, type RequirementId } from '../model/catalogue/index.js';
import { toExchangeRecord } from '../report/exchangeRecord.js';
import { racesReplay } from '../report/racesReplay.js';
import type { RaceFindingRecord, RaceRequestRecord, RaceStepRecord } from '../report/results.js';
import type { FiredRequest } from './fire.js';
import type { AfterRead, RaceFamily } from './family.js';
import type { RoundJudgement } from './judgeRound.js';
import type { RoundOutcome } from './round.js';

const step = (s: { label: string; exchange: Exchange }): RaceStepRecord => ({ label: s.label, exchange: toExchangeRecord(s.exchange) });
const reads = (rs: readonly AfterRead[]): RaceStepRecord[] => rs.map(step);
const ms = (v: number) => Math.round(v * 10) / 10;

/** A burst's requests as the finding keeps them: times in ms after its first send (t0), every answer redacted. */
export function burstRecord(fired: readonly FiredRequest[], t0: number): RaceRequestRecord[] {
  return fired.map((f) => ({
    label: f.label,
    sentAs: f.sentAs,
    sentMs: ms(f.sentAt - t0),
    ...(f.answeredAt !== undefined ? { answeredMs: ms(f.answeredAt - t0) } : {}),
    effect: f.effect,
    ...(f.exchange ? { exchange: toExchangeRecord(f.exchange) } : {}),
    ...(f.noAnswer ? { noAnswer: f.noAnswer } : {}),
  }));
}

/**
 * The rule a parting breaks, among the family's (the check names those): the comparison's own where it is one of them,
 * else the family's first — the burst is what the family judges; the field's own rule, when another, is said in the finding.
 */
export function ruleOf(family: RaceFamily, j: Extract<RoundJudgement, { verdict: 'unexplained' }>): RequirementId {
  const named = j.parting.requirement as RequirementId | undefined;
  return named && (family.requirements as readonly string[]).includes(named) ? named : family.requirements[0]!;
}

/** One line: which request (or the reads after) parts from the closest serial order, and how. */
export function whatOf(out: RoundOutcome, j: Extract<RoundJudgement, { verdict: 'unexplained' }>): string {
  const p = j.parting;
  const where = p.request !== undefined ? `request ${p.request + 1} (${out.fired[p.request]!.label})` : 'the reads after the burst';
  const answers = out.fired.map((f) => f.exchange?.status ?? 'no answer').join(', ');
  const own = p.requirement && requirementOf(p.requirement as RequirementId) ? ` (${p.requirement})` : '';
  return `no serial order explains the burst (answers ${answers}): the closest, ${j.closest.order.map((i) => i + 1).join(' → ') || 'none applied'}, parts at ${where} on ${p.what}${own} — target ${JSON.stringify(p.target)}, oracle ${JSON.stringify(p.oracle)}`;
}

export function findingOf(
  family: RaceFamily,
  check: string,
  out: RoundOutcome,
  j: Extract<RoundJudgement, { verdict: 'unexplained' }>,
  run: { seed: number; roundNo: number; profile?: string; faults?: readonly string[] },
): RaceFindingRecord {
  const t0 = Math.min(...out.fired.map((f) => f.sentAt));
  const what = whatOf(out, j);
  return {
    family: family.id,
    check,
    requirement: ruleOf(family, j),
    what,
    round: run.roundNo,
    seed: run.seed,
    startedAt: new Date(t0).toISOString(),
    steps: out.steps.map(step),
    burst: burstRecord(out.fired, t0),
    after: reads(out.after),
    closest: {
      order: [...j.closest.order],
      matched: j.matched,
      ...(j.parting.request !== undefined ? { request: j.parting.request } : {}),
      what: j.parting.what,
      target: j.parting.target,
      oracle: j.parting.oracle,
      reading: j.closest.reading,
      oracleAnswers: [...j.closest.answers].map(([request, ex]) => ({ request, exchange: toExchangeRecord(ex) })),
      oracleAfter: reads(j.closest.after.reads),
    },
    tried: j.tried,
    replay: racesReplay({
      family: family.id,
      seed: run.seed,
      ...(run.profile ? { profile: run.profile } : {}),
      ...(run.faults ? { faults: run.faults } : {}),
      what,
    }),
  };
}
