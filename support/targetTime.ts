// Judging the target's absolute timestamps on the target's clock (a remote
// sandbox keeps its own): spans of its clock from the client's estimate
// (src/client/targetClock.ts), waits that end once its clock is surely past an
// instant, and the verdict of a time rule. Each rule states the clock
// uncertainty it can afford (src/model/limits.ts CLOCK_BOUNDS). A target whose
// clock jumped between answers fails the rule that needed its clock; one that
// sends no Date header and stamps nothing it makes (the specs require neither)
// leaves the rule unverified with the reason, and so does a clock known more
// loosely than the rule affords, with the numbers.
import type { ApiClient, Exchange } from '../src/client/types.js';
import type { ClockReading } from '../src/client/targetClock.js';
import type { ClockBound } from '../src/model/limits.js';
import type { CheckTools, RequirementId } from '../src/runner/check.js';
import type { TargetSpan } from '../src/wire/targetTime.js';

export type { TargetSpan };

/** A time rule: the requirement judged on the target's clock and the uncertainty it can afford. */
export interface TimeRule {
  requirement: RequirementId;
  bound: ClockBound;
}

type KnownClock = Extract<ClockReading, { kind: 'known' }>;

/**
 * The creation time of an object the target made during `ex` (its created_at, createdAt): the target's own
 * clock, one sample of it. A request the client resent may have been answered with the first attempt's object
 * (an idempotent replay), stamped before this exchange: not taken.
 */
export function stampCreated(client: ApiClient, ex: Exchange, iso: unknown): void {
  if (ex.retries === 0) client.clock.stamp(ex.startedAt, ex.startedAt + ex.durationMs, iso);
}

/** "stamps +2.0 s ± 0.01 s (12 objects); Date …": both sources and their agreement, for failure messages and observations. */
export function clockNote(client: ApiClient): string {
  const r = client.clock.report();
  const src = (name: string, s?: { state: string; offsetMs: number; uncertaintyMs: number; samples: number; outliers: number }) =>
    s
      ? `${name} ${s.state === 'jumped' ? 'jumped' : `${s.offsetMs >= 0 ? '+' : '−'}${Math.abs(s.offsetMs)} ms ± ${s.uncertaintyMs} ms`} (${s.samples}, ${s.outliers} discarded)`
      : `${name} none`;
  const judged = r.clock
    ? `target clock ${r.clock.offsetMs >= 0 ? '+' : '−'}${Math.abs(r.clock.offsetMs)} ms ± ${r.clock.uncertaintyMs} ms against rampart's (on ${r.basis})`
    : 'target clock unknown';
  return `${judged}; ${src('stamps', r.stamps)}, ${src('Date', r.date)}${r.missingDate ? `, ${r.missingDate} of ${r.answers} answers without a Date header` : ''}`;
}

/**
 * The target's clock for a rule: known, or the rule fails (the clock jumped — the target's fault, never a reason to
 * pass) or ends unverified (too few samples yet to tell; or no clock shown at all, which no spec requires). Where
 * the sources disagree, the Date headers name two clocks, or answers carry no Date header, the check observes it.
 */
export function clockFor(t: CheckTools, client: ApiClient, rule: TimeRule): KnownClock {
  const r = client.clock.reading();
  if (!observed.has(t)) observeClock(t, client);
  if (r.kind === 'known') return r;
  if (r.kind === 'unsettled' || r.kind === 'none') t.unverified(`${r.why} (${clockNote(client)})`);
  t.expect.that(false, `the target's clock can be read to judge this rule: ${r.why}`, { requirement: rule.requirement, actual: clockNote(client) });
  throw new Error('unreachable');
}

/** Checks that observed the clock already (once per check is enough). */
const observed = new WeakSet<CheckTools>();

