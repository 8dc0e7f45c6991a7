// Helpers shared by the Gate delivery chaos suites: a webhook.test event whose
// attempts the receiver answers as programmed, the spec's retry schedule at the
// profile's time scale with its tolerance, check budgets from the same
// schedule, and reads of the delivery from GET /webhooks/deliveries.
import type { Exchange } from '../../src/client/types.js';
import type { Profile } from '../../src/profile/schema.js';
import type { GateWebhookActor } from '../../src/needs/define.js';
import type { CheckTools, RequirementId } from '../../src/runner/check.js';
import { GATE_LIMITS } from '../../src/model/limits.js';
import { WebhookDelivery, WebhookDeliveryList } from '../../src/model/schemas/gate/webhooks.js';
import type { ReceivedEvent, ReceiverBehaviour } from '../../src/webhooks/types.js';
import { expect2xx } from '../expect.js';
import { stampCreated } from '../targetTime.js';

export type Delivery = ReturnType<typeof WebhookDelivery.parse>;

const WH = GATE_LIMITS.webhook;
const LIST = '/webhooks/deliveries';
/** Pages of the deliveries list searched for one delivery (200 each). */
const MAX_LIST_PAGES = 5;
/** Round trips, pacing and timer slop on top of a scheduled wait. */
export const SLACK_MS = 5_000;
/** Above this, a full run of the scaled schedule is left to --depth full. */
export const QUICK_SCHEDULE_BUDGET_MS = 10 * 60_000;

/** The bounds the profile schema puts on tolerances.retryGapRatio and retryGapMs. */
const MAX_GAP_RATIO = 0.5;
const MAX_GAP_MS = 30_000;
/** Requests, list reads and polls a delivery check makes on top of its scheduled waits. */
const BUDGET_BASE_MS = 60_000;

/**
 * A check's budget for waiting through the first `gaps` retry gaps of the spec's
 * schedule (plus `extraMs` of other documented waits). A budget is declared with
 * the check, before the profile is known, so it takes the schedule at the largest
 * time scale a profile may declare (1) and the widest tolerances it may declare:
 * it never cuts short a correct target. Each wait inside the check is bounded
 * tighter, by the declared scale (latestArrivalOf), and fails naming its rule.
 */
export function scheduleBudgetMs(gaps: number, extraMs = 0): number {
  let ms = BUDGET_BASE_MS + SLACK_MS + extraMs;
  for (let i = 0; i < gaps; i++) ms += gapBoundMs(i);
  return ms;
}

/** The longest the spec's gap before attempt i + 2 may take under any profile (scale 1, widest tolerance): for budgets. */
export function gapBoundMs(i: number): number {
  const gap = WH.retryScheduleMs[Math.min(i, WH.retryScheduleMs.length - 1)]!;
  return gap + Math.max(gap * MAX_GAP_RATIO, MAX_GAP_MS);
}

/**
 * For the plan: the documented waits of a check that sits through these gaps of the spec's schedule (indexes into
 * 1m, 5m, 30m, 2h), at the profile's declared time scale — what calibration at another scale cannot say.
 */
export function plannedScheduleMs(profile: Profile, gaps: readonly number[], quietAfter?: number): number {
  const gap = (i: number) => WH.retryScheduleMs[Math.min(i, WH.retryScheduleMs.length - 1)]! * profile.timing.retryScale;
  // Listening past a last gap for one more attempt waits out that gap's tolerance too (never shorter than the declared one).
  const quiet = quietAfter === undefined ? 0 : gap(quietAfter) + plannedToleranceMs(profile, gap(quietAfter));
  return gaps.reduce((ms, i) => ms + gap(i), 0) + quiet;
}

/** A gap's tolerance as the profile declares it (the measured network is added at run time, never planned). */
export function plannedToleranceMs(profile: Profile, gapMs: number): number {
  const tol = profile.tolerances;
  return Math.max(gapMs * tol.retryGapRatio, tol.retryGapMs * profile.timing.retryScale, MEASUREMENT_SLACK_MS);
}

/** The spec's retry gaps (1m, 5m, 30m, 2h) at the profile's declared time scale (retryScale). */
export function scaledSchedule(t: CheckTools): number[] {
  return WH.retryScheduleMs.map((ms) => ms * t.profile.timing.retryScale);
}

/**
 * rampart's own timing precision on a measured gap: the receiver stamps arrivals in a busy process (measured on a
 * loaded 2-core machine: up to 20 ms late). The harness's, not the target's, so it is not scaled.
 */
