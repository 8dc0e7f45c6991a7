// Client-side mirror of the documented Gate rate limits, per secret key, so
// ordinary checks never provoke an unintended 429. Three concurrent sliding
// windows per request: the route group's first window (counting only that
// group's requests), then 60/min and 300/h (counting every request of the key).
// A key the target paused (429 with Retry-After on a paced request) sends
// nothing until the pause ends: every queued and new request on it waits.
import { gateRouteGroup, scaledWindowsFor, type RateWindow, type RouteGroup } from '../model/limits.js';
import { sleep as realSleep } from './backoff.js';

export interface PacerOptions {
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Safety margin in ms added to every computed wait, so a server whose clock or arrival times differ slightly never 429s. Default 150. */
  margin?: number;
  /** The target's declared rate-window scale (profile timing.rateWindowScale); 1 = the spec's windows. */
  windowScale?: number;
  /** false = no client-side windows, only the target's announced pauses (pools: its request-rate limits are not shown). Default true. */
  paceWindows?: boolean;
  /** Called whenever a key is paused (or its pause extended). */
  onPause?: PauseListener;
}

/** A key was paused by the target until `untilMs` (the pacer's clock). `key` is a secret: never print it. */
export interface PauseEvent {
  key: string;
  untilMs: number;
  /** untilMs − now when paused. */
  pausedMs: number;
}
export type PauseListener = (e: PauseEvent) => void;

/**
 * A paused key's pressure: far above any unpaused key's (fill ratio ≤ 1 plus its queue), so leases
 * move work to other keys, yet finite, so a lease still succeeds when every key is paused.
 */
export const PAUSED_PRESSURE = 1_000;

interface Waiter {
  method: string;
  path: string;
  signal?: AbortSignal;
  resolve: (settle: Settle) => void;
  reject: (e: unknown) => void;
}

/**
 * Moves a request's stamp from its send time to the time its answer came
 * (the target counted it somewhere in between): the windows then never assume
 * the target saw it earlier than it could have. Call it once the answer (or
 * the failure) is in; calling it is optional.
 */
export type Settle = (atMs?: number) => void;

interface KeyState {
  /** Send times of every request of the key (the 60/min and 300/h windows), ascending, pruned to the longest window. */
  all: number[];
  /** Send times per route group (that group's first window). */
  groups: Map<RouteGroup, number[]>;
  queue: Waiter[];
  draining: boolean;
  /** No request is sent on the key before this time (the target's Retry-After); 0 = not paused. */
  pausedUntil: number;
}

// Every wait is at least 1 ms and sleeps, so this only guards against a broken clock.
const MAX_WAIT_LOOPS = 100_000;

export class Pacer {
  /** The pacer's clock (ms); pauses are in this clock. */
  readonly now: () => number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly margin: number;
  private readonly keys = new Map<string, KeyState>();
  private readonly pauseListeners = new Set<PauseListener>();
  readonly windowScale: number;
  readonly paceWindows: boolean;

  constructor(opts: PacerOptions = {}) {
    this.now = opts.now ?? Date.now;
    this.sleep = opts.sleep ?? realSleep;
    this.windowScale = opts.windowScale ?? 1;
    this.paceWindows = opts.paceWindows ?? true;
    if (opts.onPause) this.pauseListeners.add(opts.onPause);
    // Stamps move to each answer's time (settle), so a window never opens early in the target's
    // eyes; the margin covers only timer granularity.
    this.margin = opts.margin ?? 25;
  }

  private windows(method: string, path: string): [RateWindow, RateWindow, RateWindow] {
    return scaledWindowsFor(method, path, this.windowScale);
  }

