// A burst past a rate window on one key: more requests at once than the route's first window holds, on a key whose
// window held none of rampart's requests (the pacer knows them all), held by the race alone while it fires. Never
// more through than the window holds — any answer but 429 is a request the window let through. Where a window is a
// fixed bucket (gate.limits.windows), one burst may straddle its edge and let through twice the limit, so a burst
// of twice the limit and one (more than any reading lets through) fails at once, and one that let more than the limit
// (but not twice) through is fired once more half a window and a window later: no bucket edge can fall inside both
// bursts, so two such bursts break every reading. The oracle is not asked: the windows are the specs' own numbers.
import type { Pacer } from '../client/pacer.js';
import type { ApiClient, Exchange } from '../client/types.js';
import { gateRouteGroup, scaledWindowsFor, type RateWindow } from '../model/limits.js';
import type { RequirementId } from '../model/catalogue/index.js';
import type { NeedName } from '../model/needs.js';
import type { CheckTools } from '../runner/check.js';
import type { RoundCost } from './family.js';
import { sendingOrder, type FiredRequest } from './fire.js';

export interface WindowFamily {
  judge: 'window';
  id: string;
  file: string;
  name: string;
  service: 'gate';
  requirements: readonly RequirementId[];
  partner: { gate: NeedName; pools?: undefined };
  needs?: readonly NeedName[];
  cost: RoundCost;
  /** The route the burst goes to (its window is its route group's first), and its body. */
  route: { method: 'GET' | 'POST'; path: string; body?: unknown };
}

export interface WindowBurst {
  fired: FiredRequest[];
  through: number;
  /** [first send, last answer], rampart's clock (ms). */
  span: [number, number];
}

const now = () => performance.timeOrigin + performance.now();
/** How long the race waits (rampart's time) for rampart's own requests to leave the key's window, beyond one window. */
const QUIET_SLACK_MS = 2_000;

/** The route's first window at the profile's declared scale. */
export const firstWindowOf = (route: WindowFamily['route'], scale: number): RateWindow => scaledWindowsFor(route.method, route.path, scale)[0];

/** Wait until rampart has nothing of its own in the key's window for the route, and hold the key for the burst. */
async function quietKey(pacer: Pacer, key: string, route: WindowFamily['route'], w: RateWindow, t: CheckTools): Promise<void> {
  const until = now() + w.windowMs + QUIET_SLACK_MS;
  for (;;) {
    pacer.hold(key, now() + 1_000);
    if (pacer.firstWindowRoom(key, route.method, route.path) >= w.limit && pacer.inFlight(key) === 0) return;
    if (now() > until)
      t.unverified(
        `the key's ${gateRouteGroup(route.method, route.path)} window never emptied of rampart's own requests within ${Math.round((w.windowMs + QUIET_SLACK_MS) / 1000)} s: no burst past it was fired`,
      );
    await t.sleep(200, "the key's window emptying of rampart's requests", 'harness');
  }
}

/** Fire n requests of the route at once, unpaced (the burst is meant to pass the window), each then stamped in the pacer. */
export async function fireWindowBurst(
  client: ApiClient,
  pacer: Pacer,
  key: string,
  route: WindowFamily['route'],
  n: number,
  rnd: () => number,
  t: CheckTools,
): Promise<WindowBurst> {
  const w = firstWindowOf(route, t.profile.timing.rateWindowScale);
  await quietKey(pacer, key, route, w, t);
  const order = sendingOrder(n, rnd);
  const fired: FiredRequest[] = Array.from({ length: n }, (_, i) => ({
    label: `${route.method} ${route.path} (${i + 1} of ${n})`,
    sentAs: order.indexOf(i),
    sentAt: 0,
    effect: 'maybe',
  }));
  await Promise.all(
    order.map(async (i) => {
      const f = fired[i]!;
      f.sentAt = now();
      try {
        const ex: Exchange = await client.request({
          method: route.method,
          path: route.path,
          ...(route.body !== undefined ? { body: route.body } : {}),
          pace: false,
          retry: false,
          signal: t.signal,
        });
        f.answeredAt = now();
        f.exchange = ex;
        f.effect = ex.status === 429 ? 'refused' : 'applied';
      } catch (e) {
        f.noAnswer = (e as Error).message;
      } finally {
        // Counted in the key's windows like any request (under every reading, a refused one too).
        pacer.sendNow(key, route.method, route.path)(undefined, f.exchange?.status);
      }
    }),
  );
  const through = fired.filter((f) => f.exchange && f.exchange.status !== 429).length;
  const times = fired.flatMap((f) => [f.sentAt, f.answeredAt ?? f.sentAt]);
  return { fired, through, span: [Math.min(...times), Math.max(...times)] };
}

/** The phases (mod the window) a span covers: where a fixed bucket's edge would have to fall for the span to straddle it. */
function phases([a, b]: [number, number], w: number): [number, number][] {
  if (b - a >= w) return [[0, w]];
  const x = ((a % w) + w) % w;
  const y = x + (b - a);
  return y <= w
    ? [[x, y]]
    : [
        [x, w],
        [0, y - w],
      ];
}

/** Whether one bucket alignment can put an edge inside both spans (then a fixed-bucket target may let both through). */
export function oneEdgeExplainsBoth(s1: [number, number], s2: [number, number], w: number): boolean {
  return phases(s1, w).some(([a, b]) => phases(s2, w).some(([c, d]) => a <= d && c <= b));
}