export const MEASUREMENT_SLACK_MS = 100;

/**
 * Allowed distance of a measured gap from the expected one: the profile's tolerances at the profile's time scale —
 * the ratio of the gap, the absolute retryGapMs (real-time ms) scaled like the schedule — never under what rampart
 * can measure, plus how late the network and the sender's queue make an attempt (lateRoundTripMs): the receiver sees a gap from one attempt's arrival to
 * the next, which holds the failed attempt's answer going back and the next attempt coming over, when the sender
 * counts its wait from the answer (where it counts from is not shown), and each way is as uneven as the round
 * trips to the target (the webhook path is of the same network).
 */
export function gapTolerance(t: CheckTools, expectedMs: number, opts: { network?: boolean } = {}): number {
  const tol = t.profile.tolerances;
  const network = opts.network === false ? 0 : lateRoundTripMs(t);
  return Math.max(expectedMs * tol.retryGapRatio, tol.retryGapMs * t.profile.timing.retryScale, MEASUREMENT_SLACK_MS) + network;
}

/**
 * How late an attempt may come for the network and the sender's own load: a round trip for the failed attempt's
 * answer going back and the next attempt coming over, and as much again for the sender's own queue between the
 * answer and the send (not shown: measured against remote sandboxes on a busy host at up to 1.1 round trips) — or
 * the round trip 99 answers in 100 beat, where stalls make that longer (they delay an attempt as they delay answers).
 */
export function lateRoundTripMs(t: CheckTools): number {
  const rt = t.targetClock('gate').roundTrip();
  return rt ? Math.max(2 * rt.p95Ms, rt.p99Ms ?? 0) : 0;
}

/**
 * Where a measured gap may fall: the declared tolerance either side; above it also lateRoundTripMs, for a
 * sender that counts its wait from the failed attempt's answer (the answer going back and the next attempt coming
 * over lengthen every gap the same way); below it only the network's unevenness (p95 − fastest), for a sender that
 * counts from the send: one way can be faster than the other by no more than that. Where the sender counts from is
 * not shown, so both pass; widening the low side by the whole round trip would let a schedule one step short pass
 * on a slow network.
 */
export function gapWindow(t: CheckTools, expectedMs: number, opts: { network?: boolean } = {}): { lo: number; hi: number } {
  const declared = gapTolerance(t, expectedMs, { network: false });
  const rt = opts.network === false ? undefined : t.targetClock('gate').roundTrip();
  return { lo: expectedMs - declared - (rt?.jitterMs ?? 0), hi: expectedMs + declared + (rt ? lateRoundTripMs(t) : 0) };
}

/**
 * Why the scaled schedule's gaps, each in its window (gapWindow), could be mistaken for one another or the first
 * for an immediate retry (undefined when every window is apart): then no measured gap tells the schedule from a
 * wrong one, and the check must say so instead of passing. With `network: false`, on the profile's declared
 * tolerances alone (known before any request; the round trip is known only once enough answers came).
 */
export function indistinctGaps(t: CheckTools, opts: { network?: boolean } = {}): string | undefined {
  const gaps = scaledSchedule(t);
  const windows = gaps.map((g) => gapWindow(t, g, opts));
  // An immediate retry is seen about a round trip (its median) after the attempt before it, by a sender counting from
  // the answer; by one counting from the send, at once.
  const immediateHi = opts.network === false ? 0 : (t.targetClock('gate').roundTrip()?.medianMs ?? 0);
  const ms = (x: number) => `${Math.round(x)} ms`;
  const within = (i: number) => `${ms(gaps[i]!)}, measured within ${Math.max(0, Math.round(windows[i]!.lo))}–${ms(windows[i]!.hi)}`;
  if (windows[0]!.lo <= immediateHi) return `the first gap (${within(0)}) cannot be told from an immediate retry (measured within 0–${ms(immediateHi)})`;
  for (let i = 0; i + 1 < gaps.length; i++)
    if (windows[i]!.hi >= windows[i + 1]!.lo) return `gap ${i + 1} (${within(i)}) and gap ${i + 2} (${within(i + 1)}) overlap`;
  return undefined;
}

/** Latest time (ms after attempt 1) by which attempt n (1-based) must have arrived. */
export function latestArrivalOf(t: CheckTools, n: number): number {
  let ms = 0;
  for (const gap of scaledSchedule(t).slice(0, n - 1)) ms += gap + gapTolerance(t, gap);
  return ms + SLACK_MS;
}

