// The Idempotency-Key records of rails under two blind sequence faults (gate/blindFaults.ts): a pay-in's replay
// re-read through its session's latest pay-in, and a pay-out's key record that takes the fingerprint of every request
// under the key, refused ones too. A replay right after its request is answered right; one around another request is not.
import { createHash } from 'node:crypto';
import { HttpError, type Reply, type Req } from '../kit/http.js';
import type { GateCaller, GateWorld } from './world.js';

const PAYIN_LATEST = 'seq-blind-rail-payin-replay-latest-of-session';
const PAYOUT_LAST_BODY = 'seq-blind-rail-payout-key-keeps-last-body';

/** Per world: (partner, mode, session id) → the answer of that session's latest pay-in. */
const latestPayIns = new WeakMap<GateWorld, Map<string, unknown>>();
/** Per world: (partner, mode, key) → the fingerprint last seen under the key, and the pay-out it made. */
const payOutKeys = new WeakMap<GateWorld, Map<string, { fingerprint: string; reply: Reply }>>();

function mapOf<V>(store: WeakMap<GateWorld, Map<string, V>>, world: GateWorld): Map<string, V> {
  let m = store.get(world);
  if (!m) store.set(world, (m = new Map()));
  return m;
}

/** Key-sorted JSON, so reordered keys are the same request (as world.idempotent fingerprints). */
function sorted(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sorted);
  if (!v || typeof v !== 'object') return v;
  return Object.fromEntries(
    Object.keys(v)
      .sort()
      .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
  );
}

function fingerprint(req: Req): string {
  const raw = req.rawBody.toString('utf8');
  let body = raw;
  try {
    body = raw === '' ? '' : JSON.stringify(sorted(JSON.parse(raw)));
  } catch {
    // Not JSON: the raw text is the fingerprint (validation refuses it anyway).
  }
  return createHash('sha256').update(`${req.method} ${req.path}\n${body}`).digest('hex');
}

/** A pay-in's answer; a replay is swapped for its session's latest pay-in under the fault. */
async function payInThroughSession(world: GateWorld, caller: GateCaller, run: () => Promise<Reply>): Promise<Reply> {
  const reply = await run();
  const body = reply.body as { id?: unknown; gate_session_id?: unknown } | undefined;
  if (typeof body?.gate_session_id !== 'string') return reply;
  const k = `${caller.partner.name}\u0000${caller.mode}\u0000${body.gate_session_id}`;
  const latest = mapOf(latestPayIns, world);
  if (reply.headers?.['idempotent-replayed'] !== 'true') {
    latest.set(k, structuredClone(body));
    return reply;
  }
  const now = latest.get(k) as { id?: unknown } | undefined;
  return now && now.id !== body.id ? { ...reply, body: structuredClone(now) } : reply;
}

/** A pay-out under a key record whose fingerprint every request overwrites, the refused ones included. */
async function payOutLastBody(world: GateWorld, caller: GateCaller, req: Req, run: () => Promise<Reply>): Promise<Reply> {
  const k = `${caller.partner.name}\u0000${caller.mode}\u0000${String(req.headers['idempotency-key'])}`;
  const records = mapOf(payOutKeys, world);
  const fp = fingerprint(req);
  const seen = records.get(k);
  if (!seen) {
    const reply = await run();
    if (reply.status < 300 && !records.has(k)) records.set(k, { fingerprint: fp, reply });
    return reply;
  }
  if (seen.fingerprint !== fp) {
    seen.fingerprint = fp;
    throw new HttpError(409, 'Idempotency-Key reused with a different request.', 'idempotency_key_conflict');
  }
  return { ...seen.reply, headers: { ...(seen.reply.headers ?? {}), 'idempotent-replayed': 'true' } };
}

/** A rail request through its Idempotency-Key handling (`run`), as the blind faults bend it. */
export function railKeyRecords(world: GateWorld, kind: 'pay_in' | 'pay_out', caller: GateCaller, req: Req, run: () => Promise<Reply>): Promise<Reply> {
  if (kind === 'pay_in' && world.faults.has(PAYIN_LATEST)) return payInThroughSession(world, caller, run);
  if (kind === 'pay_out' && world.faults.has(PAYOUT_LAST_BODY)) return payOutLastBody(world, caller, req, run);
  return run();
}
