// Webhook outbox shared by both embedded services: signs, POSTs and retries
// events on the documented schedule (1m, 5m, 30m, 2h, scaled by timeScale),
// dead-letters after the last attempt and replays on request.
import { createHmac, randomUUID } from 'node:crypto';
import { request as undiciRequest } from 'undici';
import { GATE_LIMITS } from '../../model/limits.js';
import { signedTimestampLagMs, type Clock } from './clock.js';
import type { ActiveFaults, FaultDef } from './faults.js';

export interface Delivery {
  id: string;
  partner: string;
  service: 'gate' | 'pools';
  mode: 'test' | 'live';
  eventId: string;
  eventType: string;
  targetUrl: string;
  status: 'pending' | 'in_flight' | 'succeeded' | 'dead_lettered';
  attempts: number;
  lastResponseStatus: number | null;
  lastError: string | null;
  nextAttemptAt: number | null;
  deliveredAt: number | null;
  createdAt: number;
  updatedAt: number;
  /** raw JSON body; never returned by the API */
  body: string;
}

export interface EnqueueInput {
  partner: string;
  service: 'gate' | 'pools';
  mode: 'test' | 'live';
  url: string;
  secret: string;
  eventId: string;
  eventType: string;
  body: string;
  /**
   * A service whose spec leaves its retry policy and signature recipe open (pools) may give its own: attempts before
   * the dead letter, the gaps before attempts 2, 3, … (ms at scale 1), and 'body-only' (v1= over the body alone).
   */
  policy?: DeliveryPolicy;
}

export interface DeliveryPolicy {
  attempts: number;
  scheduleMs: readonly number[];
  recipe?: 'gate' | 'body-only';
}

const WH = GATE_LIMITS.webhook;
/** The one gap of outbox-retry-schedule-flat. */
const FLAT_RETRY_MS = 45 * 60_000;

