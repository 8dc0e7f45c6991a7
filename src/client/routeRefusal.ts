// A Gate route that refuses paced requests with 429 though rampart kept the key inside every documented window.
// One 429 proves nothing: the key may carry traffic from outside the run (another client of it, an earlier run).
// So each refusal of a paced request is followed by a witness, one side-effect-free request of the same key on a
// route of another group: accepted, it shows the key's client-wide windows (60/min, 300/h) had room. The route
// refusing again once a whole minute window has passed (longer than any route window), its witness accepted again,
// leaves one explanation outside the target: traffic from elsewhere refilling that one route's window at its limit,
// each time rampart asked. The target breaks the Limits rule instead: the request fails with the evidence. A key
// whose witness is refused too is rate limited as a whole (the hour window, outside traffic): the target's
// announced wait stands, and a run whose every key waits beyond its budget stops rate-limited, as before.
import { GATE_RATE_WINDOWS, gateRouteGroup, type RouteGroup } from '../model/limits.js';
import type { Pacer } from './pacer.js';
import type { Exchange } from './types.js';

/** Witness requests, in order of preference: reads any secret key may send, each of another route group. */
const WITNESSES: { method: 'GET'; path: string }[] = [
  { method: 'GET', path: '/capabilities/assets' },
  { method: 'GET', path: '/dashboard/webhook-settings' },
  { method: 'GET', path: '/branding' },
];

/** One refusal of the route, and what the witness sent just after it got (none: no room to send one). */
export interface Refusal {
  at: number;
  exchange: Exchange;
  witness?: Exchange;
}

/** The route refused every paced request over a whole minute window while the key's other routes were accepted. */
export class RouteRefusesEveryRequest extends Error {
  constructor(
    readonly method: string,
    /** The path below the base, without its query. */
    readonly path: string,
    readonly group: RouteGroup,
    readonly refusals: Refusal[],
    readonly quietMs: number,
  ) {
    const w = refusals.filter((r) => r.witness && accepted(r.witness));
    super(
      `${method} ${path} refused every paced request with 429 (${refusals.length} over ${Math.round((refusals.at(-1)!.at - refusals[0]!.at) / 1000)} s, more than a minute window apart) though rampart kept the key inside every documented window, and the key's other routes were accepted meanwhile (${w.map((r) => `${r.witness!.request.method} ${pathOf(r.witness!)} → ${r.witness!.status}`).join(', ')})`,
    );
    this.name = 'RouteRefusesEveryRequest';
  }
}

const accepted = (ex: Exchange) => ex.status >= 200 && ex.status < 300;
const pathOf = (ex: Exchange) => {
  try {
    return new URL(ex.request.url).pathname;
  } catch {
    return ex.request.url;
  }
};

/** How long the key must stay quiet between the two refusals that prove it: a minute window (every window but the hour's) and its margin. */
export function quietMsFor(windowScale: number): number {
  const w = GATE_RATE_WINDOWS.minute.windowMs * windowScale;
  return w + Math.min(1_000, Math.max(20, w * 0.05));
}

/**
 * The witness to send after a refusal of `method path` on `key`: a route of another group whose own window, the
 * minute's and the hour's have room in the pacer (a witness must itself be inside every window); undefined when
 * none has (the key is busy enough that its refusal says nothing).
 */
export function witnessFor(pacer: Pacer, key: string, method: string, path: string): { method: 'GET'; path: string } | undefined {
  const group = gateRouteGroup(method, path);
  const minute = GATE_RATE_WINDOWS.minute;
  if (pacer.hourRoom(key) < 1) return undefined;
  // Every request of the last minute window (and its margin) counts: under any reading it may still be in the window.
  if (pacer.sentWithin(key, quietMsFor(pacer.windowScale)) >= minute.limit - 1) return undefined;
  return WITNESSES.find((w) => gateRouteGroup(w.method, w.path) !== group && pacer.firstWindowRoom(key, w.method, w.path) >= 1);
}

/** Whether the refusals so far prove the route refuses every request: two, a quiet minute window apart, each with its witness accepted. */
export function proven(refusals: readonly Refusal[], quietMs: number): boolean {
  const witnessed = refusals.filter((r) => r.witness && accepted(r.witness));
  return witnessed.length >= 2 && witnessed.at(-1)!.at - witnessed[0]!.at >= quietMs;
}

/** A refusal's witness was accepted: the key's client-wide windows had room (its announced wait need not hold the key). */
export const witnessAccepted = (r: Refusal | undefined): boolean => !!r?.witness && accepted(r.witness);
