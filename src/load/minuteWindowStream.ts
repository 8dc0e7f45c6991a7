// The 60-per-minute window judged on one key's own conformance stream: a
// profile without the rate-limit scenario's reserved keys (one key, one
// sitting) still proves the window, and the 60 requests that fill it are
// requests conformance sends anyway — only the one past the limit is extra.
// The pacer holds the key until its windows are empty under every reading,
// the stream refills it as fast as it goes; once 60 are answered inside the
// window (and well inside it), one request more must get 429. Every request
// of the key is judged by the load judge under every reading of "60 per
// minute" (scenarios/lib/windowJudge.ts): where a fixed window's edge may
// have fallen inside the burst and the probe passed, a second attempt starts
// where no such edge can be; a probe still admitted then fails. A 429 before
// the count fails the window only when nothing documented explains it
// (earlyRefusal.ts): the route's own window, the hour window, requests of the
// key from outside the run are each weighed with the numbers in hand.
import { createApiClient } from '../client/http.js';
import { clientLimits } from '../client/limits.js';
import type { KeyRequest, Pacer } from '../client/pacer.js';
import type { TargetClock } from '../client/targetClock.js';
import type { Profile } from '../profile/schema.js';
import { loadKeys, RATE_LIMIT_KEYS, viewFor } from '../runner/partition.js';
import { GATE_RATE_WINDOWS, gateRouteGroup, type RouteGroup } from '../model/limits.js';
import { earlyRefusalAt, explain, unjudgedWhy, witnessOf, type EarlyRefusal } from './earlyRefusal.js';
import type { CheckResult, Observation } from '../report/results.js';
import { judgeWindow, type WindowVerdict } from '../../scenarios/lib/windowJudge.js';
import type { Sent, WindowPlan } from '../../scenarios/lib/windowProbe.js';
import { requirementCheckOf } from './verdict.js';

/** The probe's answer as the harness saw it. */
export interface ProbeAnswer {
  status: number;
  json: unknown;
  headers: Record<string, string | undefined>;
}

export interface MinuteStreamOptions {
  pacer: Pacer;
  /** The secret key whose stream is judged (never printed). */
  key: string;
  windowScale: number;
  /** profile tolerances.rateWindowRatio: each decision time is widened by this share of the window. */
  toleranceRatio: number;
  /** Send one request past the pacer (the probe); the stream probe stamps it in the pacer itself. */
  send: (method: string, path: string) => Promise<ProbeAnswer>;
  now?: () => number;
}

/** Requirements the stream proves: the minute window's count, and its 429's envelope (one window of several). */
export const MINUTE_STREAM_REQUIREMENTS = ['GATE-RATE-MINUTE-WINDOW', 'GATE-RATE-429-ENVELOPE'] as const;
/** The scenario checks the stream's verdict stands for (each replaces the scenario's skip of the same name). */
export const minuteStreamStandsFor = () =>
  ['GATE-RATE-MINUTE-WINDOW', 'GATE-RATE-ROUTE-REPLACES-FIRST-ONLY'].map((id) => requirementCheckOf('rate-limits', id));

const ATTEMPTS = 2;
const REPLACES = 'GATE-RATE-ROUTE-REPLACES-FIRST-ONLY';
/** Attempts that never filled the window well inside it, started again at most this often. */
const RESTARTS = 3;
/** Routes a probe may use, in order: side-effect-free reads of the secret key; the first whose route window has room. */
const PROBE_ROUTES: [string, string][] = [
  ['GET', '/dashboard/webhook-settings'],
  ['GET', '/capabilities/assets'],
  ['GET', '/branding'],
];

interface Attempt {
  /** The hold ends here: the attempt's requests are those sent from then on. */
  startAt: number;
  /** Index in the log of the attempt's first request (-1: none yet). */
  from: number;
  /** The probe's answer must come before this time (attempt 2: before any edge attempt 1 allowed could recur). */
  deadline: number;
  probe?: { index: number; answer?: ProbeAnswer; method: string; path: string };
}