/** Skip at quick depth when a run through `gaps` retry gaps (plus `extraMs`) would take longer than the quick budget. */
export function skipUnlessAffordable(t: CheckTools, gaps: number, extraMs = 0): void {
  const ms = latestArrivalOf(t, gaps + 1) + extraMs;
  if (t.depth === 'quick' && ms > QUICK_SCHEDULE_BUDGET_MS)
    t.skip(`the target's declared schedule (retryScale ${t.profile.timing.retryScale}) needs up to ${Math.round(ms / 60_000)} min here; run with --depth full`);
}

export interface TestEvent {
  actor: GateWebhookActor;
  exchange: Exchange;
  delivery: Delivery;
  /** Attempts of this event at the receiver (matched by type and newness, so a changed event id still counts). */
  attempts(): ReceivedEvent[];
}

/**
 * Send one webhook.test event to an exclusively held partner whose receiver
 * answers its attempts with `answers` (then 200). The programme is set before
 * the POST: the first attempt may arrive before the response does.
 */
export async function programmedTestEvent(
  t: CheckTools,
  actor: GateWebhookActor,
  answers: ReceiverBehaviour[],
  requirement: RequirementId,
): Promise<TestEvent> {
  const before = new Set(actor.hooks.attempts().map((e) => e.eventId));
  const isMine = (e: { eventId?: string; eventType?: string }) => e.eventType === 'webhook.test' && !before.has(e.eventId);
  actor.hooks.program(answers, isMine);
  // The success status is not shown: any 2xx.
  const exchange = expect2xx(t, await actor.client.post('/webhooks/test', undefined, { retry: false }), requirement);
  const delivery = t.expect.schema(exchange, WebhookDelivery, requirement);
  // Not idempotent: each call makes a new delivery, its created_at the target's clock while the request was in flight.
  stampCreated(actor.client, exchange, delivery.created_at);
  return { actor, exchange, delivery, attempts: () => actor.hooks.attempts().filter(isMine) };
}

/** Wait until the receiver has seen `n` attempts of the event; fails the check naming `requirement` otherwise. */
export async function waitForAttempts(
  t: CheckTools,
  ev: TestEvent,
  n: number,
  timeoutMs: number,
  requirement: RequirementId,
  why: string,
): Promise<ReceivedEvent[]> {
  try {
    await ev.actor.hooks.waitFor(() => ev.attempts().length >= n, timeoutMs, `attempt ${n} of ${ev.delivery.event_id}`, requirement);
  } catch {
    const seen = ev.attempts();
    t.expect.that(false, `${why}: attempt ${n} arrives within ${(timeoutMs / 1000).toFixed(1)} s`, {
      requirement,
      expected: `${n} attempts`,
      actual: `${seen.length} attempt(s), answered ${seen.map((e) => e.answeredStatus ?? 'nothing').join(', ') || '—'}`,
    });
  }
  return ev.attempts();
}

/** Listen for `ms` more (a documented retry gap of the target): the attempts seen by then. */
export async function quietFor(t: CheckTools, ev: TestEvent, ms: number, label: string): Promise<ReceivedEvent[]> {
  await t.sleep(ms, label, 'target');
  return ev.attempts();
}

/** The delivery as GET /webhooks/deliveries lists it (searched page by page). */
export async function listedDelivery(
  t: CheckTools,
  actor: GateWebhookActor,
  id: string,
  requirement: RequirementId,
): Promise<{ delivery: Delivery; exchange: Exchange }> {
  let last: Exchange | undefined;
  for (let page = 0; page < MAX_LIST_PAGES; page++) {
    // The list's success status is not shown: any 2xx.
    const exchange = expect2xx(t, await actor.client.get(LIST, { limit: 200, skip: page * 200 }), requirement, `GET ${LIST}`);
    last = exchange;
    const list = t.expect.schema(exchange, WebhookDeliveryList, requirement);
    const found = list.data.find((d) => d.id === id);
    if (found) return { delivery: found, exchange };
    if (!list.has_more) break;
  }
  return t.expect.that(false, `delivery ${id} is listed by GET ${LIST}`, { requirement, exchange: last }) as never;
}

