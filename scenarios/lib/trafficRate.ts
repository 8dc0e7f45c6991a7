// How fast the mixed traffic (smoke, soak: traffic.ts) sends, as plain code with no k6 imports: the scenarios
// pace themselves with it, and the plan counts the Gate requests a smoke run adds to each traffic key with it.
import type { GateLimits, RateWindow } from './rateCases.ts';

/** What the rate depends on (a LoadConfig carries it: config.ts). */
export interface TrafficConfig {
  gate?: {
    trafficKeys: string[];
    rateWindowScale: number;
    limits: GateLimits;
    /**
     * Requests the run's earlier kinds sent on each traffic key within the hour window the traffic starts in
     * (one key shared with conformance and chaos): the traffic keeps to half of what is left of that window.
     */
    trafficHourUsed?: number[];
  };
  pools?: unknown;
}

/** Of the mix, the share that goes to Gate when a pools partner takes the rest (traffic.ts mixedTraffic: rolls 68–99). */
export const GATE_SHARE_WITH_POOLS = 0.68;

// Share of the mix (traffic.ts mixedTraffic) per Limits group; read60 at most (without pools, pools' share reads too).
const SHARE = { write10: 0.08, write30: 0.07, default: 0.06, read60: 0.79 };

/**
 * Arrival rate over all keys, per minute: round-robin over the keys, each key stays at half of every window it
 * meets — the first window of each route group (by its share of the mix), 60/min and 300/h — over the run's
 * length, at the target's declared window scale. Only the mix's Gate share meets those windows: with a pools
 * partner taking the rest, the arrivals are that much more (each latency gate then judges on more samples).
 * At most 8 a second (the machine, not the limits).
 */
export function trafficPerMinute(cfg: TrafficConfig, durationSeconds: number): number {
  const gate = cfg.gate;
  const keys = gate?.trafficKeys.length ?? 0;
  if (!gate || !keys) return 60;
  const spanS = (w: RateWindow) => Math.min((w.windowMs * gate.rateWindowScale) / 1000, durationSeconds + 15);
  const perKey = (w: RateWindow, share = 1) => (0.5 * w.limit) / (spanS(w) * share);
  // The hour window is the one a key's earlier requests still fill: what is left of it on the busiest key.
  const used = Math.max(0, ...(gate.trafficHourUsed ?? []));
  const l = { ...gate.limits, hour: { ...gate.limits.hour, limit: Math.max(1, gate.limits.hour.limit - used) } };
  const perKeyPerSecond = Math.min(
    perKey(l.first, SHARE.default),
    perKey(l.routeFirst.write10, SHARE.write10),
    perKey(l.routeFirst.write30, SHARE.write30),
    perKey(l.routeFirst.read60, SHARE.read60),
    perKey(l.minute),
    perKey(l.hour),
  );
  const gateShare = cfg.pools ? GATE_SHARE_WITH_POOLS : 1;
  return Math.max(1, Math.min(480, Math.floor((keys * perKeyPerSecond * 60) / gateShare)));
}

/** Iterations a smoke run of `durationSeconds` starts: the steady rate over the run and the ramp's tail (smoke.ts). */
export function smokeIterations(cfg: TrafficConfig, durationSeconds: number): number {
  const steady = Math.max(1, Math.floor((trafficPerMinute(cfg, durationSeconds) * durationSeconds) / 60));
  return steady + SMOKE_TAIL + 1;
}

/** Iterations the ramp to 0 that ends a smoke run adds beyond the steady ones (and a half): smoke.ts. */
export const SMOKE_TAIL = 4;