/** The documented error envelope of a 429, as the load scenarios judge it. */
function envelopeProblem(a: ProbeAnswer): string | undefined {
  const b = a.json as Record<string, unknown> | undefined;
  if (!b || typeof b !== 'object') return 'the 429 has no JSON error envelope';
  const rid = a.headers['x-request-id'];
  if (b.type !== 'rate_limited') return `the 429's type is ${JSON.stringify(b.type)}, not "rate_limited"`;
  if (typeof b.code !== 'string' || typeof b.message !== 'string' || typeof b.request_id !== 'string') return 'the 429 lacks code, message or request_id';
  if (!(b.doc_url === null || typeof b.doc_url === 'string')) return 'the 429 has no doc_url (a string or null)';
  if (b.statusCode !== 429) return `the 429's statusCode is ${JSON.stringify(b.statusCode)}`;
  if (rid !== b.request_id) return 'the 429 has no X-Request-Id equal to its request_id';
  return undefined;
}

export class MinuteWindowStream {
  private readonly log: Sent[] = [];
  /** The route group of each request of the log. */
  private readonly groups: RouteGroup[] = [];
  private readonly attempts: Attempt[] = [];
  private readonly windowMs: number;
  private readonly toleranceMs: number;
  private readonly limit = GATE_RATE_WINDOWS.minute.limit;
  private readonly now: () => number;
  private unwatch?: () => void;
  private transportGap = false;
  private firing = false;
  private done = false;
  private probeSent?: Promise<void>;
  private startedAt = 0;
  private restarts = 0;
  /** The 429s before the count, each with what explains it; the one awaiting its witness. */
  private readonly early: EarlyRefusal[] = [];
  private pending?: EarlyRefusal;
  /** Log indexes the judge leaves out: route-only refusals, and the attempts abandoned after an early one. */
  private readonly dropped = new Set<number>();
  private readonly hourMs: number;

  constructor(private readonly opts: MinuteStreamOptions) {
    this.windowMs = GATE_RATE_WINDOWS.minute.windowMs * opts.windowScale;
    this.toleranceMs = toleranceOf(this.windowMs, opts.toleranceRatio);
    this.hourMs = GATE_RATE_WINDOWS.hour.windowMs * opts.windowScale;
    this.now = opts.now ?? opts.pacer.now;
  }

  /** The hold before the first attempt: until nothing sent before can still be in any reading of the minute window. */
  get holdMs(): number {
    return this.windowMs + 2 * this.toleranceMs;
  }

  /** Start watching, holding the key for holdMs first. */
  start(): void {
    this.startedAt = this.now();
    this.unwatch = this.opts.pacer.watch(this.opts.key, (r) => this.heard(r));
    this.begin(this.now() + this.holdMs, Infinity);
  }

  private begin(at: number, deadline: number): void {
    this.opts.pacer.hold(this.opts.key, at);
    this.attempts.push({ startAt: at, from: -1, deadline });
    this.transportGap = false;
  }

  private get current(): Attempt | undefined {
    return this.done ? undefined : this.attempts[this.attempts.length - 1];
  }

  private heard(r: KeyRequest): void {
    this.log.push({ n: this.log.length + 1, phase: 'walk1', a: r.sentAt, b: r.answeredAt, status: r.status ?? 0 });
    this.groups.push(gateRouteGroup(r.method, r.path));
    const i = this.log.length - 1;
    // It may be the witness an early refusal waits for (which may end the attempt and begin the next).
    if (this.pending) this.witnessed(i);
    const a = this.current;
    // A request a chain sent on slots granted before the hold is judged too, but starts no attempt.
    if (!a || this.done || this.firing || r.sentAt < a.startAt) return;
    if (r.status === undefined) this.transportGap = true;
    if (a.from < 0) a.from = i;
    if (r.status === 429 && !this.pending) this.refused(a, i);
    else if (!this.pending) this.consider(a);
  }

  /**
   * A request of the attempt got 429. With the key's minute window holding the limit under some reading, the minute
   * window explains it (the stream stops: judged as it is). Before the count, its witness decides (witnessed).
   */
  private refused(a: Attempt, i: number): void {
    const w = { windowMs: this.windowMs, hourMs: this.hourMs, toleranceMs: this.toleranceMs };
    const r = earlyRefusalAt(this.log, this.groups, i, { startAt: a.startAt, firstAt: this.log[a.from]!.a }, w);
    if (r.inWindow >= this.limit) return this.stop();
    this.pending = r;
  }

  /** The key's request log[j], heard while an early refusal waits for its witness. */
  private witnessed(j: number): void {
    const r = this.pending!;
    const w = witnessOf(r, this.log, this.groups, j, 50 + this.toleranceMs);
    if (!w) return;
    r.witness = w;
    this.pending = undefined;
    this.weigh(r);
  }

