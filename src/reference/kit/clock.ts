// The embedded target's clock. Injected so tests can move time without waiting.
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