function observeClock(t: CheckTools, client: ApiClient): void {
  observed.add(t);
  const report = client.clock.report();
  if (report.agree === false)
    t.observe(
      'target-clock-sources-disagree',
      clockNote(client),
      "the target's own timestamps and its Date headers name different clocks: judged on its timestamps",
    );
  if (report.date?.state === 'jumped' && report.clock)
    t.observe(
      'target-date-headers-two-clocks',
      clockNote(client),
      report.basis === 'stamps'
        ? "the target's Date headers name more than one clock (a fleet whose nodes' clocks differ), its own timestamps one: judged on its timestamps"
        : "the target's Date headers name two clocks a few seconds apart (a fleet's nodes), and its stamps cannot yet tell which is its own: judged to within both",
    );
  if (report.missingDate)
    t.observe(
      'target-no-date-header',
      { answers: report.answers, withoutDate: report.missingDate },
      'RFC 9110 §6.6.1: an origin server with a clock sends Date',
    );
}

/** The target's clock while an exchange (or an arrival: durationMs 0) was in flight. */
export function spanOf(t: CheckTools, client: ApiClient, ex: { startedAt: number; durationMs: number }, rule: TimeRule): TargetSpan {
  const c = clockFor(t, client, rule);
  return { low: ex.startedAt + c.lo, high: ex.startedAt + ex.durationMs + c.hi };
}

/** The target's clock now. */
export function targetNow(t: CheckTools, client: ApiClient, rule: TimeRule): TargetSpan {
  return spanOf(t, client, { startedAt: Date.now(), durationMs: 0 }, rule);
}

/** The clock's uncertainty is inside what the rule affords; else the rule ends unverified with the numbers. */
export function requireBound(t: CheckTools, client: ApiClient, rule: TimeRule, maxUncertaintyMs = rule.bound.maxUncertaintyMs): void {
  const c = clockFor(t, client, rule);
  if (c.estimate.uncertaintyMs > maxUncertaintyMs)
    t.unverified(
      `the target's clock is known to ± ${c.estimate.uncertaintyMs} ms, wider than the ± ${maxUncertaintyMs} ms ${rule.requirement} can be judged with (${rule.bound.why}): ${clockNote(client)}`,
    );
}

/**
 * Judge a measure taken on the target's clock (`measure`, as wide as the clock's uncertainty) against what the
 * rule allows: it fails when no value of the measure is allowed, whatever the uncertainty; when some value is,
 * it passes only if the clock is known within the rule's bound, else it ends unverified with the numbers.
 */
export function expectOnTargetClock(
  t: CheckTools,
  client: ApiClient,
  rule: TimeRule,
  measure: { low: number; high: number },
  allowed: { min: number; max: number },
  message: string,
  opts: { actual?: unknown; expected?: unknown; exchange?: Exchange; maxUncertaintyMs?: number } = {},
): void {
  const { maxUncertaintyMs, ...shown } = opts;
  const some = measure.high >= allowed.min && measure.low <= allowed.max;
  const detail = {
    requirement: rule.requirement,
    ...shown,
    actual: { measured: [measure.low, measure.high], clock: clockNote(client), ...(shown.actual === undefined ? {} : { seen: shown.actual }) },
  };
  if (!some) t.expect.that(false, message, detail);
  requireBound(t, client, rule, maxUncertaintyMs);
  t.expect.that(true, message, detail);
}

/**
 * Sleep until the target's clock is surely past `targetMs` (+ `marginMs`): a documented wait of the target
 * (an expiry), counted against the check. Returns at once when it already is. A clock known more loosely than
 * the rule affords would make the wait as long as the uncertainty: unverified instead.
 */
export async function sleepUntilTargetPast(t: CheckTools, client: ApiClient, targetMs: number, label: string, rule: TimeRule, marginMs = 0): Promise<void> {
  const c = clockFor(t, client, rule);
  requireBound(t, client, rule);
  const ms = Math.ceil(targetMs + marginMs - c.lo - Date.now());
  if (ms > 0) await t.sleep(ms, label, 'target');
}

/** rampart's time at which the target's clock is surely past `targetMs`, when its clock is known; else undefined. */
export function localWhenPast(client: ApiClient, targetMs: number): number | undefined {
  const r = client.clock.localWhenPast(targetMs);
  return typeof r === 'number' ? r : undefined;
}

/** rampart's time before which the target's clock surely has not reached `targetMs`, when its clock is known; else undefined. */
export function localBefore(client: ApiClient, targetMs: number): number | undefined {
  const r = client.clock.localBefore(targetMs);
  return typeof r === 'number' ? r : undefined;
}