  /** What explains an early refusal, its witness known: judged on what remains. */
  private weigh(r: EarlyRefusal): void {
    const why = explain(r, this.early, GATE_RATE_WINDOWS.hour.limit);
    this.early.push(r);
    const a = this.current;
    if (why === 'route') {
      // Another route of the key was accepted: not the minute window's refusal; the attempt goes on without it.
      this.dropped.add(r.index);
      if (a && !this.firing) this.consider(a);
      return;
    }
    // The hour window with rampart's own requests, or the same count twice: nothing more to try.
    if (why !== 'outside' || !a || a.probe || ++this.restarts > RESTARTS) return this.stop();
    // The key refused as a whole (the hour window may hold requests from before the run, the minute requests from
    // elsewhere): the attempt is left out of the judgement, and a fresh one starts after a hold.
    for (let i = a.from; i < this.log.length; i++) this.dropped.add(i);
    this.attempts.pop();
    this.begin(Math.max(this.now(), this.log[this.log.length - 1]!.b) + this.windowMs + 2 * this.toleranceMs, a.deadline);
  }

  /** After each answer of the attempt: fire once 60 are in, all answered, well inside the window. */
  private consider(a: Attempt): void {
    const inAttempt = this.log.slice(a.from);
    const first = inAttempt[0]!;
    const now = this.now();
    const rtt = Math.max(...inAttempt.map((s) => s.b - s.a));
    const fits = now + rtt + 2 * this.toleranceMs - first.a < this.windowMs && now + rtt < a.deadline;
    if (inAttempt.length >= this.limit && this.opts.pacer.inFlight(this.opts.key) === 0) {
      if (fits && !this.transportGap) void this.fire(a);
      else this.retryOrStop(a);
    } else if (!fits) {
      // The stream was too slow to fill the window well inside it: empty the key and try again.
      this.retryOrStop(a);
    }
  }

  private retryOrStop(a: Attempt): void {
    if (a.probe || ++this.restarts > RESTARTS) return this.stop();
    // An attempt that never probed is started again, a few times at most (each holds the key for a window).
    this.attempts.pop();
    const last = this.log[this.log.length - 1]!;
    this.begin(Math.max(this.now(), last.b) + this.windowMs + 2 * this.toleranceMs, a.deadline);
  }

  private async fire(a: Attempt): Promise<void> {
    const route = PROBE_ROUTES.find(([m, p]) => this.opts.pacer.firstWindowRoom(this.opts.key, m, p) >= 2) ?? PROBE_ROUTES[0]!;
    const [method, path] = route;
    this.firing = true;
    a.probe = { index: -1, method, path };
    const settle = this.opts.pacer.sendNow(this.opts.key, method, path);
    const startedAt = this.now();
    this.probeSent = (async () => {
      let answer: ProbeAnswer | undefined;
      try {
        answer = await this.opts.send(method, path);
      } catch {
        answer = undefined;
      }
      // The watchers log it synchronously: the probe is the stream's last request.
      settle(Math.max(this.now(), startedAt), answer?.status);
      a.probe!.index = this.log.length - 1;
      a.probe!.answer = answer;
      this.firing = false;
      if (!answer || answer.status === 429) return this.stop();
      // Admitted: judge so far; a second attempt only where a fixed window's edge may explain it.
      if (this.attempts.filter((x) => x.probe).length >= ATTEMPTS || this.judge().consistent.length === 0) return this.stop();
      // A fixed window's edge may lie in [f0, e0] (and a window on from there): attempt 2 runs between two such spans.
      const w = this.windowMs;
      const f0 = this.log[a.from]!.a - this.toleranceMs;
      const e0 = this.log[a.probe!.index]!.b + this.toleranceMs;
      let at = e0 + w + this.toleranceMs; // the key's windows are empty under every reading
      const k = Math.floor((at - f0) / w);
      if (at <= e0 + k * w) at = e0 + k * w;
      this.begin(at, f0 + (k + 1) * w);
    })();
  }

  private stop(): void {
    if (this.done) return;
    this.done = true;
    this.opts.pacer.hold(this.opts.key, 0);
  }

  /**
   * Judge the stream from the first attempt that probed (every earlier request left the window in its hold), less
   * what the judge leaves out: refusals of a route alone, and attempts abandoned after the key was refused as a whole.
   */
  private judge(): WindowVerdict {
    const plan = { limit: this.limit, windowMs: this.windowMs, toleranceMs: this.toleranceMs } as WindowPlan;
    const from = this.attempts.find((a) => a.probe && a.from >= 0)?.from ?? 0;
    return judgeWindow(
      this.log.filter((_, i) => i >= from && !this.dropped.has(i)),
      plan,
    );
  }

