// The embedded target's clock. Injected so tests can move time without waiting.
// Also what its answers say of it (the Date header), and the seeded faults of a
// target that tries to steer rampart's reading of its clock.
import type { Profile } from '../../profile/schema.js';
import { choiceOf } from './dialect.js';
import type { ActiveFaults, FaultDef } from './faults.js';

export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/**
 * A clock that runs `offsetMs` away from another: a remote sandbox keeps its own time
 * (profile reference.clockOffsetSeconds). `shiftMs` moves it further while a lived-in
 * history is written into the past, and is 0 otherwise.
 */
export class OffsetClock implements Clock {
  shiftMs = 0;
  constructor(
    private readonly base: Clock,
    readonly offsetMs: number,
  ) {}
  now(): number {
    return this.base.now() + this.offsetMs + this.shiftMs;
  }
}

const MINUTE = 60_000;

export const CLOCK_FAULTS: FaultDef[] = [
  {
    name: 'clock-gate-date-from-proxy',
    service: 'gate',
    requirements: ['GATE-SIG-TIMESTAMP-FRESH'],
    description:
      "Gate answers carry a Date header from another clock (a proxy's), 15 minutes behind the target's own, and deliveries are signed with t= from that clock: 15 minutes old, though fresh on the Date headers' clock. The objects' stamps say otherwise.",
    suite: 'conformance',
  },
  {
    name: 'clock-gate-date-outlier-stale-t',
    service: 'gate',
    requirements: ['GATE-SIG-TIMESTAMP-FRESH'],
    description:
      'Deliveries are signed with t= 15 minutes old, and one Gate answer in twenty (the 2nd, 22nd, …) carries a Date header 15 minutes behind: a clock widened to cover that answer would call the t= fresh.',
    suite: 'conformance',
  },
  {
    name: 'clock-gate-jumps',
    service: 'gate',
    requirements: ['GATE-SESS-EXPIRE-ON-BOOTSTRAP', 'GATE-SESS-RETRIEVE-NO-STATUS-CHANGE'],
    description:
      "The target's clock jumps 10 minutes ahead on every other Gate answer and back on the next: its stamps, expires_at, Date headers and webhook t= alike. A session's expires_at stands on no steady clock.",
    suite: 'conformance',
  },
  {
    name: 'clock-pools-ttl-300s-date-outlier',
    service: 'pools',
    requirements: ['POOLS-TTL-EXPIRES-AT'],
    description:
      'Firm quotes state expiresAt 300 s ahead (they are refused after 15 s), the stored quote carries no createdAt, and one pools answer in twenty (the 2nd, 22nd, …) carries a Date header 10 minutes off: a clock widened to cover that answer would take 300 s for "about 15 s".',
    suite: 'conformance',
  },
  {
    // A target with neither a Date header nor a stamp leaves its time rules unverified (neither is required): this
    // one keeps its stamps, so the broken TTL is judged on them alone.
    name: 'clock-pools-no-date-ttl-300s',
    service: 'pools',
    requirements: ['POOLS-TTL-EXPIRES-AT'],
    description:
      "Pools answers carry no Date header, and firm quotes state expiresAt 300 s ahead (they are refused after 15 s): the stored quote's createdAt is the only clock the target shows, and it judges expiresAt.",
    suite: 'conformance',
  },
];

/** Faults under which a firm quote states expiresAt 300 s ahead. */
export const STATED_TTL_300S_FAULTS = ['clock-pools-ttl-300s-date-outlier', 'clock-pools-no-date-ttl-300s'] as const;
/** Faults under which the stored quote hides its createdAt too (the Date headers are then the clock). */
export const HIDDEN_CREATED_AT_FAULTS = ['clock-pools-ttl-300s-date-outlier'] as const;

/** How far the second clock of a fleet's Date headers is off the target's own (gate.transport.dateHeader 'two-clocks'). */
const FLEET_OFFSET_MS = -4_000;

/** How far (ms) the t= of a Gate delivery lags the target's clock under a clock fault. */
export function signedTimestampLagMs(faults: ActiveFaults): number {
  return faults.has('clock-gate-date-from-proxy') || faults.has('clock-gate-date-outlier-stale-t') ? 15 * MINUTE : 0;
}

/**
 * The target's clock, 10 minutes ahead on every other Gate answer under the jump fault (the request pipeline
 * counts the answers). The rate limiter keeps the steady clock: its windows are the target's own measure of
 * time, not what it shows.
 */
export class JumpingClock implements Clock {
  private answers = 0;
  constructor(
    private readonly base: Clock,
    private readonly faults: ActiveFaults,
  ) {}
  /** One more Gate answer sent. */
  answered(): void {
    this.answers++;
  }
  now(): number {
    const jumped = this.faults.has('clock-gate-jumps') && this.answers % 2 === 1;
    return this.base.now() + (jumped ? 10 * MINUTE : 0);
  }
}

/** A declared trait of the world (not a fault): one answer in `every` carries a Date header `offsetSeconds` off. */
export interface DateOutliers {
  every: number;
  offsetSeconds: number;
}

/**
 * The Date header of each answer of one service: its clock's time, or none, or another clock's under a fault. The
 * world's choice at gate.transport.dateHeader shapes the Gate answers' (none at all, or a fleet's two clocks in turn).
 */
export class DateHeaders {
  private n = 0;
  private readonly trait: 'one-clock' | 'absent' | 'two-clocks';
  constructor(
    private readonly service: 'gate' | 'pools',
    private readonly clock: Clock,
    private readonly faults: ActiveFaults,
    private readonly outliers?: DateOutliers,
    profile?: Profile,
  ) {
    this.trait = service === 'gate' && profile ? choiceOf(profile, 'gate.transport.dateHeader') : 'one-clock';
  }

  /** The next answer's Date header, or undefined for none. */
  next(): string | undefined {
    const n = this.n++;
    const f = (name: string) => this.faults.has(name);
    if (this.service === 'pools' && f('clock-pools-no-date-ttl-300s')) return undefined;
    if (this.service === 'gate' && (f('sess-ends-early-no-date') || this.trait === 'absent')) return undefined;
    let at = this.clock.now();
    if (this.trait === 'two-clocks' && n % 2 === 1) at += FLEET_OFFSET_MS;
    if (this.service === 'gate' && f('clock-gate-date-from-proxy')) at -= 15 * MINUTE;
    const outlier =
      this.service === 'gate' && f('clock-gate-date-outlier-stale-t')
        ? { every: 20, offsetSeconds: -15 * 60 }
        : this.service === 'pools' && f('clock-pools-ttl-300s-date-outlier')
          ? { every: 20, offsetSeconds: -10 * 60 }
          : this.outliers;
    if (outlier && n % outlier.every === 1) at += outlier.offsetSeconds * 1000;
    return new Date(at).toUTCString();
  }
}
