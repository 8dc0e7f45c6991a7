// Mixed, realistic partner traffic within the documented limits, spread over
// every traffic key of the profile: the body of the smoke and soak scenarios.
// Latency is tagged per Gate route group of the Limits table (and "pools") so
// the gates file can hold a p95/p99 per group.
import { check } from 'k6';
import exec from 'k6/execution';
import { Rate } from 'k6/metrics';
import type { LoadConfig } from './config.ts';
import { call, json, type Res } from './http.ts';

export const unexpected = new Rate('rampart_unexpected');

/** Requests per second over all keys: each key stays far below 10 per 10 s and 60 per minute. */
export function trafficRate(cfg: LoadConfig): number {
  const keys = cfg.gate?.trafficKeys.length ?? 0;
  return Math.max(1, Math.min(8, Math.floor(keys / 4)));
}

export function gateThresholds(cfg: LoadConfig): Record<string, string[]> {
  const t: Record<string, string[]> = { rampart_unexpected: [`rate<${cfg.gates.errorRate}`] };
  const groups = new Set([...Object.keys(cfg.gates.p95Ms), ...Object.keys(cfg.gates.p99Ms)]);
  for (const g of groups) {
    const rules: string[] = [];
    if (cfg.gates.p95Ms[g] !== undefined) rules.push(`p(95)<${cfg.gates.p95Ms[g]}`);
    if (cfg.gates.p99Ms[g] !== undefined) rules.push(`p(99)<${cfg.gates.p99Ms[g]}`);
    t[`http_req_duration{group:${g}}`] = rules;
  }
  return t;
}

// A session created by this VU, for the follow-up reads.
let lastSession: string | undefined;

function record(r: Res): void {
  // Unexpected for a within-limits client: a transport error, a 429, a 5xx.
  const bad = r.status === 0 || r.status === 429 || r.status >= 500;
  unexpected.add(bad);
  check(r, { 'no transport error, 429 or 5xx': () => !bad });
}

export function mixedTraffic(cfg: LoadConfig): void {
  const gate = cfg.gate!;
  const gbase = gate.baseUrl.replace(/\/$/, '');
  const i = exec.scenario.iterationInTest;
  const key = gate.trafficKeys[i % gate.trafficKeys.length]!;
  const roll = (i * 7919) % 100; // deterministic spread of operations
  if (roll < 8) {
    const r = call('POST', `${gbase}/gate_sessions`, key, { body: gate.sessionBody, idempotencyKey: true, tags: { name: 'POST /gate_sessions', group: 'write10' } });
    record(r);
    const b = json(r);
    if (typeof b?.id === 'string') lastSession = b.id;
  } else if (roll < 20 && lastSession) {
    record(call('GET', `${gbase}/gate_sessions/${encodeURIComponent(lastSession)}`, key, { tags: { name: 'GET /gate_sessions/{id}', group: 'read60' } }));
  } else if (roll < 35) {
    record(call('GET', `${gbase}/capabilities/assets`, key, { tags: { name: 'GET /capabilities/assets', group: 'read60' } }));
  } else if (roll < 45) {
    record(call('GET', `${gbase}/gate_sessions`, key, { tags: { name: 'GET /gate_sessions', group: 'read60' } }));
  } else if (roll < 55) {
    record(call('GET', `${gbase}/branding`, key, { tags: { name: 'GET /branding', group: 'read60' } }));
  } else if (roll < 62) {
    record(call('PATCH', `${gbase}/branding`, key, { body: {}, tags: { name: 'PATCH /branding', group: 'write30' } }));
  } else if (roll < 68) {
    record(call('GET', `${gbase}/dashboard/webhook-settings`, key, { tags: { name: 'GET /dashboard/webhook-settings', group: 'default' } }));
  } else if (cfg.pools) {
    const pbase = cfg.pools.baseUrl.replace(/\/$/, '');
    const pkey = cfg.pools.keys[i % cfg.pools.keys.length]!;
    if (roll < 80) record(call('GET', `${pbase}/pools`, pkey, { tags: { name: 'GET /pools', group: 'pools' } }));
    else if (roll < 92)
      record(
        call('POST', `${pbase}/pools/${encodeURIComponent(cfg.pools.pool)}/quote`, pkey, {
          body: { ...cfg.pools.quote, type: 'indicative' },
          tags: { name: 'POST /pools/{id}/quote', group: 'pools' },
        }),
      );
    else record(call('GET', `${pbase}/pools/trades`, pkey, { tags: { name: 'GET /pools/trades', group: 'pools' } }));
  } else {
    record(call('GET', `${gbase}/capabilities/assets`, key, { tags: { name: 'GET /capabilities/assets', group: 'read60' } }));
  }
}