  /**
   * Stop watching and judge. The rate-limit scenario's minute-window check (with the minute window's 429
   * envelope), and its replaces-first-only check: the 60 that filled the window were requests of route groups
   * with limits of their own, the probe's group had room, so the minute window applies across those routes.
   */
  async finish(): Promise<{ checks: CheckResult[]; observations: Observation[] }> {
    await this.probeSent;
    // A refusal whose witness never came: nothing showed the key's other routes had room.
    if (this.pending) {
      this.pending.witness = 'none';
      const r = this.pending;
      this.pending = undefined;
      this.weigh(r);
    }
    this.stop();
    this.unwatch?.();
    const { check, observations } = this.minuteCheck();
    const replaces = { ...requirementCheckOf('rate-limits', REPLACES), suite: 'load' as const, durationMs: check.durationMs, requests: { gate: 0, pools: 0 } };
    const refused = this.attempts.find((a) => a.probe?.answer?.status === 429);
    const routed = refused ? this.groups.slice(refused.from, refused.probe!.index).filter((g) => g !== 'default').length : 0;
    if (check.status === 'failed' && check.failure?.requirement === 'GATE-RATE-MINUTE-WINDOW')
      return { checks: [check, { ...replaces, status: 'failed', failure: { ...check.failure, requirement: REPLACES } }], observations };
    if (check.status !== 'passed' || routed === 0)
      return {
        checks: [check, { ...replaces, status: 'unverified', reason: check.reason ?? 'the window was filled by default-route requests only' }],
        observations,
      };
    return { checks: [check, { ...replaces, status: 'passed' }], observations };
  }

  private minuteCheck(): { check: CheckResult; observations: Observation[] } {
    const base = {
      ...requirementCheckOf('rate-limits', 'GATE-RATE-MINUTE-WINDOW'),
      requirements: [...MINUTE_STREAM_REQUIREMENTS],
      suite: 'load' as const,
      durationMs: Math.round(this.now() - this.startedAt),
      requests: { gate: this.attempts.filter((a) => a.probe).length, pools: 0 },
    };
    const probes = this.attempts.filter((a) => a.probe).map((a) => a.probe!);
    const observations: Observation[] = [];
    const unverified = (reason: string) => ({ check: { ...base, status: 'unverified' as const, reason }, observations });
    const failed = (failure: Omit<NonNullable<CheckResult['failure']>, 'kind'>) => ({
      check: { ...base, status: 'failed' as const, failure: { kind: 'assertion' as const, ...failure } },
      observations,
    });
    const explained = this.early.filter((r) => !r.repeats);
    if (explained.length)
      observations.push({
        topic: 'GATE-RATE-MINUTE-WINDOW-EARLY-429',
        service: 'gate',
        check: base.name,
        value: explained.map(({ n, admitted, hourOwn, witness }) => ({ request: n, admittedInMinute: admitted, rampartInHour: hourOwn, otherRoute: witness })),
        note: "429s before the minute window's count that something documented explains: the route's own window (another route of the key accepted), the hour window, or requests of the key from outside the run",
      });
    const early = this.early.find((r) => r.repeats);
    if (early)
      return failed({
        requirement: 'GATE-RATE-MINUTE-WINDOW',
        message: `a request paced inside every documented window got 429 before the limit: request ${early.n} of the stream, with ${early.admitted} of the key's requests inside the minute before it — as request ${early.repeats} was, in an earlier attempt, each after a hold that emptied the minute window of rampart's requests, each with another route of the key refused too (the hour window holds ${early.hourOwn} of rampart's, far from ${GATE_RATE_WINDOWS.hour.limit}): a window narrower than documented, under every reading of "60 per minute" (traffic from elsewhere would have to fill it to the same count each time)`,
        expected: `the first ${this.limit} requests within ${this.windowMs} ms accepted`,
        actual: `request ${early.n} (a route of the ${early.group} group) answered 429 ${early.atMs} ms into the attempt, ${early.admitted + 1} request(s) into the minute`,
      });
    const keyWide = this.early.filter((r) => r.witness !== 'accepted');
    if (!probes.length && keyWide.length) return unverified(unjudgedWhy(keyWide, this.limit, GATE_RATE_WINDOWS.hour.limit));
    if (!probes.length)
      return unverified(
        `the key's conformance stream never sent ${this.limit} requests well inside one minute window (${this.windowMs} ms at the declared scale), so no request past the limit was sent`,
      );
    const v = this.judge();
    const seen = probes.map((p) => `${p.method} ${p.path} → ${p.answer?.status ?? 'no answer'}`).join('; ');
    observations.push({
      topic: 'GATE-RATE-MINUTE-WINDOW',
      service: 'gate',
      check: base.name,
      value: { judgedOn: 'the conformance stream of one key', requests: this.log.length, probes: seen, readings: v.consistent },
      note: `the 60-per-minute window judged on requests conformance sent anyway; readings that explain every status: ${v.consistent.join(', ') || 'none'}`,
    });
    const refused = probes.find((p) => p.answer?.status === 429);
    if (v.consistent.length === 0) {
      const m = Object.values(v.mismatches)[0];
      return failed({
        requirement: 'GATE-RATE-MINUTE-WINDOW',
        message: `${this.limit} requests answered inside one minute window, then one more was admitted: no reading of "60 per minute" (sliding, fixed buckets, from the first request) explains the stream (${seen})`,
        expected: `429 for the request past ${this.limit} within ${this.windowMs} ms`,
        actual: m ? `request ${m.n} answered ${m.observed} ${m.atMs} ms into the stream` : seen,
      });
    }
    if (!refused)
      return unverified(
        `every probe past ${this.limit} was admitted where a fixed window's edge may have fallen inside its burst (${seen}); the count could not be told`,
      );
    const problem = envelopeProblem(refused.answer!);
    if (problem)
      return failed({
        requirement: 'GATE-RATE-429-ENVELOPE',
        message: `the minute window's 429: ${problem}`,
        expected: 'the error envelope with type rate_limited and X-Request-Id equal to request_id',
        actual: JSON.stringify(refused.answer!.json)?.slice(0, 300) ?? 'no body',
      });
    return { check: { ...base, status: 'passed' }, observations };
  }
}

