// The embedded target's clock. Injected so tests can move time without waiting.
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