export const OUTBOX_FAULTS: FaultDef[] = [
  {
    name: 'outbox-retry-schedule-flat',
    service: 'gate',
    // 45 min is off every gap by more than any tolerance a profile may declare (ratio ≤ 0.5; the embedded profiles' absolute
    // tolerance at their scales), so the whole schedule is broken, not three gaps of four.
    requirements: ['GATE-DLV-SCHEDULE'],
    description: 'Retries every 45 minutes instead of 1m, 5m, 30m, 2h: every gap is wrong.',
    suite: 'chaos',
  },
  {
    name: 'outbox-retry-schedule-hurried',
    service: 'gate',
    // The fast variant of a real-time fault: on a target declaring real time (retryScale 1) every gap is a thousandth of
    // the spec's, so the --depth full check fails within seconds instead of after the 2 h 36 min schedule.
    requirements: ['GATE-DLV-SCHEDULE-REALTIME'],
    description: 'Retries after a thousandth of each gap (60 ms, 300 ms, 1.8 s, 7.2 s at real time) instead of 1m, 5m, 30m, 2h.',
    suite: 'chaos',
  },
  {
    name: 'outbox-retry-second-gap-1m',
    service: 'gate',
    // It breaks the real-time rule too, but a real-time run of the schedule is hours: the hurried fault proves that check.
    requirements: ['GATE-DLV-SCHEDULE'],
    description:
      'The second retry comes 1 minute after the first instead of 5 (1m, 1m, 30m, 2h): neighbouring gaps a tolerance that ignores the time scale cannot tell apart.',
    suite: 'chaos',
  },
  {
    name: 'outbox-dead-letter-after-4',
    service: 'gate',
    requirements: ['GATE-DLV-DEAD-LETTER-5'],
    description: 'Dead-letters after 4 failed attempts instead of 5.',
    suite: 'chaos',
  },
  {
    name: 'outbox-dead-letter-after-6',
    service: 'gate',
    requirements: ['GATE-DLV-DEAD-LETTER-5'],
    description: 'Makes a 6th attempt before dead-lettering.',
    suite: 'chaos',
  },
  {
    name: 'outbox-attempt-timeout-ignored',
    service: 'gate',
    requirements: ['GATE-DLV-TIMEOUT-10S'],
    description: 'Waits for a slow receiver past the 10 s attempt timeout and counts its late 2xx as delivered.',
    suite: 'chaos',
  },
  {
    name: 'outbox-attempt-timeout-short',
    service: 'gate',
    requirements: ['GATE-DLV-TIMEOUT-10S'],
    description: 'Gives up on an attempt after half the 10 s timeout, so a receiver answering in 8 s is failed and retried.',
    suite: 'chaos',
  },
  {
    name: 'outbox-only-200-acknowledges',
    service: 'gate',
    requirements: ['GATE-DLV-2XX-ACKS'],
    description: 'Treats 201/202/204 as failures and retries them.',
    suite: 'chaos',
  },
  {
    name: 'outbox-408-429-not-retried',
    service: 'gate',
    requirements: ['GATE-DLV-408-429-RETRIED'],
    description: 'A 408 or 429 from the receiver dead-letters at once instead of being retried.',
    suite: 'chaos',
  },
  {
    name: 'outbox-network-error-dead-letters',
    service: 'gate',
    requirements: ['GATE-DLV-NETWORK-RETRIED'],
    description: 'A connection error or timeout dead-letters the delivery at once instead of retrying.',
    suite: 'chaos',
  },
  {
    name: 'outbox-5xx-not-retried',
    service: 'gate',
    requirements: ['GATE-DLV-NON-2XX-RETRIED', 'GATE-DLV-AT-LEAST-ONCE'],
    description: 'A 5xx answer dead-letters the delivery at once instead of scheduling a retry.',
    suite: 'chaos',
  },
  {
    name: 'outbox-event-id-changes-on-retry',
    service: 'gate',
    requirements: ['GATE-DLV-EVENT-ID-STABLE'],
    description: 'Every retry of a Gate delivery carries a new event id (header and body).',
    suite: 'chaos',
  },
  {
    name: 'outbox-pools-event-id-changes-on-retry',
    service: 'pools',
    requirements: ['POOLS-EVT-AT-LEAST-ONCE'],
    description: 'Every redelivery of a pools webhook carries a new eventId (header and body), so a partner cannot dedupe it.',
    suite: 'chaos',
  },
  {
    name: 'outbox-replay-new-event-id',
    service: 'gate',
    requirements: ['GATE-WHOPS-REPLAY-DEAD-LETTERED', 'GATE-DLV-EVENT-ID-STABLE'],
    description: 'Replaying a dead-lettered delivery sends the event under a new event id.',
    suite: 'chaos',
  },
  {
    name: 'outbox-signature-over-reserialised-body',
    service: 'gate',
    requirements: ['GATE-SIG-HMAC', 'GATE-DLV-SIGNED-EVERY-ATTEMPT'],
    description: 'Signs a re-serialised (pretty-printed) body instead of the exact bytes sent.',
    suite: 'chaos',
  },
  {
    name: 'outbox-pools-dead-letter-late',
    service: 'pools',
    requirements: ['POOLS-EVT-DEAD-LETTER'],
    description: 'A pools webhook the partner never acknowledges is attempted a sixth time before it is dead-lettered (the sandbox declares five).',
    suite: 'chaos',
  },
  {
    name: 'outbox-pools-retry-back-to-back',
    service: 'pools',
    requirements: ['POOLS-EVT-AT-LEAST-ONCE'],
    description: 'A pools webhook the partner fails is delivered again at once, back to back, with no backoff between attempts.',
    suite: 'chaos',
  },
  {
    name: 'outbox-last-response-status-first',
    service: 'gate',
    requirements: ['GATE-DLV-LAST-RESPONSE-STATUS'],
    description: "last_response_status keeps the first attempt's answer: after a 500 then a 200 the delivered delivery still reads 500.",
    suite: 'chaos',
  },
  {
    name: 'outbox-last-response-status-only-2xx',
    service: 'gate',
    requirements: ['GATE-DLV-LAST-RESPONSE-STATUS'],
    description: 'last_response_status records only a 2xx answer: a delivery dead-lettered after five 500s reads null.',
    suite: 'chaos',
  },
  {
    name: 'outbox-pools-no-redelivery',
    service: 'pools',
    requirements: ['POOLS-EVT-AT-LEAST-ONCE'],
    description: 'A pools webhook the partner fails is dead-lettered at once, never delivered again.',
    suite: 'chaos',
  },
  {
    name: 'outbox-signature-header-bare',
    service: 'gate',
    requirements: ['GATE-EVT-HEADER-SIGNATURE'],
    description: 'Gate-Signature carries the bare hex digest, without t=…,v1=.',
    suite: 'conformance',
  },
  {
    name: 'outbox-event-id-header-missing',
    service: 'gate',
    requirements: ['GATE-EVT-HEADER-EVENT-ID'],
    description: 'Deliveries carry no X-Gate-Event-Id header.',
    suite: 'conformance',
  },
  {
    name: 'outbox-event-type-header-wrong',
    service: 'gate',
    requirements: ['GATE-EVT-HEADER-EVENT-TYPE'],
    description: 'X-Gate-Event-Type names the event family (gate_session) instead of the event type.',
    suite: 'conformance',
  },
  {
    name: 'outbox-signature-timestamp-stale',
    service: 'gate',
    requirements: ['GATE-SIG-TIMESTAMP-FRESH'],
    description: 'Deliveries are signed with a timestamp 10 minutes old (a careful receiver rejects them as beyond the 300 s skew).',
    suite: 'conformance',
  },
  {
    name: 'outbox-timestamp-header-mismatch',
    service: 'gate',
    requirements: ['GATE-EVT-HEADER-TIMESTAMP'],
    description: 'X-Gate-Timestamp differs from the t of Gate-Signature.',
    suite: 'conformance',
  },
];