/** The Gate partner whose conformance stream judges the minute window in this run, or undefined (see minuteStreamFor). */
export function minuteStreamPartner(profile: Profile, run: { kinds: readonly string[]; scenarios?: readonly string[]; service?: 'gate' | 'pools' }) {
  if (!run.kinds.includes('conformance') || !run.kinds.includes('load') || run.service === 'pools') return undefined;
  if (run.scenarios?.length && !run.scenarios.includes('rate-limits')) return undefined;
  if (loadKeys(profile).reserved.length >= RATE_LIMIT_KEYS) return undefined;
  return viewFor(profile, 'conformance').gate.partners[0];
}

/** The hold before the stream's first attempt: one minute window and twice its tolerance, at the declared scale. */
export function minuteStreamHoldMs(profile: Profile): number {
  const w = GATE_RATE_WINDOWS.minute.windowMs * profile.timing.rateWindowScale;
  return w + 2 * toleranceOf(w, profile.tolerances.rateWindowRatio);
}

/** As the load judge widens each decision time: a share of the window, at least 20 ms, at most 1 s. */
function toleranceOf(windowMs: number, ratio: number): number {
  return Math.round(Math.min(1_000, Math.max(20, windowMs * ratio)));
}

/**
 * The minute window on the conformance stream, when this run should judge it there: a run with conformance and
 * load (certify) whose profile lacks the rate-limit scenario's reserved keys. The stream is the first Gate
 * partner conformance uses; undefined when the scenario runs itself (or the run has no such stream).
 */
export function minuteStreamFor(
  profile: Profile,
  run: { kinds: readonly string[]; scenarios?: readonly string[]; service?: 'gate' | 'pools' },
  pacer: Pacer,
  clock?: TargetClock,
): MinuteWindowStream | undefined {
  const partner = minuteStreamPartner(profile, run);
  if (!partner) return undefined;
  const client = createApiClient({
    service: 'gate',
    baseUrl: profile.gate.baseUrls.sandbox,
    secretKey: partner.secretKey,
    label: partner.name,
    ...(clock ? { clock } : {}),
    ...clientLimits(profile.harness),
  });
  return new MinuteWindowStream({
    pacer,
    key: partner.secretKey,
    windowScale: profile.timing.rateWindowScale,
    toleranceRatio: profile.tolerances.rateWindowRatio,
    send: async (method, path) => {
      const ex = await client.request({ method: method as 'GET', path, retry: false, pace: false });
      return { status: ex.status, json: ex.json, headers: ex.headers };
    },
  });
}
