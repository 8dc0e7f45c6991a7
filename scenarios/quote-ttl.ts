// Pools firm-quote TTL under load: many VUs on a constant-arrival-rate
// executor request firm quotes and transact each after a random delay spread
// across TTL ± 5 s. expiresAt must sit the spec's 15 s after the request
// (within the profile's tolerance); a transact sent clearly before expiry
// succeeds, one sent clearly after gets 409; nothing answers 5xx. Every
// absolute instant is the target's: judged on its clock, which each VU learns
// from the Date headers (starting from rampart's own estimate), and, while that
// does not show it, from the stored quote's createdAt (the target's own stamp of
// a quote made while its request was in flight).
import { sleep } from 'k6';
import exec from 'k6/execution';
import { Rate } from 'k6/metrics';
import { checkReq } from './lib/checks.ts';
import { loadConfig, requirementThresholds, summaryFiles, wants } from './lib/config.ts';
import { emit } from './lib/emit.ts';
import { guarded } from './lib/guard.ts';
import { call, json, type Res } from './lib/http.ts';
import { SCENARIOS } from './lib/requirements.ts';
import { segmentRange } from './lib/segment.ts';
import { keyShare } from './lib/keyShare.ts';
import { TargetClock } from '../src/client/targetClock.ts';

const cfg = loadConfig();
const pools = cfg.pools!;
const R = SCENARIOS['quote-ttl'].cases;
const serverErrors = new Rate('rampart_server_errors');

// A transact closer than this to expiresAt (either side) is reported, not judged:
// client and target clocks and the request's own latency blur the instant.
const EDGE_MS = 1_000;
const GOLDEN_RATIO = 0.6180339887498949;

const rate = cfg.gates.quoteTtlRate ?? 2;
const duration = cfg.gates.quoteTtlDurationSeconds ?? 20;
const vus = cfg.gates.quoteTtlVus ?? 60;

export const options = {
  scenarios: wants(cfg, 'ttl')
    ? {
        ttl: {
          executor: 'constant-arrival-rate',
          rate,
          timeUnit: '1s',
          duration: `${duration}s`,
          preAllocatedVUs: Math.min(vus, Math.ceil(rate * 22)),
          maxVUs: vus,
          gracefulStop: '30s',
        },
      }
    : {},
  thresholds: { ...requirementThresholds(cfg), rampart_server_errors: ['rate==0'] },
};

const base = pools.baseUrl.replace(/\/$/, '');

// This instance's share of the keys when split into execution segments (shared when there are fewer keys than instances).
let mine: string[] | undefined;
const keys = () => {
  if (!mine) {
    const [from, to] = segmentRange();
    const share = keyShare(pools.keys, from, to);
    mine = share.length ? share : pools.keys;
  }
  return mine;
};

// This VU's view of the target's clock (a VU is its own runtime): rampart's estimate, narrowed by every answer.
let clock: TargetClock | undefined;
const targetClock = () => {
  if (!clock) {
    clock = new TargetClock();
    if (pools.clock) clock.assume(pools.clock);
  }
  return clock;
};
const header = (r: Res, name: string) => {
  const k = Object.keys(r.headers).find((h) => h.toLowerCase() === name);
  return k ? r.headers[k] : undefined;
};
/**
 * The target's clock, when the TTL may be judged on it: its offset bounds; a reason when it is known more loosely
 * than the rule affords, or not at all (no Date header, no stamp, and rampart handed over no estimate: unverified,
 * as neither is required); undefined after failing the TTL rule when the clock jumped — the target's fault.
 */
function judgeable(): { lo: number; hi: number } | string | undefined {
  const r = targetClock().reading();
  if (r.kind === 'known')
    return r.estimate.uncertaintyMs <= pools.clockBoundMs
      ? r
      : `the target's clock is known to ± ${r.estimate.uncertaintyMs} ms, wider than the ± ${pools.clockBoundMs} ms the TTL can be judged with`;
  if (r.kind === 'unsettled' || r.kind === 'none') return r.why;
  checkReq(
    R.ttl[0],
    r.why,
    "the target's clock can be read to judge the quote TTL",
    () => false,
    (why) => ({ clock: why }),
  );
  return undefined;
}

/** Send a request, learning the target's clock from its answer; returns it with the local span it was in flight. */
function timed(f: () => Res): { r: Res; at: number; dur: number } {
  const at = Date.now();
  const r = f();
  const dur = Math.max(0, Date.now() - at);
  targetClock().observe(at, at + dur, header(r, 'date'));
  return { r, at, dur };
}

