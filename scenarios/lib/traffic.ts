// Mixed, realistic partner traffic within the documented limits, spread over
// every traffic key of the profile: the body of the smoke and soak scenarios.
// Latency is tagged per Gate route group of the Limits table (and "pools") so
// the gates file can hold a p95/p99 per group. Split into execution segments,
// each instance sends with its own share of the keys (segment.ts).
import { check } from 'k6';
import exec from 'k6/execution';
import { Rate } from 'k6/metrics';
import type { LoadConfig } from './config.ts';
import { emit } from './emit.ts';
import { call, json, type Res } from './http.ts';
import { segmentKeys, segmentRange } from './segment.ts';
import { keyShare } from './keyShare.ts';

export const unexpected = new Rate('rampart_unexpected');

export { trafficPerMinute } from './trafficRate.ts';

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

// The last session this VU created with each key, for follow-up reads with the same key (another partner's reads 404).
const lastSession = new Map<string, string>();
// This instance's keys (its execution segment's share), found on first use: k6 gives options only in VU context.
let mine: { gate: string[]; gateOffset: number; pools: string[]; poolsOffset: number } | undefined;

function keysOf(cfg: LoadConfig) {
  if (!mine) {
    const [from, to] = segmentRange();
    const pools = cfg.pools?.keys ?? [];
    // Pools documents no per-key rate window: with fewer pools keys than instances they are shared.
    const poolShare = keyShare(pools, from, to);
    mine = {
      gate: segmentKeys(cfg.gate!.trafficKeys),
      gateOffset: Math.round(from * cfg.gate!.trafficKeys.length),
      pools: poolShare.length ? poolShare : pools,
      poolsOffset: poolShare.length ? Math.round(from * pools.length) : 0,
    };
  }
  return mine;
}

function record(r: Res, key: string): void {
  // Every request of the mix is well-formed, authorised and within the limits: anything but a 2xx is unexpected —
  // a transport error, a 429, a 5xx, and any other 4xx (a target refusing every key with 401 is no healthy target).
  const bad = r.status < 200 || r.status >= 300;
  unexpected.add(bad);
  check(r, { 'a 2xx answer (no transport error, 4xx or 5xx)': () => !bad });
  // Which key met it (gate:N / pools:N, its index in the config, never the key): per-key 429 counts.
  if (bad) emit({ kind: 'unexpected', key, status: r.status });
}

export function mixedTraffic(cfg: LoadConfig): void {
  const gate = cfg.gate!;
  const gbase = gate.baseUrl.replace(/\/$/, '');
  const i = exec.scenario.iterationInTest;
  const own = keysOf(cfg);
  // Round-robin over this instance's keys, so each key's requests are evenly spaced.
  const k = exec.scenario.iterationInInstance % own.gate.length;
  const key = own.gate[k]!;
  const keyIndex = own.gateOffset + k;
  const rec = (r: Res) => record(r, `gate:${keyIndex}`);
  // The operation follows the iteration number (the same unsplit or split) and the run's seed.
  const roll = ((i + cfg.seed) * 7919) % 100;
  if (roll < 8) {
    const r = call('POST', `${gbase}/gate_sessions`, key, {
      body: gate.sessionBody,
      idempotencyKey: true,
      tags: { name: 'POST /gate_sessions', group: 'write10' },
    });
    rec(r);
    const b = json(r);
    if (typeof b?.id === 'string') lastSession.set(key, b.id);
  } else if (roll < 20 && lastSession.has(key)) {
    const id = lastSession.get(key)!;
    rec(call('GET', `${gbase}/gate_sessions/${encodeURIComponent(id)}`, key, { tags: { name: 'GET /gate_sessions/{id}', group: 'read60' } }));
  } else if (roll < 35) {
    rec(call('GET', `${gbase}/capabilities/assets`, key, { tags: { name: 'GET /capabilities/assets', group: 'read60' } }));
  } else if (roll < 45) {
    rec(call('GET', `${gbase}/gate_sessions`, key, { tags: { name: 'GET /gate_sessions', group: 'read60' } }));
  } else if (roll < 55) {
    rec(call('GET', `${gbase}/branding`, key, { tags: { name: 'GET /branding', group: 'read60' } }));
  } else if (roll < 62) {
    rec(call('PATCH', `${gbase}/branding`, key, { body: {}, tags: { name: 'PATCH /branding', group: 'write30' } }));
  } else if (roll < 68) {
    rec(call('GET', `${gbase}/dashboard/webhook-settings`, key, { tags: { name: 'GET /dashboard/webhook-settings', group: 'default' } }));
  } else if (cfg.pools) {
    const pbase = cfg.pools.baseUrl.replace(/\/$/, '');
    const pk = exec.scenario.iterationInInstance % own.pools.length;
    const pkey = own.pools[pk]!;
    const prec = (r: Res) => record(r, `pools:${own.poolsOffset + pk}`);
    if (roll < 80) prec(call('GET', `${pbase}/pools`, pkey, { tags: { name: 'GET /pools', group: 'pools' } }));
    else if (roll < 92)
      prec(
        call('POST', `${pbase}/pools/${encodeURIComponent(cfg.pools.pool)}/quote`, pkey, {
          body: { ...cfg.pools.quote, type: 'indicative' },
          tags: { name: 'POST /pools/{id}/quote', group: 'pools' },
        }),
      );
    else prec(call('GET', `${pbase}/pools/trades`, pkey, { tags: { name: 'GET /pools/trades', group: 'pools' } }));
  } else {
    rec(call('GET', `${gbase}/capabilities/assets`, key, { tags: { name: 'GET /capabilities/assets', group: 'read60' } }));
  }
}
