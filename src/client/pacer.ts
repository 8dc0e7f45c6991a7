// Client-side mirror of the documented Gate rate limits, per secret key, so
// ordinary checks never provoke an unintended 429. Three concurrent sliding
// windows per request: the route group's first window (counting only that
// group's requests), then 60/min and 300/h (counting every request of the key).
// A key the target paused (429 with Retry-After on a paced request) sends
// nothing until the pause ends: every queued and new request on it waits.
// A chain of steps that must all happen inside a lifetime (a signed quote, a
// session) is granted as one block before its first step (reserve): its
// requests then never queue behind other checks' between steps.
import { AsyncLocalStorage } from 'node:async_hooks';
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
  /**
   * true (a --depth quick run): a request that would wait for its key's hour window is refused at once
   * (HourWindowFull) instead of sitting in the queue for up to an hour; its check skips with the reason.
   */
  refuseHourWait?: boolean;
}

/** The key's 300-per-hour window is full and the run does not wait for it (--depth quick). */
export class HourWindowFull extends Error {
  constructor() {
    super(
      'the key has sent its 300 requests of this hour window; a --depth quick run does not wait for the next — add gate partners or extraSecretKeys to the profile, or run with --depth full, which waits for the window',
    );
    this.name = 'HourWindowFull';
  }
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
  /** A block of steps granted at once (reserve); absent for one request. */
  block?: { method: string; path: string }[];
  /** A block's grant: told the instant its stamps were recorded. */
  onGrant?: (at: number) => void;
  signal?: AbortSignal;
  resolve: (settle: Settle) => void;
  reject: (e: unknown) => void;
}

/** One step of a chain: a request the chain will send, by route (its group decides which windows it fills). */
export interface ChainStep {
  method: string;
  path: string;
}

/**
 * Requests granted to a chain as one block. Each request sent within it (`within`) on its key takes a
 * granted slot of its route group instead of queueing; a slot never used simply ages out of the windows.
 */
export interface Reservation {
  readonly key: string;
  /** Slots not used yet. */
  remaining(): number;
  /** Run `fn` with this reservation: its requests on the key use the granted slots. */
  within<T>(fn: () => Promise<T>): Promise<T>;
  /** Give the unused slots back (they were never sent). */
  release(): void;
}

interface Slot {
  group: RouteGroup;
  /** The stamp recorded for it at the grant (moved to the send time when used). */
  at: number;
}

interface ReservationState extends Reservation {
  slots: Slot[];
}

/** The reservation the current async context runs within (Reservation.within). */
const chainScope = new AsyncLocalStorage<ReservationState>();

/**
 * Moves a request's stamp from its send time to the time its answer came
 * (the target counted it somewhere in between): the windows then never assume
 * the target saw it earlier than it could have. Call it once the answer (or
 * the failure) is in; calling it is optional.
 */
export type Settle = (atMs?: number, status?: number) => void;

/** One request on a watched key: sent (granted) at `sentAt`, answered at `answeredAt` with `status` (undefined: no HTTP answer). */
export interface KeyRequest {
  method: string;
  path: string;
  sentAt: number;
  answeredAt: number;
  status?: number;
}
export type KeyWatcher = (r: KeyRequest) => void;

interface KeyState {
  /** Send times of every request of the key (the 60/min and 300/h windows), ascending, pruned to the longest window. */
  all: number[];
  /** Send times per route group (that group's first window). */
  groups: Map<RouteGroup, number[]>;
  queue: Waiter[];
  draining: boolean;
  /** No request is sent on the key before this time (the target's Retry-After); 0 = not paused. */
  pausedUntil: number;
  /** No request is sent on the key before this time either: rampart's own hold (a window probe empties the key's windows). */
  heldUntil: number;
  /** Requests granted and not yet answered. */
  inFlight: number;
  watchers: Set<KeyWatcher>;
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
  private readonly refuseHourWait: boolean;