export default guarded('ttl', (): void => {
  const own = keys();
  const key = own[(__VU + __ITER) % own.length]!;
  const {
    r: q,
    at: sentAt,
    dur: quoteDur,
  } = timed(() =>
    call('POST', `${base}/pools/${encodeURIComponent(pools.pool)}/quote`, key, {
      body: { ...pools.quote, type: 'firm' },
      tags: { name: 'POST /pools/{id}/quote', group: 'pools' },
    }),
  );
  serverErrors.add(q.status >= 500);
  const body = json(q);
  // The creation status is not fixed by the spec: any 2xx carrying a firm quote.
  if (q.status < 200 || q.status > 299 || !body || body.available !== true || typeof body.quoteId !== 'string') {
    checkReq(
      R.ttl[0],
      q,
      'a firm quote is available for the profile quote body',
      () => false,
      (r) => ({ status: r.status }),
    );
    return;
  }
  const expiresAt = Date.parse(body.expiresAt);
  // While the Date headers do not show the target's clock, the stored quote's createdAt does: stamped while the quote
  // was made, inside the request's span (the stored read does not consume or extend the quote).
  if (targetClock().reading().kind !== 'known') {
    const stored = call('GET', `${base}/pools/quotes/${encodeURIComponent(body.quoteId)}`, key, { tags: { name: 'GET /pools/quotes/{id}', group: 'pools' } });
    if (stored.status >= 200 && stored.status < 300) targetClock().stamp(sentAt, sentAt + quoteDur, json(stored)?.createdAt);
  }
  // The quote was made while its request was in flight: on the target's clock, within this span.
  const made = judgeable();
  if (typeof made === 'string') {
    for (const req of new Set([...R.ttl])) emit({ kind: 'unverified', req, reason: made });
    return;
  }
  if (!made) return;
  const span = { low: sentAt + made.lo, high: sentAt + quoteDur + made.hi };
  const ttl = { low: (expiresAt - span.high) / 1000, high: (expiresAt - span.low) / 1000 };
  const ttlSeconds = (ttl.low + ttl.high) / 2;
  emit({ kind: 'quoteTtl', seconds: Math.round(ttlSeconds * 1000) / 1000 });
  // Some lifetime the measure allows is within the tolerance of the spec's.
  const ttlHolds = (x: { low: number; high: number }) =>
    x.high >= pools.ttlSeconds - pools.ttlToleranceSeconds && x.low <= pools.ttlSeconds + pools.ttlToleranceSeconds;
  const ttlSeen = (x: { low: number; high: number }) => ({ ttlSeconds: [x.low, x.high], expected: pools.ttlSeconds, tolerance: pools.ttlToleranceSeconds });
  checkReq(R.ttl[0], ttl, "expiresAt − request time, on the target's clock, is within the tolerance of the spec's quote TTL", ttlHolds, ttlSeen);
  // The same measure is the "still expire at their TTL" half of the under-load rule: these quotes are issued under load.
  checkReq(R.ttl[3], ttl, "under load: expiresAt stays at the spec's quote TTL", ttlHolds, ttlSeen);

  // Spread over TTL ± 5 s by a Weyl sequence on the iteration's index, not at random: every 2 s band of the
  // window is hit within a dozen iterations, so even a short run transacts on both sides of expiry.
  sleep(Math.max(1, pools.ttlSeconds - 5) + ((exec.scenario.iterationInTest * GOLDEN_RATIO) % 1) * 10);
  const {
    r: t,
    at,
    dur,
  } = timed(() =>
    call('POST', `${base}/pools/${encodeURIComponent(pools.pool)}/transact`, key, {
      body: { quoteId: body.quoteId },
      idempotencyKey: true,
      tags: { name: 'POST /pools/{id}/transact', group: 'pools' },
    }),
  );
  serverErrors.add(t.status >= 500);
  const tb = json(t);
  // When the target handled it, on its clock: before its answer came back, after the request left.
  const now = judgeable();
  if (!now || typeof now === 'string') return;
  const handled = { low: at + now.lo, high: at + dur + now.hi };
  const before = handled.high <= expiresAt - EDGE_MS;
  const after = handled.low >= expiresAt + EDGE_MS;
  if (before) {
    checkReq(
      R.ttl[1],
      t,
      'a transact before expiry succeeds with a reserved trade',
      (r) => r.status >= 200 && r.status < 300 && typeof tb?.transactId === 'string',
      (r) => ({ status: r.status, msFromExpiryOnTargetClock: [handled.low - expiresAt, handled.high - expiresAt] }),
    );
  } else if (after) {
    checkReq(
      R.ttl[2],
      t,
      'a transact after expiry gets 409',
      (r) => r.status === 409,
      (r) => ({ status: r.status, msFromExpiryOnTargetClock: [handled.low - expiresAt, handled.high - expiresAt] }),
    );
  } else {
    emit({ kind: 'quoteTtlEdge', msFromExpiry: Math.round((handled.low + handled.high) / 2 - expiresAt), status: t.status });
  }
  checkReq(
    R.ttl[3],
    t,
    'under load: no 5xx, and expiry is honoured on both sides of expiresAt',
    (r) => r.status < 500 && (before ? r.status >= 200 && r.status < 300 : after ? r.status === 409 : true),
    (r) => ({ status: r.status, msFromExpiryOnTargetClock: [handled.low - expiresAt, handled.high - expiresAt] }),
  );
});

export function handleSummary(data: unknown) {
  return summaryFiles(data);
}