interface Entry {
  d: Delivery;
  secret: string;
  policy?: DeliveryPolicy;
  timer: NodeJS.Timeout | null;
  abort: AbortController | null;
}

/** Status codes that count as a failed attempt even though the receiver answered. */
function isAcknowledged(status: number, only200: boolean): boolean {
  return only200 ? status === 200 : status >= 200 && status < 300;
}

export class WebhookOutbox {
  private readonly clock: Clock;
  private readonly timeScale: number;
  private readonly attemptTimeoutMs: number;
  private readonly faults: ActiveFaults;
  private readonly log: (line: string) => void;
  private readonly entries = new Map<string, Entry>();
  /** Per (partner, service, mode): delivery ids, oldest first. */
  private readonly byOwner = new Map<string, string[]>();
  private closed = false;
  private seq = 0;
  private readonly uuidIds: boolean;
  /** URL prefixes the sender can reach (a remote sandbox reaches only the harness's public URL); undefined = any. */
  private readonly reach?: readonly string[];

  constructor(opts: {
    clock: Clock;
    timeScale: number;
    attemptTimeoutMs: number;
    faults: ActiveFaults;
    log?: (line: string) => void;
    idStyle?: 'prefixed' | 'uuid';
    reach?: readonly string[];
  }) {
    this.uuidIds = opts.idStyle === 'uuid';
    this.reach = opts.reach;
    this.clock = opts.clock;
    this.timeScale = opts.timeScale;
    this.attemptTimeoutMs = opts.attemptTimeoutMs;
    this.faults = opts.faults;
    this.log = opts.log ?? (() => {});
  }

  enqueue(e: EnqueueInput): Delivery {
    const now = this.clock.now();
    const d: Delivery = {
      id: this.uuidIds ? randomUUID() : `whd_${now.toString(36)}${(this.seq++).toString(36).padStart(4, '0')}${randomUUID().replace(/-/g, '').slice(0, 10)}`,
      partner: e.partner,
      service: e.service,
      mode: e.mode,
      eventId: e.eventId,
      eventType: e.eventType,
      targetUrl: e.url,
      status: 'pending',
      attempts: 0,
      lastResponseStatus: null,
      lastError: null,
      nextAttemptAt: now,
      deliveredAt: null,
      createdAt: now,
      updatedAt: now,
      body: e.body,
    };
    const entry: Entry = { d, secret: e.secret, policy: e.policy, timer: null, abort: null };
    this.entries.set(d.id, entry);
    const key = ownerKey(e.partner, e.service, e.mode);
    let ids = this.byOwner.get(key);
    if (!ids) this.byOwner.set(key, (ids = []));
    ids.push(d.id);
    this.schedule(entry, 0);
    return d;
  }

