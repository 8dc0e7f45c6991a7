// A check's time budget counts only time spent waiting on the target (an
// answer, a webhook, a documented expiry). Time queued behind rampart's own
// pacer, a lease of a partner another check holds, or a back-off of its own
// making is not counted: with one key every check queues behind the others,
// and that is rampart's wait, never the target's fault.

export interface BudgetOptions {
  limitMs: number;
  now?: () => number;
  /** Called once when the counted time reaches the limit, with the reason. */
  onExpired: (reason: string) => void;
}

export class Budget {
  private readonly now: () => number;
  private readonly startedAt: number;
  /** Open harness waits; while any is open the clock does not count. */
  private harnessOpen = 0;
  private harnessSince = 0;
  private harnessTotal = 0;
  /** Labels of what the check is waiting on now (target side). */
  private readonly targetWaits = new Map<number, { what: string; since: number }>();
  private readonly harnessWaits = new Map<number, { what: string; since: number }>();
  private seq = 0;
  private timer: NodeJS.Timeout | undefined;
  private expired = false;
  private stopped = false;

  constructor(private readonly opts: BudgetOptions) {
    this.now = opts.now ?? Date.now;
    this.startedAt = this.now();
    this.arm();
  }

  get limitMs(): number {
    return this.opts.limitMs;
  }

  /** Add a documented wait of known length (a declared lifetime) to the budget, so only time beyond it counts as the target's delay. */
  extend(ms: number): void {
    this.opts.limitMs += Math.max(0, ms);
    this.arm();
  }

  /** Target time spent so far (ms). */
  counted(): number {
    const now = this.now();
    const openHarness = this.harnessOpen > 0 ? now - this.harnessSince : 0;
    return Math.max(0, now - this.startedAt - this.harnessTotal - openHarness);
  }

  /** Time spent in rampart's own waits (ms). */
  uncounted(): number {
    const now = this.now();
    return this.harnessTotal + (this.harnessOpen > 0 ? now - this.harnessSince : 0);
  }

  /** Wrap a wait of rampart's own making: its time does not count. */
  async harness<T>(what: string, p: Promise<T>): Promise<T> {
    const id = ++this.seq;
    const now = this.now();
    if (this.harnessOpen++ === 0) this.harnessSince = now;
    this.harnessWaits.set(id, { what, since: now });
    try {
      return await p;
    } finally {
      this.harnessWaits.delete(id);
      if (--this.harnessOpen === 0) {
        this.harnessTotal += this.now() - this.harnessSince;
        this.arm();
      }
    }
  }

  /** Wrap a wait on the target: it counts, and a timeout names it. */
  async target<T>(what: string, p: Promise<T>): Promise<T> {
    const id = ++this.seq;
    this.targetWaits.set(id, { what, since: this.now() });
    try {
      return await p;
    } finally {
      this.targetWaits.delete(id);
    }
  }

  /** What the check is waiting for right now, for a timeout message. */
  describe(): string {
    const now = this.now();
    const waits = [...this.targetWaits.values()].sort((a, b) => a.since - b.since);
    if (waits.length === 0) return 'no request was outstanding (the check itself was busy)';
    return waits
      .slice(0, 3)
      .map((w) => `${w.what} (${((now - w.since) / 1000).toFixed(1)} s)`)
      .join('; ');
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(): void {
    if (this.stopped || this.expired) return;
    if (this.timer) clearTimeout(this.timer);
    const left = this.opts.limitMs - this.counted();
    if (left <= 0) return this.expire();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      // Harness waits may have run meanwhile: re-arm for what is really left.
      if (this.opts.limitMs - this.counted() > 0) this.arm();
      else this.expire();
    }, left + 5);
    this.timer.unref?.();
  }

  private expire(): void {
    if (this.expired || this.stopped) return;
    this.expired = true;
    const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    const queued = this.uncounted();
    this.opts.onExpired(
      `the target used up the check's ${secs(this.opts.limitMs)} budget; waiting for: ${this.describe()}` +
        (queued > 0 ? ` (a further ${secs(queued)} queued behind rampart's own pacing was not counted)` : ''),
    );
  }
}