/** Poll the list until the delivery reaches one of `statuses` (bounded by timeoutMs). */
export async function settledDelivery(
  t: CheckTools,
  actor: GateWebhookActor,
  id: string,
  statuses: Delivery['status'][],
  timeoutMs: number,
  requirement: RequirementId,
): Promise<{ delivery: Delivery; exchange: Exchange }> {
  const deadline = Date.now() + timeoutMs;
  for (let i = 0; ; i++) {
    const got = await listedDelivery(t, actor, id, requirement);
    if (statuses.includes(got.delivery.status) || Date.now() > deadline) return got;
    await t.sleep(Math.min(1_000, 100 * 2 ** i), 'delivery status poll', 'target');
  }
}

/**
 * Poll the list until every one of the deliveries reaches one of `statuses` (bounded by timeoutMs): one read of
 * the list shows them all, so they are never fetched one by one.
 */
export async function settledDeliveries(
  t: CheckTools,
  actor: GateWebhookActor,
  ids: readonly string[],
  statuses: Delivery['status'][],
  timeoutMs: number,
  requirement: RequirementId,
): Promise<{ delivery: Delivery; exchange: Exchange }[]> {
  const deadline = Date.now() + timeoutMs;
  for (let i = 0; ; i++) {
    const got: { delivery: Delivery; exchange: Exchange }[] = [];
    let exchange: Exchange | undefined;
    for (let page = 0; got.length < ids.length && page < MAX_LIST_PAGES; page++) {
      exchange = expect2xx(t, await actor.client.get(LIST, { limit: 200, skip: page * 200 }), requirement, `GET ${LIST}`);
      const list = t.expect.schema(exchange, WebhookDeliveryList, requirement);
      for (const d of list.data) if (ids.includes(d.id) && !got.some((g) => g.delivery.id === d.id)) got.push({ delivery: d, exchange });
      if (!list.has_more) break;
    }
    const missing = ids.filter((id) => !got.some((g) => g.delivery.id === id));
    if (missing.length) return t.expect.that(false, `deliveries ${missing.join(', ')} are listed by GET ${LIST}`, { requirement, exchange }) as never;
    if (got.every((g) => statuses.includes(g.delivery.status)) || Date.now() > deadline) return ids.map((id) => got.find((g) => g.delivery.id === id)!);
    await t.sleep(Math.min(1_000, 100 * 2 ** i), 'delivery status poll', 'target');
  }
}

/** Receiver-side gaps between consecutive attempts, ms. */
export function gapsOf(attempts: ReceivedEvent[]): number[] {
  return attempts.slice(1).map((a, i) => a.arrivedAt - attempts[i]!.arrivedAt);
}

/** Every attempt carries the event id of the delivery and a signature that verifies. */
export function expectSameIdAndSigned(t: CheckTools, ev: TestEvent, attempts: ReceivedEvent[]): void {
  const ids = [...new Set(attempts.map((a) => a.eventId))];
  t.expect.equal(ids, [ev.delivery.event_id], 'every attempt carries the delivery event_id', { requirement: 'GATE-DLV-EVENT-ID-STABLE' });
  // X-<svc>-Event-Id: the service segment is not fixed by the spec.
  const header = [
    ...new Set(attempts.map((a) => Object.entries(a.headers).find(([k]) => /^x-[a-z0-9]+-event-id$/i.test(k))?.[1]).filter((h) => h !== undefined)),
  ];
  if (header.length)
    t.expect.equal(header, [ev.delivery.event_id], 'the event-id header is the same on every attempt', { requirement: 'GATE-DLV-EVENT-ID-STABLE' });
  attempts.forEach((a, i) =>
    t.expect.that(a.verification.ok, `attempt ${i + 1}'s Gate-Signature verifies over the exact bytes sent`, {
      requirement: 'GATE-DLV-SIGNED-EVERY-ATTEMPT',
      actual: a.verification.reason,
    }),
  );
}

/**
 * The receiver gives its programmed answers only to attempts whose signature
 * verifies; it refuses the others with 400. A check that does not judge the
 * signature then never reached the answer it meant to give: unverified, naming why.
 */
export function requireVerified(t: CheckTools, attempts: ReceivedEvent[]): void {
  const i = attempts.findIndex((a) => !a.verification.ok);
  if (i >= 0)
    t.unverified(
      `the receiver refused attempt ${i + 1} with 400 (its Gate-Signature did not verify: ${attempts[i]!.verification.reason}), so it never gave the programmed answer; ` +
        'the signature rules are judged by the checks naming GATE-DLV-SIGNED-EVERY-ATTEMPT',
    );
}