  /**
   * Resolves when the request may be sent now; the send is counted at that moment and moved to
   * the answer's time by the returned settle(). FIFO per key.
   */
  acquire(key: string, method: string, path: string, signal?: AbortSignal): Promise<Settle> {
    const st = this.state(key);
    return new Promise<Settle>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason ?? new Error('aborted'));
      st.queue.push({ method: method.toUpperCase(), path, signal, resolve, reject });
      if (!st.draining) void this.drain(st);
    });
  }

  /**
   * The target asked this key to wait until `untilMs`: nothing is sent on it before then (queued
   * callers included). A later pause extends, an earlier one never shortens. Listeners hear of it.
   */
  pause(key: string, untilMs: number): void {
    const st = this.state(key);
    const now = this.now();
    if (!(untilMs > now) || untilMs <= st.pausedUntil) return;
    st.pausedUntil = untilMs;
    const e: PauseEvent = { key, untilMs, pausedMs: untilMs - now };
    for (const l of this.pauseListeners) l(e);
  }

  /** When the key's pause ends, or undefined when it is not paused. */
  pausedUntil(key: string): number | undefined {
    const until = this.keys.get(key)?.pausedUntil ?? 0;
    return until > this.now() ? until : undefined;
  }

  /** Subscribe to pauses; returns the unsubscribe function. */
  onPause(listener: PauseListener): () => void {
    this.pauseListeners.add(listener);
    return () => this.pauseListeners.delete(listener);
  }

  /**
   * How close the key is to blocking: the fullest window's fill ratio (0..1)
   * plus one per queued caller; a paused key counts as fully busy (PAUSED_PRESSURE). Lower is less busy.
   */
  pressure(key: string): number {
    const st = this.keys.get(key);
    if (!st) return 0;
    const now = this.now();
    if (st.pausedUntil > now) return PAUSED_PRESSURE + st.queue.length;
    if (!this.paceWindows) return st.queue.length;
    let worst = 0;
    const [, minute, hour] = this.windows('GET', '/');
    worst = Math.max(worst, inWindow(st.all, minute, now) / minute.limit, inWindow(st.all, hour, now) / hour.limit);
    for (const [group, stamps] of st.groups) {
      const w = firstWindowOf(group, this.windowScale);
      worst = Math.max(worst, inWindow(stamps, w, now) / w.limit);
    }
    return worst + st.queue.length;
  }

  /**
   * Requests this key may still send before its longest (hour) window is full, counting the callers
   * already queued: a check that creates many objects sizes itself by it, since past it every
   * request waits for the window to move (up to the window's length).
   */
  hourRoom(key: string): number {
    const [, , hour] = this.windows('GET', '/');
    const st = this.keys.get(key);
    if (!st) return hour.limit;
    return Math.max(0, hour.limit - inWindow(st.all, hour, this.now()) - st.queue.length);
  }

  /** Ms until a request of this route could be sent on this key, ignoring callers already queued. */
  waitEstimateMs(key: string, method: string, path: string): number {
    const st = this.keys.get(key);
    if (!st) return 0;
    return this.waitFor(st, method.toUpperCase(), path, this.now());
  }

  private state(key: string): KeyState {
    let st = this.keys.get(key);
    if (!st) {
      st = { all: [], groups: new Map(), queue: [], draining: false, pausedUntil: 0 };
      this.keys.set(key, st);
    }
    return st;
  }

  private waitFor(st: KeyState, method: string, path: string, now: number): number {
    const paused = Math.max(0, st.pausedUntil - now);
    if (!this.paceWindows) return paused > 0 ? paused + this.margin : 0;
    const [first, minute, hour] = this.windows(method, path);
    const group = gateRouteGroup(method, path);
    const waits = [waitIn(st.groups.get(group) ?? [], first, now), waitIn(st.all, minute, now), waitIn(st.all, hour, now), paused];
    const w = Math.max(...waits);
    return w > 0 ? w + this.margin : 0;
  }

  private async drain(st: KeyState): Promise<void> {
    st.draining = true;
    try {
      let loops = 0;
      while (st.queue.length > 0 && loops++ < MAX_WAIT_LOOPS) {
        const head = st.queue[0]!;
        if (head.signal?.aborted) {
          st.queue.shift();
          head.reject(head.signal.reason ?? new Error('aborted'));
          continue;
        }
        const now = this.now();
        const wait = this.waitFor(st, head.method, head.path, now);
        if (wait <= 0) {
          st.queue.shift();
          head.resolve(this.record(st, head.method, head.path, now));
          continue;
        }
        // The head waits on its route group's window: a queued request of another group that fits
        // now goes first, so one busy group never idles the key (no head-of-line blocking).
        const next = st.queue.findIndex((w, i) => i > 0 && !w.signal?.aborted && this.waitFor(st, w.method, w.path, now) <= 0);
        if (next > 0) {
          const [w] = st.queue.splice(next, 1);
          w!.resolve(this.record(st, w!.method, w!.path, now));
          continue;
        }
        try {
          // Wake for whichever queued request can go first.
          const soonest = Math.min(wait, ...st.queue.slice(1, 50).map((w) => this.waitFor(st, w.method, w.path, now)));
          await this.sleep(Math.max(1, soonest), head.signal);
        } catch (e) {
          // Only the head's own abort interrupts the wait; the queue goes on.
          const i = st.queue.indexOf(head);
          if (i >= 0) st.queue.splice(i, 1);
          head.reject(e);
        }
      }
    } finally {
      st.draining = false;
    }
  }

  private record(st: KeyState, method: string, path: string, now: number): Settle {
    if (!this.paceWindows) return () => undefined;
    const group = gateRouteGroup(method, path);
    const [first, , hour] = this.windows(method, path);
    st.all.push(now);
    prune(st.all, hour, now);
    let g = st.groups.get(group);
    if (!g) st.groups.set(group, (g = []));
    g.push(now);
    prune(g, first, now);
    const groupStamps = g;
    let settled = false;
    return (atMs = this.now()) => {
      if (settled || atMs <= now) return;
      settled = true;
      restamp(st.all, now, atMs);
      restamp(groupStamps, now, atMs);
    };
  }
}

function firstWindowOf(group: RouteGroup, scale: number): RateWindow {
  const samples: Record<RouteGroup, [string, string]> = {
    write10: ['POST', '/gate_sessions'],
    write30: ['POST', '/quotes'],
    read60: ['GET', '/gate_sessions'],
    default: ['GET', '/dashboard/webhook-settings'],
  };
  const [m, p] = samples[group];
  return scaledWindowsFor(m, p, scale)[0];
}

function inWindow(stamps: number[], w: RateWindow, now: number): number {
  let n = 0;
  for (let i = stamps.length - 1; i >= 0 && stamps[i]! > now - w.windowMs; i--) n++;
  return n;
}

/** Ms until one more request fits the sliding window (0 = now). */
function waitIn(stamps: number[], w: RateWindow, now: number): number {
  const n = inWindow(stamps, w, now);
  if (n < w.limit) return 0;
  // The (n − limit + 1)-th oldest stamp inside the window must leave it first.
  const oldestInside = stamps.length - n;
  const leaving = stamps[oldestInside + (n - w.limit)]!;
  return Math.max(1, leaving + w.windowMs - now);
}

/** Move one stamp `from` → `to`, keeping the list ascending (a pruned stamp is simply gone). */
function restamp(stamps: number[], from: number, to: number): void {
  const i = stamps.indexOf(from);
  if (i < 0) return;
  stamps.splice(i, 1);
  let j = stamps.length;
  while (j > 0 && stamps[j - 1]! > to) j--;
  stamps.splice(j, 0, to);
}

function prune(stamps: number[], w: RateWindow, now: number): void {
  let drop = 0;
  while (drop < stamps.length && stamps[drop]! <= now - w.windowMs) drop++;
  if (drop > 0) stamps.splice(0, drop);
}