  constructor(opts: PacerOptions = {}) {
    this.now = opts.now ?? Date.now;
    this.sleep = opts.sleep ?? realSleep;
    this.windowScale = opts.windowScale ?? 1;
    this.paceWindows = opts.paceWindows ?? true;
    this.refuseHourWait = opts.refuseHourWait ?? false;
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
    const chain = chainScope.getStore();
    if (chain && chain.key === key && this.paceWindows && !(st.pausedUntil > this.now())) {
      const group = gateRouteGroup(method, path);
      const i = chain.slots.findIndex((s) => s.group === group);
      if (i >= 0) {
        const [slot] = chain.slots.splice(i, 1);
        return Promise.resolve(this.useSlot(st, group, slot!.at, method, path));
      }
    }
    return new Promise<Settle>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason ?? new Error('aborted'));
      st.queue.push({ method: method.toUpperCase(), path, signal, resolve, reject });
      if (!st.draining) void this.drain(st);
    });
  }

  /**
   * Grant `steps` on this key as one block: resolves once every one of them fits the key's windows at the
   * same instant, and records them all then (FIFO with the key's other waiters; nothing queued behind the
   * block may take a slot it needs). Rejects when a window could never hold the whole block.
   */
  reserve(key: string, steps: readonly ChainStep[], signal?: AbortSignal): Promise<Reservation> {
    const st = this.state(key);
    const block = steps.map((s) => ({ method: s.method.toUpperCase(), path: s.path.split('?')[0]! }));
    const tooBig = this.paceWindows ? this.oversized(block) : undefined;
    if (tooBig) return Promise.reject(new Error(tooBig));
    return new Promise<Reservation>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason ?? new Error('aborted'));
      const res: ReservationState = {
        key,
        slots: [],
        remaining: () => res.slots.length,
        within: (fn) => chainScope.run(res, fn),
        release: () => {
          for (const s of res.slots.splice(0)) this.dropStamp(st, s.group, s.at);
        },
      };
      st.queue.push({
        method: block[0]?.method ?? 'GET',
        path: block[0]?.path ?? '/',
        block,
        onGrant: (at) => {
          if (this.paceWindows) for (const b of block) res.slots.push({ group: gateRouteGroup(b.method, b.path), at });
          resolve(res);
        },
        signal,
        resolve: () => undefined,
        reject,
      });
      if (!st.draining) void this.drain(st);
    });
  }

  /** Why a block can never be granted: a window it fills holds fewer requests than the block sends there. */
  private oversized(block: { method: string; path: string }[]): string | undefined {
    if (!block.length) return undefined;
    const [, minute, hour] = this.windows('GET', '/');
    if (block.length > Math.min(minute.limit, hour.limit)) return `a chain of ${block.length} requests exceeds the ${minute.limit}-per-minute window`;
    const perGroup = new Map<RouteGroup, number>();
    for (const b of block) perGroup.set(gateRouteGroup(b.method, b.path), (perGroup.get(gateRouteGroup(b.method, b.path)) ?? 0) + 1);
    for (const [g, n] of perGroup) {
      const w = firstWindowOf(g, this.windowScale);
      if (n > w.limit) return `a chain of ${n} ${g} requests exceeds that route group's ${w.limit}-request window`;
    }
    return undefined;
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
      st = { all: [], groups: new Map(), queue: [], draining: false, pausedUntil: 0, heldUntil: 0, inFlight: 0, watchers: new Set() };
      this.keys.set(key, st);
    }
    return st;
  }

  /** Ms until a waiter (one request, or a whole block) could be granted. */
  private waitOf(st: KeyState, w: Waiter, now: number): number {
    return w.block ? this.blockWait(st, w.block, now) : this.waitFor(st, w.method, w.path, now);
  }

  private blockWait(st: KeyState, block: { method: string; path: string }[], now: number): number {
    const paused = Math.max(0, st.pausedUntil - now, st.heldUntil - now);
    if (!this.paceWindows) return paused > 0 ? paused + this.margin : 0;
    const [, minute, hour] = this.windows('GET', '/');
    const waits = [paused, waitIn(st.all, minute, now, block.length), waitIn(st.all, hour, now, block.length)];
    const perGroup = new Map<RouteGroup, number>();
    for (const b of block) perGroup.set(gateRouteGroup(b.method, b.path), (perGroup.get(gateRouteGroup(b.method, b.path)) ?? 0) + 1);
    for (const [g, n] of perGroup) waits.push(waitIn(st.groups.get(g) ?? [], firstWindowOf(g, this.windowScale), now, n));
    const w = Math.max(...waits);
    return w > 0 ? w + this.margin : 0;
  }

  /** Is the hour window what keeps this waiter from going now? */
  private waitsForHour(st: KeyState, w: Waiter, now: number): boolean {
    if (!this.paceWindows) return false;
    const [, , hour] = this.windows('GET', '/');
    return waitIn(st.all, hour, now, w.block?.length ?? 1) > 0;
  }

  /** A granted slot used now: its stamp moves from the grant to the send, then to the answer (settle). */
  private useSlot(st: KeyState, group: RouteGroup, grantedAt: number, method: string, path: string): Settle {
    const now = this.now();
    let g = st.groups.get(group);
    if (!g) st.groups.set(group, (g = []));
    // A slot used after its grant aged out of a (shorter) window is counted there again from now.
    moveOrAdd(st.all, grantedAt, now);
    moveOrAdd(g, grantedAt, now);
    return this.settleOnce(st, g, now, method, path);
  }

  /**
   * Settle a request stamped at `now` once, at the moment its answer came (never earlier); the key's
   * watchers hear of it (with the answer's status) either way.
   */
  private settleOnce(st: KeyState, groupStamps: number[] | undefined, now: number, method: string, path: string): Settle {
    let settled = false;
    st.inFlight++;
    return (atMs = this.now(), status?: number) => {
      if (settled) return;
      settled = true;
      st.inFlight--;
      if (groupStamps && atMs > now) {
        restamp(st.all, now, atMs);
        restamp(groupStamps, now, atMs);
      }
      const r: KeyRequest = { method, path, sentAt: now, answeredAt: Math.max(atMs, now), ...(status !== undefined ? { status } : {}) };
      for (const w of st.watchers) w(r);
    };
  }

  /**
   * Hear of every request of this key once it is answered (paced ones and sendNow's): a window probe judges
   * the key's whole stream. Returns the unsubscribe function.
   */
  watch(key: string, watcher: KeyWatcher): () => void {
    const st = this.state(key);
    st.watchers.add(watcher);
    return () => st.watchers.delete(watcher);
  }

  /** Send nothing more on this key before `untilMs` (rampart's own hold, never shortened; not a pause of the target's). */
  hold(key: string, untilMs: number): void {
    const st = this.state(key);
    st.heldUntil = Math.max(st.heldUntil, untilMs);
  }

  /** Requests this route's first window (its route group's) still holds on this key now. */
  firstWindowRoom(key: string, method: string, path: string): number {
    const [first] = this.windows(method, path);
    const stamps = this.keys.get(key)?.groups.get(gateRouteGroup(method, path)) ?? [];
    return Math.max(0, first.limit - inWindow(stamps, first, this.now()));
  }

  /** Requests of this key granted and not answered yet. */
  inFlight(key: string): number {
    return this.keys.get(key)?.inFlight ?? 0;
  }

  /**
   * Requests of this key whose answers came within the last `windowMs` (its stamps), or every one of them
   * when the key's windows are not paced.
   */
  sentWithin(key: string, windowMs: number): number {
    const st = this.keys.get(key);
    if (!st) return 0;
    return inWindow(st.all, { limit: Infinity, windowMs } as RateWindow, this.now());
  }

  /**
   * Count a request sent now, past the windows (a probe meant to be refused): it fills the key's windows like
   * any other, so requests after it wait for it too (under a reading where a refused request counts).
   */
  sendNow(key: string, method: string, path: string): Settle {
    const st = this.state(key);
    return this.record(st, method.toUpperCase(), path, this.now());
  }

  /** Forget a stamp recorded for a slot that was never sent. */
  private dropStamp(st: KeyState, group: RouteGroup, at: number): void {
    const i = st.all.indexOf(at);
    if (i >= 0) st.all.splice(i, 1);
    const g = st.groups.get(group);
    const j = g?.indexOf(at) ?? -1;
    if (g && j >= 0) g.splice(j, 1);
  }

  private waitFor(st: KeyState, method: string, path: string, now: number): number {
    const paused = Math.max(0, st.pausedUntil - now, st.heldUntil - now);
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
        const wait = this.waitOf(st, head, now);
        if (wait <= 0) {
          st.queue.shift();
          this.grant(st, head, now);
          continue;
        }
        if (this.refuseHourWait && this.waitsForHour(st, head, now)) {
          st.queue.shift();
          head.reject(new HourWindowFull());
          continue;
        }
        // The head waits on its route group's window: a queued request of another group that fits
        // now goes first, so one busy group never idles the key (no head-of-line blocking) — unless it
        // would delay a block waiting ahead of it, which would then wait for ever behind single requests.
        const blocksAhead = (i: number) => st.queue.slice(0, i).filter((w) => w.block);
        const next = st.queue.findIndex(
          (w, i) => i > 0 && !w.signal?.aborted && this.waitOf(st, w, now) <= 0 && !this.delaysBlocks(st, w, blocksAhead(i), now),
        );
        if (next > 0) {
          const [w] = st.queue.splice(next, 1);
          this.grant(st, w!, now);
          continue;
        }
        try {
          // Wake for whichever queued request can go first.
          const soonest = Math.min(wait, ...st.queue.slice(1, 50).map((w) => this.waitOf(st, w, now)));
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

  private grant(st: KeyState, w: Waiter, now: number): void {
    if (!w.block) return w.resolve(this.record(st, w.method, w.path, now));
    // A block: every step is recorded now; its reservation hands the slots out as the steps are sent.
    if (this.paceWindows) for (const b of w.block) this.record(st, b.method, b.path, now, false);
    w.onGrant!(now);
  }

  /** Would granting `w` now make any of these blocks wait longer than they already must? */
  private delaysBlocks(st: KeyState, w: Waiter, blocks: Waiter[], now: number): boolean {
    if (!blocks.length || !this.paceWindows) return false;
    const before = blocks.map((b) => this.blockWait(st, b.block!, now));
    const steps = w.block ?? [{ method: w.method, path: w.path }];
    const added = steps.map((s) => ({ group: gateRouteGroup(s.method, s.path) }));
    for (const a of added) {
      st.all.push(now);
      let g = st.groups.get(a.group);
      if (!g) st.groups.set(a.group, (g = []));
      g.push(now);
    }
    const after = blocks.map((b) => this.blockWait(st, b.block!, now));
    for (const a of added) this.dropStamp(st, a.group, now);
    return after.some((x, i) => x > before[i]!);
  }

  /** Stamp a request sent now; `track` false for a block's slots (each is tracked when used, useSlot). */
  private record(st: KeyState, method: string, path: string, now: number, track = true): Settle {
    if (!track && !this.paceWindows) return () => undefined;
    if (!this.paceWindows) return this.settleOnce(st, undefined, now, method, path);
    const group = gateRouteGroup(method, path);
    const [first, , hour] = this.windows(method, path);
    st.all.push(now);
    prune(st.all, hour, now);
    let g = st.groups.get(group);
    if (!g) st.groups.set(group, (g = []));
    g.push(now);
    prune(g, first, now);
    return track ? this.settleOnce(st, g, now, method, path) : () => undefined;
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

/** Ms until `k` more requests fit the sliding window at once (0 = now). */
function waitIn(stamps: number[], w: RateWindow, now: number, k = 1): number {
  const n = inWindow(stamps, w, now);
  if (n + k <= w.limit) return 0;
  // The (n + k − limit)-th oldest stamp inside the window must leave it first.
  const oldestInside = stamps.length - n;
  const leaving = stamps[oldestInside + (n + k - 1 - w.limit)];
  if (leaving === undefined) return w.windowMs;
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

/** Move one stamp `from` → `to`, or add `to` when `from` is gone (pruned out of its window). */
function moveOrAdd(stamps: number[], from: number, to: number): void {
  if (stamps.includes(from)) return restamp(stamps, from, to);
  let j = stamps.length;
  while (j > 0 && stamps[j - 1]! > to) j--;
  stamps.splice(j, 0, to);
}

function prune(stamps: number[], w: RateWindow, now: number): void {
  let drop = 0;
  while (drop < stamps.length && stamps[drop]! <= now - w.windowMs) drop++;
  if (drop > 0) stamps.splice(0, drop);
}