  /** Keep a delivery that ended before the target started (a lived-in sandbox's history): stored, never attempted. */
  importEnded(d: Omit<Delivery, 'id'>): Delivery {
    const rec: Delivery = {
      ...d,
      id: this.uuidIds
        ? randomUUID()
        : `whd_${d.createdAt.toString(36)}${(this.seq++).toString(36).padStart(4, '0')}${randomUUID().replace(/-/g, '').slice(0, 10)}`,
    };
    this.entries.set(rec.id, { d: rec, secret: '', timer: null, abort: null });
    const key = ownerKey(d.partner, d.service, d.mode);
    let ids = this.byOwner.get(key);
    if (!ids) this.byOwner.set(key, (ids = []));
    ids.push(rec.id);
    return rec;
  }

  list(partner: string, service: 'gate' | 'pools', mode: 'test' | 'live'): Delivery[] {
    const ids = this.byOwner.get(ownerKey(partner, service, mode)) ?? [];
    const out: Delivery[] = [];
    for (let i = ids.length - 1; i >= 0; i--) out.push(this.entries.get(ids[i]!)!.d);
    return out;
  }

  get(id: string): Delivery | undefined {
    return this.entries.get(id)?.d;
  }

  /** Requeue a dead-lettered delivery: it is attempted again at once (a fresh run of attempts). */
  replay(id: string): Delivery {
    const entry = this.entries.get(id);
    if (!entry) throw new Error(`unknown delivery ${id}`);
    const d = entry.d;
    if (d.status !== 'dead_lettered') return d;
    if (this.faults.has('outbox-replay-new-event-id')) this.rewriteEventId(d);
    const now = this.clock.now();
    d.status = 'pending';
    d.attempts = 0;
    d.nextAttemptAt = now;
    d.updatedAt = now;
    this.schedule(entry, 0);
    return d;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const e of this.entries.values()) {
      if (e.timer) clearTimeout(e.timer);
      e.timer = null;
      e.abort?.abort();
    }
  }

  private schedule(entry: Entry, delayMs: number): void {
    if (this.closed) return;
    entry.timer = setTimeout(() => {
      entry.timer = null;
      void this.attempt(entry);
    }, delayMs);
    entry.timer.unref?.();
  }

  private maxAttempts(service: 'gate' | 'pools', policy?: DeliveryPolicy): number {
    const max = policy?.attempts ?? WH.maxAttempts;
    // Fault: a pools delivery the partner never acknowledges is tried once more than its declared threshold.
    if (service === 'pools' && this.faults.has('outbox-pools-dead-letter-late')) return max + 1;
    if (this.faults.has('outbox-dead-letter-after-4')) return max - 1;
    if (this.faults.has('outbox-dead-letter-after-6')) return max + 1;
    return max;
  }

  /** Delay before attempt n+1 after n failed attempts (n ≥ 1), scaled. */
  private retryDelayMs(failedAttempts: number, policy?: DeliveryPolicy): number {
    const schedule = policy?.scheduleMs ?? WH.retryScheduleMs;
    const secondGapFlat = failedAttempts === 2 && this.faults.has('outbox-retry-second-gap-1m');
    const base = this.faults.has('outbox-retry-schedule-flat')
      ? FLAT_RETRY_MS
      : secondGapFlat
        ? schedule[0]!
        : schedule[Math.min(failedAttempts - 1, schedule.length - 1)]!;
    const hurry = this.faults.has('outbox-retry-schedule-hurried') ? 0.001 : 1;
    return Math.max(0, Math.round(base * this.timeScale * hurry));
  }

  private rewriteEventId(d: Delivery): void {
    const next = randomUUID();
    try {
      const parsed = JSON.parse(d.body) as Record<string, unknown>;
      if ('id' in parsed) parsed.id = next;
      if ('eventId' in parsed) parsed.eventId = next;
      d.body = JSON.stringify(parsed);
    } catch {
      // Body is always JSON we produced; leave it as is otherwise.
    }
    d.eventId = next;
  }

  private async attempt(entry: Entry): Promise<void> {
    if (this.closed) return;
    const d = entry.d;
    if (d.attempts > 0 && this.faults.has(d.service === 'gate' ? 'outbox-event-id-changes-on-retry' : 'outbox-pools-event-id-changes-on-retry'))
      this.rewriteEventId(d);
    d.status = 'in_flight';
    d.attempts += 1;
    d.nextAttemptAt = null;
    d.updatedAt = this.clock.now();

    const t = Math.floor((this.clock.now() - signedTimestampLagMs(this.faults)) / 1000) - (this.faults.has('outbox-signature-timestamp-stale') ? 600 : 0);
    const signedBody = this.faults.has('outbox-signature-over-reserialised-body') ? reserialise(d.body) : d.body;
    const sig = createHmac('sha256', entry.secret)
      .update(entry.policy?.recipe === 'body-only' ? signedBody : `${t}.${signedBody}`)
      .digest('hex');
    const tsHeader = this.faults.has('outbox-timestamp-header-mismatch') ? t - 7 : t;

    const ignoreTimeout = this.faults.has('outbox-attempt-timeout-ignored');
    const attemptTimeoutMs = this.faults.has('outbox-attempt-timeout-short') ? Math.round(this.attemptTimeoutMs / 2) : this.attemptTimeoutMs;
    const abort = new AbortController();
    entry.abort = abort;
    const timer = ignoreTimeout ? null : setTimeout(() => abort.abort(new Error('attempt timed out')), attemptTimeoutMs);
    let status: number | null = null;
    let error: string | null = null;
    try {
      if (this.reach && !this.reach.some((prefix) => d.targetUrl.startsWith(prefix)))
        throw new Error(`connect ECONNREFUSED: ${new URL(d.targetUrl).host} is not reachable from the target's network`);
      const res = await undiciRequest(d.targetUrl, {
        method: 'POST',
        body: d.body,
        headers: {
          'content-type': 'application/json',
          'gate-signature': this.faults.has('outbox-signature-header-bare') ? sig : `t=${t},v1=${sig}`,
          'x-gate-timestamp': String(tsHeader),
          ...(this.faults.has('outbox-event-id-header-missing') ? {} : { 'x-gate-event-id': d.eventId }),
          'x-gate-event-type': this.faults.has('outbox-event-type-header-wrong') ? d.eventType.split('.')[0]! : d.eventType,
        },
        signal: abort.signal,
        headersTimeout: ignoreTimeout ? 0 : attemptTimeoutMs,
        bodyTimeout: ignoreTimeout ? 0 : attemptTimeoutMs,
      });
      status = res.statusCode;
      await res.body.dump().catch(() => undefined);
    } catch (err) {
      error = abort.signal.aborted && !this.closed ? 'timeout' : `network error: ${(err as Error).message ?? String(err)}`;
    } finally {
      if (timer) clearTimeout(timer);
      entry.abort = null;
    }
    if (this.closed) return;

    const now = this.clock.now();
    d.updatedAt = now;
    // Faults: the first answer is kept; only a 2xx answer is recorded.
    const keepFirst = this.faults.has('outbox-last-response-status-first') && d.lastResponseStatus !== null;
    const only2xx = this.faults.has('outbox-last-response-status-only-2xx') && !(status !== null && status >= 200 && status < 300);
    if (!keepFirst && !only2xx) d.lastResponseStatus = status;
    if (status !== null && isAcknowledged(status, this.faults.has('outbox-only-200-acknowledges'))) {
      d.status = 'succeeded';
      d.deliveredAt = now;
      d.lastError = null;
      this.log(`webhook ${d.service} ${d.eventType} ${d.id} delivered (attempt ${d.attempts}, ${status})`);
      return;
    }
    d.lastError = error ?? `HTTP ${status}`;
    const terminalNow =
      (status !== null && (status === 408 || status === 429) && this.faults.has('outbox-408-429-not-retried')) ||
      (status !== null && status >= 500 && this.faults.has('outbox-5xx-not-retried')) ||
      (status === null && this.faults.has('outbox-network-error-dead-letters')) ||
      (d.service === 'pools' && this.faults.has('outbox-pools-no-redelivery'));
    if (terminalNow || d.attempts >= this.maxAttempts(d.service, entry.policy)) {
      d.status = 'dead_lettered';
      d.nextAttemptAt = null;
      this.log(`webhook ${d.service} ${d.eventType} ${d.id} dead-lettered after ${d.attempts} attempts (${d.lastError})`);
      return;
    }
    const delay = d.service === 'pools' && this.faults.has('outbox-pools-retry-back-to-back') ? 0 : this.retryDelayMs(d.attempts, entry.policy);
    d.status = 'pending';
    d.nextAttemptAt = now + delay;
    this.schedule(entry, delay);
  }
}

function ownerKey(partner: string, service: string, mode: string): string {
  return `${service}\u0000${mode}\u0000${partner}`;
}

function reserialise(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return `${body} `;
  }
}
